import type { Document, Element } from './document.js';

/**
 * Assigns the spec's ids in reading order across the whole document: text elements txt-1…,
 * tables tbl-1… (cells tbl-N-rRcC, zero-based), figures fig-1…. Deterministic for the same element
 * order, which is what makes ids stable for the same input and options. Returns the document for chaining.
 */
export function assignIds(doc: Document): Document {
  let txt = 0, tbl = 0, fig = 0;
  for (const page of doc.pages) {
    for (const el of page.elements) {
      if (el.kind === 'text') el.id = `txt-${++txt}`;
      else if (el.kind === 'figure') el.id = `fig-${++fig}`;
      else {
        el.id = `tbl-${++tbl}`;
        for (const cell of el.cells) cell.id = `${el.id}-r${cell.row}c${cell.col}`;
      }
    }
  }
  // captions may point at a figure/table by its in-page index before ids existed; nothing to fix here.
  return doc;
}

/** Finds an element (or table cell, returned with its table) by id. */
export function findElementById(doc: Document, id: string): { element: Element; page: number; cellIndex?: number } | undefined {
  const cell = /^(tbl-\d+)-r(\d+)c(\d+)$/.exec(id);
  for (const page of doc.pages) {
    for (const el of page.elements) {
      if (cell && el.kind === 'table' && el.id === cell[1]) {
        const idx = el.cells.findIndex((c) => c.row === Number(cell[2]) && c.col === Number(cell[3]));
        if (idx >= 0) return { element: el, page: page.number, cellIndex: idx };
      }
      if (el.id === id) return { element: el, page: page.number };
    }
  }
  return undefined;
}
