import { QuireError } from '@quire/core';
import { widgetCells, type WidgetAnnotation } from './acroform-detect.js';
import { flatCells } from './flat-detect.js';
import { toPt } from './labels.js';
import { assignWidgetGrids, readingOrder } from './order.js';
import { pageHasImages, readPageGeometry } from './page-geometry.js';
import { openPdfJs, pageFrame } from './pdfjs.js';
import type { DetectedCell, DetectOptions, DetectResult } from './types.js';

/**
 * Detects the cells of a PDF form. Pages with AcroForm widgets yield one cell per widget (radio
 * groups one cell); pages without widgets are read from their drawing and text. Pages that are
 * images only (scans) need geometry from outside (`opts.geometry`, e.g. OCR words plus raster line
 * detection); without it they are listed in `scannedPages` and yield no cells.
 */
export async function detectForm(pdf: Uint8Array, opts: DetectOptions = {}): Promise<DetectResult> {
  if (!pdf.length) throw new QuireError('FILE_004', 'Empty file');
  const doc = await openPdfJs(pdf);
  try {
    const pageCount = doc.numPages;
    const pages = (opts.pages ?? Array.from({ length: pageCount }, (_, i) => i + 1)).filter((p) => p >= 1 && p <= pageCount);
    const widgetCells_: DetectedCell[] = [];
    const drawn: DetectedCell[] = [];
    const scannedPages: number[] = [];
    const warnings: string[] = [];
    const widgetCount = new Map<string, number>();
    let tables = 0;
    for (const n of pages) {
      const page = await doc.getPage(n);
      const frame = pageFrame(page);
      const annots = ((await page.getAnnotations({ intent: 'display' })) as WidgetAnnotation[]).filter((a) => a.subtype === 'Widget');
      const outside = opts.geometry?.[n];
      const geo = outside ?? await readPageGeometry(page, frame);
      if (annots.length) {
        const words = geo.words.map((w) => toPt(w, frame.width, frame.height));
        widgetCells_.push(...widgetCells(n, frame, annots, words, widgetCount));
      } else if (!outside && !geo.words.length && !geo.segments.length && await pageHasImages(page)) {
        scannedPages.push(n);
        warnings.push(`Page ${n} is an image only (scanned); its cells need OCR and raster line detection`);
      } else {
        const r = flatCells(n, geo, tables);
        tables = r.tables;
        drawn.push(...r.cells);
      }
      page.cleanup();
    }
    assignWidgetGrids(widgetCells_, tables);
    return { cells: readingOrder([...widgetCells_, ...drawn]), pageCount, scannedPages, warnings };
  } finally {
    await doc.destroy();
  }
}
