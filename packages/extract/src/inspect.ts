import { QuireError, resolveLimits, sniffFileType, type SourceFormat } from '@quire/core';
import { listZipEntries, listZipEntriesByRange, openSafeZip, openZipByRange, type RandomAccessSource } from '@quire/format-ooxml';
import { countDocxPages, type DocxPartReader } from '@quire/format-docx';
import { countPdfPages } from '@quire/format-pdf';

export interface DocumentInfo {
  format: SourceFormat;
  /** Pages (slides, visible sheets, DOCX pages numbered as its reader numbers them); 1 for HTML and images. */
  pageCount: number;
}

/**
 * Identifies a document by its bytes and counts its pages cheaply — what the gateway needs to
 * validate the request and quote credits before any processing. Throws FILE_001/003/004. A PDF's pages
 * are counted by format-pdf's opener on pdf.js's worker thread, never on the caller's event loop.
 */
export async function inspectDocument(bytes: Uint8Array): Promise<DocumentInfo> {
  const head = bytes.subarray(0, 8192);
  const isZip = head[0] === 0x50 && head[1] === 0x4b;
  const entries = isZip ? await listZipEntries(bytes) : undefined;
  return infoOf(sniffFileType(head, entries), entries, () => countPdfPages(bytes), async () => openSafeZip(bytes, resolveLimits()));
}

/** Documents up to this size are read whole by `inspectStoredDocument` (simplest, exact); larger ones by range. */
export const INSPECT_WHOLE_LIMIT_BYTES = 16 * 1024 * 1024;

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
  return infoOf(sniffFileType(head, entries), entries, () => countPdfPages(src), () => openZipByRange(src, resolveLimits()));
}

/**
 * Pages by format: a PDF's from its page tree, slides and sheets from the zip's part names, a DOCX's by
 * the DOCX reader's own page walk (breaks Word rendered, else explicit ones), 1 for the rest.
 */
async function infoOf(format: SourceFormat, entries: string[] | undefined, pdfPages: () => Promise<number>, zip: () => Promise<DocxPartReader>): Promise<DocumentInfo> {
  switch (format) {
    case 'pdf': return { format, pageCount: await pdfPages() };
    case 'docx': return { format, pageCount: await countDocxPages(await zip()) };
    case 'pptx': return { format, pageCount: Math.max(1, entries!.filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n)).length) };
    case 'xlsx': return { format, pageCount: Math.max(1, entries!.filter((n) => /^xl\/(worksheets\/sheet|chartsheets\/sheet)\d+\.xml$/.test(n)).length) };
    default: return { format, pageCount: 1 };
  }
}
