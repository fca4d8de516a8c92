import { type Box, type ParseLimits, QuireError, resolveLimits } from '@quire/core';
import { openDocument } from './pdfjs.js';
import { renderPage } from './render.js';

export interface PdfHandle {
  pageCount: number;
  /** Renders page `page` (1-indexed) as PNG, whole or cropped to a normalized `box` of the displayed page. */
  render(page: number, opts: { dpi: number; box?: Box }): Promise<{ png: Uint8Array; width: number; height: number }>;
  close(): Promise<void>;
}

/** An open document for rendering (figure crops, OCR input). Renders over limits.maxPixels are refused (REQ_003). */
export async function openPdf(bytes: Uint8Array, options: { limits?: Partial<ParseLimits> } = {}): Promise<PdfHandle> {
  const limits = resolveLimits(options);
  const doc = await openDocument(bytes, { maxImagePixels: limits.maxPixels });
  let closed = false;
  return {
    pageCount: doc.numPages,
    async render(n, opts) {
      if (closed) throw new QuireError('GENERAL_001', 'The PDF handle is closed');
      if (!Number.isInteger(n) || n < 1 || n > doc.numPages) throw new QuireError('REQ_006', `Page ${n} is outside the document (1-${doc.numPages})`);
      const page = await doc.getPage(n);
      try {
        return await renderPage(page, { dpi: opts.dpi, box: opts.box, maxPixels: limits.maxPixels });
      } finally {
        page.cleanup();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await doc.destroy();
    },
  };
}
