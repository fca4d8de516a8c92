import { assignIds, boxToPolygon, type Document } from '@quire/core';
import type { ExtractionOutput, OcrPageReport, PageResult, PageResultElement, RenderOptions } from './output-types.js';
import { buildBlocks, joinBlocks, joinBlocksWithSpans, type Block } from './blocks.js';
import { buildBoundingBoxes } from './bounding-boxes.js';
import { buildChunks, DEFAULT_CHUNK_SIZE } from './chunks.js';
import { renderHtml } from './html.js';

function hasAllIds(doc: Document): boolean {
  return doc.pages.every((p) => p.elements.every((el) => el.id && (el.kind !== 'table' || el.cells.every((c) => c.id))));
}

/**
 * Document → the spec's extraction output. Pure. Ids are the document's own (assigned by the
 * pipeline); a document without them gets them here, in reading order, so every output carries ids.
 */
export function renderExtraction(doc: Document, options: RenderOptions = {}): ExtractionOutput {
  if (!hasAllIds(doc)) assignIds(doc);
  const blocks = buildBlocks(doc, options);
  const markdown = joinBlocks(blocks, (b) => b.md);
  const markdownWithIds = joinBlocks(blocks, (b) => b.mdIds);
  const out: ExtractionOutput = {
    page_count: doc.pageCount,
    markdown,
    markdown_with_ids: markdownWithIds,
    bounding_boxes: buildBoundingBoxes(doc, markdownWithIds, options),
    extensions: {},
    chunks: buildChunks(blocks, { size: options.chunkSize ?? DEFAULT_CHUNK_SIZE, types: options.chunkTypes }),
  };
  if (options.footnoteReferences) {
    out.extensions.footnoteReferences = (doc.footnotes ?? []).map((f) => ({
      symbol: f.symbol, footnoteTextId: f.footnoteTextId, referenceTextIds: [...f.referenceTextIds],
    }));
  }
  if (doc.contentSelection) out.extensions.mainContent = { ...doc.contentSelection };
  const ocrPages = ocrReports(doc);
  if (ocrPages.length) out.extensions.ocr = { pages: ocrPages };
  if (doc.embeddedInvoice) out.extensions.embeddedInvoice = structuredClone(doc.embeddedInvoice);
  if (options.returnHtml) out.html = renderHtml(blocks, options);
  return out;
}

/**
 * Each page's part of the output, for live per-page results: the blocks of `markdown` that sit on the
 * page (joined the same way) and those blocks as elements with their boxes and their place in the
 * page's markdown (a span, not a copy: page events are kept in the event window). A page without
 * content gives an empty string and no elements.
 */
export function renderPageResults(doc: Document, options: RenderOptions = {}): PageResult[] {
  if (!hasAllIds(doc)) assignIds(doc);
  const byPage = new Map<number, Block[]>();
  for (const b of buildBlocks(doc, options)) {
    const list = byPage.get(b.page);
    if (list) list.push(b);
    else byPage.set(b.page, [b]);
  }
  return doc.pages.map((p) => {
    const blocks = byPage.get(p.number) ?? [];
    const { text, spans } = joinBlocksWithSpans(blocks, (b) => b.md);
    const result: PageResult = { page: p.number, markdown: text, elements: blocks.map((b, i) => pageElement(b, spans[i])) };
    if (p.error) result.error = { code: p.error.code, message: p.error.message }; // why the page is empty
    return result;
  });
}

function pageElement(b: Block, span: [number, number]): PageResultElement {
  const el = b.element;
  const box = el.kind === 'figure' && el.spreadsheet ? null : el.box;
  return {
    type: b.kind,
    ...(el.kind === 'text' ? { category: el.category } : {}),
    markdown_span: span,
    bounding_box: box ? boxToPolygon(box) : null,
  };
}

/** The OCR engine, mean confidence and time of each page OCR read (layout keeps them in page.extra.ocr). */
function ocrReports(doc: Document): OcrPageReport[] {
  const out: OcrPageReport[] = [];
  for (const p of doc.pages) {
    const o = p.extra?.ocr as { engine?: unknown; meanConfidence?: unknown; seconds?: unknown } | undefined;
    if (!o || typeof o.engine !== 'string') continue;
    out.push({ page_number: p.number, engine: o.engine, mean_confidence: Number(o.meanConfidence ?? 0), seconds: Number(o.seconds ?? 0) });
  }
  return out;
}
