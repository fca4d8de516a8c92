import { type Box, type ParseLimits, QuireError, resolveLimits } from '@quire/core';
import { type PDFPageProxy, openDocument } from './pdfjs.js';
import { type RenderedRgba, renderPage, renderPageRgba, singleImageOf } from './render.js';

export interface PdfHandle {
  pageCount: number;
  /** Renders page `page` (1-indexed) as PNG, whole or cropped to a normalized `box` of the displayed page. */
  render(page: number, opts: { dpi: number; box?: Box }): Promise<{ png: Uint8Array; width: number; height: number }>;
  /** Same render as raw RGBA pixels, without PNG encoding (for callers that process pixels, and for benchmarks). */
  renderRgba(page: number, opts: { dpi: number; box?: Box }): Promise<RenderedRgba>;
  close(): Promise<void>;
}

/** An open document for rendering (figure crops, OCR input). Renders over limits.maxPixels are refused (REQ_003). */
export async function openPdf(bytes: Uint8Array, options: { limits?: Partial<ParseLimits> } = {}): Promise<PdfHandle> {
  const limits = resolveLimits(options);
  const doc = await openDocument(bytes, { maxImagePixels: limits.maxPixels });
  let closed = false;
  const withPage = async <T>(n: number, fn: (page: PDFPageProxy) => Promise<T>): Promise<T> => {
    if (closed) throw new QuireError('GENERAL_001', 'The PDF handle is closed');
    if (!Number.isInteger(n) || n < 1 || n > doc.numPages) throw new QuireError('REQ_006', `Page ${n} is outside the document (1-${doc.numPages})`);
    const page = await doc.getPage(n);
    try {
      return await fn(page);
    } finally {
      page.cleanup();
    }
  };
  return {
    pageCount: doc.numPages,
    render: (n, opts) => withPage(n, async (page) => renderPage(page, { dpi: opts.dpi, box: opts.box, maxPixels: limits.maxPixels }, await singleImageOf(page))),
    renderRgba: (n, opts) => withPage(n, async (page) => renderPageRgba(page, { dpi: opts.dpi, box: opts.box, maxPixels: limits.maxPixels }, await singleImageOf(page))),
    async close() {
      if (closed) return;
      closed = true;
      await doc.destroy();
    },
  };
}
