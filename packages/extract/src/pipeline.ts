import { QuireError, assignIds, type Document, type QuarterTurn, type ParseOptions, type SourceFormat, type DocumentParser } from '@quire/core';
import { parse as parseHtml } from '@quire/format-html';
import { parse as parseDocx } from '@quire/format-docx';
import { parse as parsePptx } from '@quire/format-pptx';
import { parse as parseXlsx } from '@quire/format-xlsx';
import { readPdfPages } from '@quire/format-pdf';
import { readImage } from '@quire/format-image';
import { analyzePage, finishDocument, layoutDocument, type LayoutInput, type LayoutOptions, type PageAnalysis } from '@quire/layout';
import { restoreOrientation, sidewaysTurn, turnsOf, uprightPage } from './orientation.js';

/** Readers that produce the document model directly. */
const DOCUMENT_READERS: Partial<Record<SourceFormat, DocumentParser>> = {
  html: parseHtml, docx: parseDocx, pptx: parsePptx, xlsx: parseXlsx,
};

/**
 * Bytes → the document model, by format: office and HTML readers produce a Document directly;
 * PDF and image readers produce raw pages that layout analysis turns into one.
 */
export async function extractDocument(bytes: Uint8Array, format: SourceFormat, options: ParseOptions = {}): Promise<Document> {
  const reader = DOCUMENT_READERS[format];
  if (reader) return assignIds(await reader(bytes, options));
  const layoutOptions = { detectSelections: options.detectSelections, footnoteReferences: true };
  if (format === 'pdf') {
    // each page is analysed as it arrives (while pdf.js parses the next one) and then dropped: same
    // result as layoutPages over all pages (layoutDocument = analyzePage per page + finishDocument)
    const analyses: PageAnalysis[] = [];
    const turns = new Map<number, QuarterTurn>();
    const sideways = new Set<number>();
    const r = await readPdfPages(bytes, options, (p) => {
      let t = turnsOf([p]).get(p.number);
      if (!t && (t = sidewaysTurn(p))) sideways.add(p.number);
      if (t) turns.set(p.number, t);
      analyses.push(analyzePage(t ? uprightPage(p, t) : p));
    });
    const doc = finishDocument(analyses, { format, pageCount: r.pageCount, outline: r.outline, title: r.title, warnings: r.warnings }, layoutOptions);
    return turns.size ? restoreOrientation(doc, turns, sideways) : doc;
  }
  if (format === 'png' || format === 'jpeg' || format === 'tiff') {
    const r = await readImage(bytes, options);
    return layoutPages({ format, pageCount: r.pageCount, pages: r.pages, warnings: r.warnings }, layoutOptions);
  }
  throw new QuireError('FILE_001', `Unsupported file type: ${format}`, { format });
}

/** Layout over raw pages, with OCR-rotated pages turned upright first and their boxes turned back after. */
export function layoutPages(input: LayoutInput, options: LayoutOptions): Document {
  const turns = turnsOf(input.pages);
  if (!turns.size) return layoutDocument(input, options);
  return restoreOrientation(layoutDocument({ ...input, pages: input.pages.map((p) => uprightPage(p)) }, options), turns);
}
