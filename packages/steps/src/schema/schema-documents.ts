import type { Document, Element, Page } from '@quire/core';

/**
 * The documents a /schema call reads: several extractions combined into one (ids prefixed with
 * their extraction_id, pages renumbered one after another so pages of different sources never
 * mix), or the pages of one split topic.
 */

function prefixElement(el: Element, prefix: string): Element {
  if (el.kind === 'table') {
    return { ...el, id: el.id && `${prefix}-${el.id}`, cells: el.cells.map((c) => ({ ...c, id: c.id && `${prefix}-${c.id}` })) };
  }
  return { ...el, id: el.id && `${prefix}-${el.id}` };
}

export function compositeDocument(parts: { extractionId: string; document: Document }[]): Document {
  const pages: Page[] = [];
  const warnings: string[] = [];
  for (const { extractionId, document } of parts) {
    for (const p of document.pages) {
      const number = pages.length + 1;
      pages.push({ ...p, number, elements: p.elements.map((el) => ({ ...prefixElement(el, extractionId), page: number })), extra: { ...(p.extra ?? {}), extraction_id: extractionId, source_page: p.number } });
    }
    warnings.push(...document.warnings.map((w) => `${extractionId}: ${w}`));
  }
  return { format: parts[0]?.document.format ?? 'pdf', pageCount: pages.length, pages, warnings };
}

/**
 * Only the given 1-indexed pages; element ids stay those of the extraction. The file's embedded invoice
 * goes with all of its pages only: a topic of a packet is not the invoice the file as a whole carries.
 */
export function pagesOf(document: Document, pages: number[]): Document {
  const keep = new Set(pages);
  const kept = document.pages.filter((p) => keep.has(p.number));
  const { embeddedInvoice, ...rest } = document;
  return { ...rest, pages: kept, ...(embeddedInvoice && kept.length === document.pages.length ? { embeddedInvoice } : {}) };
}
