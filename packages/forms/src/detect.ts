import { QuireError } from '@quire/core';
import { MarkedContentReader, type PDFDocumentProxy, type PDFPageProxy, loadEditablePdf, openDocument, pageHasImages, readFieldWidgets } from '@quire/format-pdf';
import { fieldTooltips, widgetCells } from './acroform-detect.js';
import { flatCells, verticalRules } from './flat-detect.js';
import { toPt } from './labels.js';
import { assignWidgetGrids, readingOrder } from './order.js';
import { readPageGeometry, readPageGeometryUpright } from './page-geometry.js';
import { removeOverlays } from './overlay.js';
import { fillLayer, knownScanCells, withFillLayer } from './scan-values.js';
import { pageFrame, remapBox, remapPoint, type PageFrame } from './page-frame.js';
import { scannedGeometry } from './scan-geometry.js';
import type { DetectedCell, DetectOptions, DetectResult, PageGeometry } from './types.js';

/**
 * Detects the cells of a PDF form. Pages with AcroForm widgets yield one cell per widget (radio
 * groups one cell); pages without widgets are read from their drawing and text. Pages that are
 * images only (scans, also once Quire has drawn values over them) are read from geometry given from
 * outside (`opts.geometry`), or OCR'd with `opts.ocr` (words, plus ruling lines and checkbox squares
 * found in the raster), or, without an engine, re-read from `opts.knownCells`; with none of these
 * they are listed in `scannedPages` with a warning and yield no cells.
 */
export async function detectForm(pdf: Uint8Array, opts: DetectOptions = {}): Promise<DetectResult> {
  if (!pdf.length) throw new QuireError('FILE_004', 'Empty file');
  const doc = await openDocument(pdf);
  try {
    const pageCount = doc.numPages;
    const pages = (opts.pages ?? Array.from({ length: pageCount }, (_, i) => i + 1)).filter((p) => p >= 1 && p <= pageCount);
    const widgetCells_: DetectedCell[] = [];
    const drawn: DetectedCell[] = [];
    const scannedPages: number[] = [];
    const warnings: string[] = [];
    const widgetCount = new Map<string, number>();
    const overlaid = new Set<number>();
    let tables = 0;
    let tooltips: Map<string, string> | undefined;
    // words read as extraction reads them, marked-content replacement text (/ActualText) applied
    const markedContent = new MarkedContentReader(pdf);
    const hasFields = ((await doc.getFieldObjects()) ?? null) !== null || (await anyWidget(doc, pages));
    for (const n of pages) {
      const page = await doc.getPage(n);
      const display = pageFrame(page);
      const annots = await readFieldWidgets(page);
      const outside = opts.geometry?.[n];
      const read = outside ? { geo: outside, frame: frameOf(page, display, outside) } : await readPageGeometryUpright(page, markedContent);
      const { geo, frame } = read;
      const turned = frame.rotate % 360 !== display.rotate % 360;
      const fix = (cells: DetectedCell[]) => (turned ? cells.map((c) => toDisplay(c, frame, display)) : cells);
      if (annots.length) {
        if (annots.some((a) => !a.alternativeText)) {
          tooltips ??= await fieldTooltips(pdf);
          for (const a of annots) if (!a.alternativeText && a.fieldName) a.alternativeText = tooltips.get(a.fieldName);
        }
        const words = geo.words.map((w) => toPt(w, frame.width, frame.height));
        widgetCells_.push(...fix(widgetCells(n, frame, annots, words, widgetCount, verticalRules(geo))));
      } else if (hasFields && !opts.drawnCellsBesideFields) {
        // a fillable form's other pages (instructions, worksheets) are not scanned for drawn cells
      } else if (!outside && !hasTemplate(geo) && await pageHasImages(page)) {
        // an image and at most fill-ins drawn over it (a scan Quire filled): a scanned page
        scannedPages.push(n);
        if (hasFillIns(geo)) overlaid.add(n);
        const known = (opts.knownCells ?? []).filter((c) => c.page_number === n && c.source.kind === 'drawn');
        if (!opts.ocr && known.length) drawn.push(...knownScanCells(known, fillLayer(await readPageGeometry(page, display))));
        else if (!opts.ocr) warnings.push(`Page ${n} is an image only (scanned) and no OCR engine is configured; it has no cells`);
      } else {
        const r = flatCells(n, geo, tables);
        tables = r.tables;
        drawn.push(...fix(r.cells));
      }
      page.cleanup();
    }
    if (opts.ocr && scannedPages.length) {
      // OCR reads the scan without Quire's overlays; they are added back as the fill layer, so a
      // filled scan is read as the same cells with the values drawn in them
      const scans = await scannedGeometry(overlaid.size ? await withoutOverlays(pdf, [...overlaid]) : pdf, scannedPages, opts.ocr);
      warnings.push(...scans.warnings);
      for (const n of scannedPages) {
        const scan = scans.geometry.get(n);
        if (!scan) continue;
        const page = await doc.getPage(n);
        const display = pageFrame(page), frame = frameOf(page, display, scan);
        const geo = overlaid.has(n) ? withFillLayer(scan, fillLayer(await readPageGeometry(page, frame))) : scan;
        const r = flatCells(n, geo, tables, { scanned: true });
        tables = r.tables;
        drawn.push(...(frame.rotate % 360 !== display.rotate % 360 ? r.cells.map((c) => toDisplay(c, frame, display)) : r.cells));
        page.cleanup();
      }
    }
    assignWidgetGrids(widgetCells_, tables);
    return { cells: readingOrder([...widgetCells_, ...drawn]), pageCount, scannedPages, warnings };
  } finally {
    await doc.destroy();
  }
}

