import { type RangeSource, openDocument } from './pdfjs.js';

/**
 * The number of pages of a PDF, held in memory or read by range (only its xref and page tree are read),
 * with the opener's FILE_003/FILE_004 answers. pdf.js parses on its worker thread even where pages are
 * otherwise parsed on the calling thread: this is what the gateway asks at intake, on the event loop
 * that answers every request.
 */
export async function countPdfPages(source: Uint8Array | RangeSource): Promise<number> {
  const doc = await openDocument(source, { offThread: true, maxPageContentBytes: null }); // structure only: no page content is read
  try {
    return doc.numPages;
  } finally {
    await doc.destroy();
  }
}
