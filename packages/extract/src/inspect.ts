import { QuireError, sniffFileType, type SourceFormat } from '@quire/core';
import { listZipEntries } from '@quire/format-ooxml';
import { countPdfPages } from '@quire/format-pdf';

export interface DocumentInfo {
  format: SourceFormat;
  /** Pages (slides, visible sheets); an estimate of 1 where the format has no fixed pages (docx, html). */
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
  const format = sniffFileType(head, entries);
  switch (format) {
    case 'pdf': return { format, pageCount: await countPdfPages(bytes) };
    case 'pptx': return { format, pageCount: Math.max(1, entries!.filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n)).length) };
    case 'xlsx': return { format, pageCount: Math.max(1, entries!.filter((n) => /^xl\/(worksheets\/sheet|chartsheets\/sheet)\d+\.xml$/.test(n)).length) };
    default: return { format, pageCount: 1 };
  }
}

/** Random access to a stored document (a blob store's getRange), so large inputs are never read whole. */
export interface RandomAccessSource {
  size: number;
  /** Bytes [start, end). */
  read(start: number, end: number): Promise<Uint8Array>;
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
  const format = sniffFileType(head, entries);
  switch (format) {
    case 'pdf': return { format, pageCount: await countPdfPages(src) };
    case 'pptx': return { format, pageCount: Math.max(1, entries!.filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n)).length) };
    case 'xlsx': return { format, pageCount: Math.max(1, entries!.filter((n) => /^xl\/(worksheets\/sheet|chartsheets\/sheet)\d+\.xml$/.test(n)).length) };
    default: return { format, pageCount: 1 };
  }
}

/** Zip entry names from the central directory (EOCD, zip64 aware), reading only the file's tail. */
export async function listZipEntriesByRange(src: RandomAccessSource): Promise<string[]> {
  const corrupt = () => new QuireError('FILE_003', 'File corrupted: not a readable zip/OOXML container');
  const tailLen = Math.min(src.size, 22 + 65535 + 20);
  const tailStart = src.size - tailLen;
  const tail = Buffer.from(await src.read(tailStart, src.size));
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) if (tail.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  if (eocd < 0) throw corrupt();
  let cdSize = tail.readUInt32LE(eocd + 12);
  let cdOffset = tail.readUInt32LE(eocd + 16);
  if (cdOffset === 0xffffffff || cdSize === 0xffffffff) {
    const loc = eocd - 20;
    if (loc < 0 || tail.readUInt32LE(loc) !== 0x07064b50) throw corrupt();
    const z64At = Number(tail.readBigUInt64LE(loc + 8));
    const z64 = Buffer.from(await src.read(z64At, z64At + 56));
    if (z64.length < 56 || z64.readUInt32LE(0) !== 0x06064b50) throw corrupt();
    cdSize = Number(z64.readBigUInt64LE(40));
    cdOffset = Number(z64.readBigUInt64LE(48));
  }
  if (cdOffset + cdSize > src.size || cdSize > 64 * 1024 * 1024) throw corrupt();
  const cd = Buffer.from(await src.read(cdOffset, cdOffset + cdSize));
  const names: string[] = [];
  for (let i = 0; i + 46 <= cd.length;) {
    if (cd.readUInt32LE(i) !== 0x02014b50) throw corrupt();
    const nameLen = cd.readUInt16LE(i + 28), extraLen = cd.readUInt16LE(i + 30), commentLen = cd.readUInt16LE(i + 32);
    names.push(cd.toString('utf8', i + 46, i + 46 + nameLen));
    i += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}