/** Printed content of the page itself: text or rules that are not fill-ins. */
const hasTemplate = (g: PageGeometry) => g.words.some((w) => !w.fill) || g.segments.some((x) => !x.fillIn);
const hasFillIns = (g: PageGeometry) => g.words.some((w) => w.fill) || g.segments.some((x) => x.fillIn) || g.rects.some((x) => x.fillIn) || (g.marks ?? []).some((m) => m.fillIn);

/** A copy of the PDF with Quire's overlays removed from `pages` (what OCR must read on a filled scan). */
async function withoutOverlays(pdf: Uint8Array, pages: number[]): Promise<Uint8Array> {
  const doc = await loadEditablePdf(pdf);
  const all = doc.getPages();
  for (const n of pages) if (all[n - 1]) removeOverlays(doc, all[n - 1]);
  return doc.save({ updateFieldAppearances: false });
}

/** The frame outside geometry is in: the displayed page, or that page turned by the geometry's quarter turn. */
function frameOf(page: PDFPageProxy, display: PageFrame, geo: PageGeometry): PageFrame {
  return geo.turn ? pageFrame(page, (display.rotate + geo.turn) % 360) : display;
}

/** A cell found in the reading frame of sideways text, moved to display coordinates; fill draws in `readingRotation`. */
function toDisplay(c: DetectedCell, reading: PageFrame, display: PageFrame): DetectedCell {
  const out: DetectedCell = { ...c, bounding_box: remapBox(c.bounding_box, reading, display), readingRotation: reading.rotate };
  if (c.checkbox_details) out.checkbox_details = c.checkbox_details.map((d) => ({ ...d, center_coord: remapPoint(d.center_coord, reading, display) }));
  if (c.source.kind === 'drawn' && c.source.boxes) out.source = { ...c.source, boxes: c.source.boxes.map((b) => remapBox(b, reading, display)) };
  return out;
}

async function anyWidget(doc: PDFDocumentProxy, pages: number[]): Promise<boolean> {
  for (const n of pages) {
    if ((await readFieldWidgets(await doc.getPage(n))).length) return true;
  }
  return false;
}
