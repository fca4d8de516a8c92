import { type Box, type ParseLimits, QuireError, resolveLimits } from '@quire/core';
import { type PDFPageProxy, openDocument } from './pdfjs.js';
import { PageRasterizer, type RasterEngine, type RenderedRgba, renderPage, renderPageRgba, singleImageOf } from './render.js';

export interface PdfHandle {
  pageCount: number;
  /**
   * Renders page `page` (1-indexed) as PNG, whole or cropped to a normalized `box` of the displayed page;
   * `grey`: one channel, encoded for speed, as OCR takes pages.
   */
  render(page: number, opts: { dpi: number; box?: Box; grey?: boolean }): Promise<{ png: Uint8Array; width: number; height: number }>;
  /** Same render as raw RGBA pixels, without PNG encoding (for callers that process pixels, and for benchmarks). */
  renderRgba(page: number, opts: { dpi: number; box?: Box }): Promise<RenderedRgba>;
  close(): Promise<void>;
}

/**
 * An open document for rendering (figure crops, OCR input). Renders over limits.maxPixels are refused
 * (REQ_003). `rasterEngine` draws pages that are not one image (render.ts, PageRasterizer); PDFium by default.
 */
export async function openPdf(bytes: Uint8Array, options: { limits?: Partial<ParseLimits>; rasterEngine?: RasterEngine } = {}): Promise<PdfHandle> {
  const limits = resolveLimits(options);
  const doc = await openDocument(bytes, { maxImagePixels: limits.maxPixels, maxPageContentBytes: limits.maxPageContentBytes });
  const rasterizer = new PageRasterizer(bytes, options.rasterEngine);
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
  // A page that only draws one image is rendered from that image on the pdf.js path (single-image.ts);
  // finding out costs pdf.js a full parse of the page, images decoded (300 ms for a page of figures),
  // which PDFium's own drawing does not need.
  const imageOf = (page: PDFPageProxy) => (rasterizer.engine === 'pdfium' ? undefined : singleImageOf(page));
  return {
    pageCount: doc.numPages,
    render: (n, opts) => withPage(n, async (page) => renderPage(page, { dpi: opts.dpi, box: opts.box, grey: opts.grey, maxPixels: limits.maxPixels }, await imageOf(page), rasterizer)),
    renderRgba: (n, opts) => withPage(n, async (page) => renderPageRgba(page, { dpi: opts.dpi, box: opts.box, maxPixels: limits.maxPixels }, await imageOf(page), rasterizer)),
    async close() {
      if (closed) return;
      closed = true;
      try {
        await doc.destroy();
      } finally {
        await rasterizer.close();
      }
    },
  };
}
