import { createRequire } from 'node:module';
import path from 'node:path';
import { QuireError } from '@quire/core';
import { guardBuiltins, installPolyfills } from './polyfills.js';

type PdfjsModule = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
export type PDFDocumentProxy = import('pdfjs-dist/legacy/build/pdf.mjs').PDFDocumentProxy;
export type PDFPageProxy = import('pdfjs-dist/legacy/build/pdf.mjs').PDFPageProxy;
export type PageViewport = import('pdfjs-dist/legacy/build/pdf.mjs').PageViewport;

const require = createRequire(import.meta.url);
let loaded: Promise<PdfjsModule> | undefined;

/**
 * Loads pdf.js once, lazily (importing this package costs nothing until a PDF is read). The legacy
 * build is the one that runs on Node 20. The worker module is preloaded onto globalThis so pdf.js
 * uses its in-thread "fake worker" without a dynamic import by URL. Builtin methods the legacy
 * build's core-js replaces (Array#push, JSON.parse/stringify, …) are put back to the native ones
 * afterwards (see guardBuiltins): they were slowing the whole process.
 */
export function loadPdfjs(): Promise<PdfjsModule> {
  loaded ??= (async () => {
    installPolyfills();
    const guard = guardBuiltins();
    try {
      const g = globalThis as { pdfjsWorker?: unknown };
      g.pdfjsWorker ??= await import('pdfjs-dist/legacy/build/pdf.worker.mjs' as string);
      return await import('pdfjs-dist/legacy/build/pdf.mjs');
    } finally {
      guard.restore();
    }
  })();
  return loaded;
}

/** Resource folders shipped inside pdfjs-dist; pdf.js requires the trailing '/'. Nothing is fetched. */
function resourceOptions() {
  const dir = path.dirname(require.resolve('pdfjs-dist/package.json'));
  return {
    standardFontDataUrl: path.join(dir, 'standard_fonts') + '/',
    cMapUrl: path.join(dir, 'cmaps') + '/',
    cMapPacked: true,
    wasmUrl: path.join(dir, 'wasm') + '/',
    iccUrl: path.join(dir, 'iccs') + '/',
  };
}

export interface OpenOptions {
  /** Images larger than this many pixels are not decoded (decompression-bomb guard). */
  maxImagePixels?: number;
}

/** Opens a document; maps pdf.js failures to FILE_003 (encrypted, corrupt, not a PDF). */
export async function openDocument(bytes: Uint8Array, opts: OpenOptions = {}): Promise<PDFDocumentProxy> {
  if (bytes.length === 0) throw new QuireError('FILE_004', 'Empty file');
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes), // a copy: pdf.js transfers (detaches) the buffer it is given
    ...resourceOptions(),
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
    maxImageSize: opts.maxImagePixels ?? -1,
  });
  try {
    return await task.promise;
  } catch (e) {
    await task.destroy().catch(() => undefined);
    throw mapOpenError(e);
  }
}

function mapOpenError(e: unknown): QuireError {
  const name = (e as { name?: string })?.name;
  const message = e instanceof Error ? e.message : String(e);
  if (name === 'PasswordException') {
    return new QuireError('FILE_003', 'The PDF is encrypted with a password; remove the password and upload again', { reason: 'encrypted' });
  }
  return new QuireError('FILE_003', `The PDF could not be read: ${message}`, { reason: name === 'InvalidPDFException' ? 'invalid' : 'corrupted' });
}
