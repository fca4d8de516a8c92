import { createRequire } from 'node:module';
import path from 'node:path';
import { QuireError, sniffFileType, type SourceFormat } from '@quire/core';
import { listZipEntries, listZipEntriesByRange, type RandomAccessSource } from '@quire/format-ooxml';
import { loadPdfjs } from '@quire/format-pdf';

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

/** Documents up to this size are read whole by `inspectStoredDocument` (simplest, exact); larger ones by range. */
const INSPECT_WHOLE_LIMIT_BYTES = 16 * 1024 * 1024;
const RANGE_CHUNK = 64 * 1024;

/**
 * `inspectDocument` for a stored document in bounded memory: small files are read whole; larger ones
 * are sniffed from their first bytes, zip containers listed from their central directory, and PDFs
 * opened by pdf.js over range reads (xref and page tree only), so a 100 MB upload is never held.
 */
export async function inspectStoredDocument(src: RandomAccessSource, wholeLimit = INSPECT_WHOLE_LIMIT_BYTES): Promise<DocumentInfo> {
  if (src.size === 0) throw new QuireError('FILE_004', 'Empty file');
  if (src.size <= wholeLimit) return inspectDocument(await src.read(0, src.size));
  const head = await src.read(0, 8192);
  const isZip = head[0] === 0x50 && head[1] === 0x4b;
  const entries = isZip ? await listZipEntriesByRange(src) : undefined;
  const format = sniffFileType(head, entries);
  switch (format) {
    case 'pdf': return { format, pageCount: await countPdfPagesByRange(src) };
    case 'pptx': return { format, pageCount: Math.max(1, entries!.filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n)).length) };
    case 'xlsx': return { format, pageCount: Math.max(1, entries!.filter((n) => /^xl\/(worksheets\/sheet|chartsheets\/sheet)\d+\.xml$/.test(n)).length) };
    default: return { format, pageCount: 1 };
  }
}

const pdfjsOptions = () => ({
  isEvalSupported: false, verbosity: 0, stopAtErrors: false,
  standardFontDataUrl: path.join(PDFJS_DIR, 'standard_fonts') + '/', cMapUrl: path.join(PDFJS_DIR, 'cmaps') + '/', cMapPacked: true,
});

async function countPdfPagesByRange(src: RandomAccessSource): Promise<number> {
  const pdfjs = await loadPdfjs(); // the guarded loader: a plain import lets core-js replace JSON/Array builtins process-wide
  const transport = new pdfjs.PDFDataRangeTransport(src.size, await src.read(0, RANGE_CHUNK));
  transport.requestDataRange = (begin: number, end: number) => {
    src.read(begin, end).then((chunk) => transport.onDataRange(begin, chunk), () => transport.abort());
  };
  const task = pdfjs.getDocument({ ...pdfjsOptions(), range: transport, length: src.size, rangeChunkSize: RANGE_CHUNK, disableAutoFetch: true, disableStream: true });
  return openAndCount(task);
}

async function countPdfPages(bytes: Uint8Array): Promise<number> {
  const pdfjs = await loadPdfjs(); // the guarded loader: a plain import lets core-js replace JSON/Array builtins process-wide
  return openAndCount(pdfjs.getDocument({ ...pdfjsOptions(), data: new Uint8Array(bytes) }));
}

async function openAndCount(task: import('pdfjs-dist/types/src/display/api.js').PDFDocumentLoadingTask): Promise<number> {
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
