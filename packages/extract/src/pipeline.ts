import { QuireError, assignIds, interruptible, type Box, type Document, type QuarterTurn, type ParseOptions, type SourceFormat, type DocumentParser } from '@quire/core';
import { parse as parseHtml } from '@quire/format-html';
import { parse as parseDocx } from '@quire/format-docx';
import { parse as parsePptx } from '@quire/format-pptx';
import { parse as parseXlsx } from '@quire/format-xlsx';
import { readPdfPages } from '@quire/format-pdf';
import { readImage } from '@quire/format-image';
import { analyzePage, finishDocument, layoutDocument, type LayoutInput, type LayoutOptions, type PageAnalysis } from '@quire/layout';
import { restoreOrientation, sidewaysRegions, sidewaysTurn, skewsOf, turnsOf, uprightPage } from './orientation.js';
import { embeddedInvoice } from './e-invoice.js';

/** Readers that produce the document model directly. */
const DOCUMENT_READERS: Partial<Record<SourceFormat, DocumentParser>> = {
  html: parseHtml, docx: parseDocx, pptx: parsePptx, xlsx: parseXlsx,
};

export interface ExtractOptions extends ParseOptions {
  /**
   * A PDF or image page as soon as it is read, before the next one is: the page laid out on its own as
   * a one-page document, for live partial results. Provisional by nature: running headers and footers,
   * heading levels, footnotes and element ids are decided over the whole document, so the final result
   * can differ there. Laid out from a copy, so the final document is exactly what it is without it.
   * Office and HTML documents are read whole and never call it.
   */
  onPageLaidOut?: (page: Document) => void | Promise<void>;
}

/**
 * Bytes → the document model, by format: office and HTML readers produce a Document directly;
 * PDF and image readers produce raw pages that layout analysis turns into one.
 */
export async function extractDocument(bytes: Uint8Array, format: SourceFormat, options: ExtractOptions = {}): Promise<Document> {
  const reader = DOCUMENT_READERS[format];
  if (reader) return assignIds(await reader(bytes, options));
  const layoutOptions = { detectSelections: options.detectSelections, footnoteReferences: true };
  const { onPageLaidOut, throwIfStopped } = options;
  // layout is synchronous and seconds long on a crowded page: its loops check the job's stop flag
  const stoppable = <T>(work: () => T): T => interruptible(throwIfStopped, work);
  if (format === 'pdf') {
    // each page is analysed as it arrives (while pdf.js parses the next one) and then dropped: same
    // result as layoutPages over all pages (layoutDocument = analyzePage per page + finishDocument)
    const analyses: PageAnalysis[] = [];
    const turns = new Map<number, QuarterTurn>();
    const skews = new Map<number, number>();
    const sideways = new Set<number>();
    const r = await readPdfPages(bytes, options, async (p) => {
      let t = turnsOf([p]).get(p.number);
      if (!t && (t = sidewaysTurn(p))) sideways.add(p.number);
      if (t) turns.set(p.number, t);
      const skew = skewsOf([p]).get(p.number);
      if (skew) skews.set(p.number, skew);
      let a: PageAnalysis;
      if (t || skew) a = stoppable(() => analyzePage(uprightPage(p, t)));
      else {
        // not turned as a whole: blocks of sideways text on it (a landscape table in an upright page's
        // body) are laid out turned upright on their own
        const { rest, regions } = sidewaysRegions(p);
        a = stoppable(() => analyzePage(rest, regions));
        if (regions.length) a.page.extra = { ...(a.page.extra ?? {}), text_rotation_corrected_regions: regions.map((r) => ({ turn: r.turn, box: rounded(r.box) })) };
      }
      analyses.push(a);
      if (onPageLaidOut) {
        // finishDocument fills the analysis' page and gives ids: the preview finishes a copy, without the
        // page's words (most of a copy's cost, ~7 % of a text-layer read; the preview's output never uses them)
        const copy = structuredClone({ ...a, page: { ...a.page, words: [] } });
        const one = stoppable(() => finishDocument([copy], { format, pageCount: 1 }, layoutOptions));
        await onPageLaidOut(t || skew ? restoreOrientation(one, t ? new Map([[p.number, t]]) : new Map(), sideways, skew ? new Map([[p.number, skew]]) : new Map()) : one);
      }
    });
    const doc = stoppable(() => finishDocument(analyses, { format, pageCount: r.pageCount, outline: r.outline, title: r.title, warnings: r.warnings }, layoutOptions));
    // an e-invoice's attached XML states the invoice's fields as its issuer meant them (schema extraction reads it first)
    const invoice = embeddedInvoice(r.attachments, doc.warnings);
    if (invoice) doc.embeddedInvoice = invoice;
    return turns.size || skews.size ? restoreOrientation(doc, turns, sideways, skews) : doc;
  }
  if (format === 'png' || format === 'jpeg' || format === 'tiff') {
    const r = await readImage(bytes, options, onPageLaidOut && (async (p) => {
      // a copy: layout may rework the raw page it is given, and the page is laid out again with the others
      await onPageLaidOut(stoppable(() => layoutPages({ format, pageCount: 1, pages: [structuredClone(p)] }, layoutOptions)));
    }));
    return stoppable(() => layoutPages({ format, pageCount: r.pageCount, pages: r.pages, warnings: r.warnings }, layoutOptions));
  }
  throw new QuireError('FILE_001', `Unsupported file type: ${format}`, { format });
}

/** Layout over raw pages, with OCR-rotated pages turned upright (and skewed scans levelled) first and their boxes turned back after. */
export function layoutPages(input: LayoutInput, options: LayoutOptions): Document {
  const turns = turnsOf(input.pages), skews = skewsOf(input.pages);
  if (!turns.size && !skews.size) return layoutDocument(input, options);
  return restoreOrientation(layoutDocument({ ...input, pages: input.pages.map((p) => uprightPage(p)) }, options), turns, new Set(), skews);
}

const rounded = (b: Box): Box => ({ x0: round4(b.x0), y0: round4(b.y0), x1: round4(b.x1), y1: round4(b.y1) });
const round4 = (v: number) => Math.round(v * 1e4) / 1e4;
