import { createRequire } from 'node:module';
import path from 'node:path';
import { QuireError, sniffFileType, type SourceFormat } from '@quire/core';
import { listZipEntries } from '@quire/format-ooxml';

export interface DocumentInfo {
  format: SourceFormat;
  /** Pages (slides, visible sheets); an estimate of 1 where the format has no fixed pages (docx, html). */
  pageCount: number;
}

const require = createRequire(import.meta.url);
const PDFJS_DIR = path.dirname(require.resolve('pdfjs-dist/package.json'));

/**
 * Identifies a document by its bytes and counts its pages cheaply — what the gateway needs to
 * validate the request and quote credits before any processing. Throws FILE_001/003/004.
 */
export async function inspectDocument(bytes: Uint8Array): Promise<DocumentInfo> {
  const head = bytes.subarray(0, 8192);
  const isZip = head[0] === 0x50 && head[1] === 0x4b;
  const entries = isZip ? await listZipEntries(bytes) : undefined;
  const format = sniffFileType(head, entries);
  switch (format) {
    case 'pdf': return { format, pageCount: await countPdfPages(bytes) };
    case 'pptx': return { format, pageCount: Math.max(1, entries!.filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n)).length) };
    case 'xlsx': return { format, pageCount: Math.max(1, entries!.filter((n) => /^xl\/(worksheets\/sheet|chartsheets\/sheet)\d+\.xml$/.test(n)).length) };
    default: return { format, pageCount: 1 };
  }
}

async function countPdfPages(bytes: Uint8Array): Promise<number> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0, stopAtErrors: false,
    standardFontDataUrl: path.join(PDFJS_DIR, 'standard_fonts') + '/', cMapUrl: path.join(PDFJS_DIR, 'cmaps') + '/', cMapPacked: true,
  });
  try {
    const doc = await task.promise;
    const n = doc.numPages;
    await doc.destroy();
    return n;
  } catch (e) {
    const name = (e as { name?: string }).name;
    if (name === 'PasswordException') throw new QuireError('FILE_003', 'The PDF is encrypted with a password; remove the password and upload again', { reason: 'encrypted' });
    throw new QuireError('FILE_003', 'File corrupted: the PDF could not be opened', { reason: (e as Error).message });
  } finally {
    await task.destroy().catch(() => undefined);
  }
}
