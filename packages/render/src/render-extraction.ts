import { assignIds, type Document } from '@quire/core';
import type { ExtractionOutput, OcrPageReport, RenderOptions } from './output-types.js';
import { buildBlocks, joinBlocks } from './blocks.js';
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
  const ocrPages = ocrReports(doc);
  if (ocrPages.length) out.extensions.ocr = { pages: ocrPages };
  if (options.returnHtml) out.html = renderHtml(blocks, options);
  return out;
}

/**
 * Each page's markdown (the blocks of `markdown` that sit on that page, joined the same way), for
 * live per-page results. Pages without content give an empty string.
 */
export function renderPageMarkdown(doc: Document, options: RenderOptions = {}): { page: number; markdown: string }[] {
  if (!hasAllIds(doc)) assignIds(doc);
  const byPage = new Map<number, ReturnType<typeof buildBlocks>>();
  for (const b of buildBlocks(doc, options)) {
    const list = byPage.get(b.page);
    if (list) list.push(b);
    else byPage.set(b.page, [b]);
  }
  return doc.pages.map((p) => ({ page: p.number, markdown: joinBlocks(byPage.get(p.number) ?? [], (b) => b.md) }));
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
