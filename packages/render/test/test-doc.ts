import type { Box, Document, Element, FigureElement, Page, TableCell, TableElement, TextCategory, TextElement } from '@quire/core';

/** Small builders for render tests (kept out of the public index). */
export function text(category: TextCategory, t: string, extra: Partial<TextElement> = {}): TextElement {
  return { kind: 'text', category, text: t, box: null, page: 1, confidence: 1, ...extra };
}

export function table(grid: (string | { text: string; rowSpan?: number; colSpan?: number } | null)[][], extra: Partial<TableElement> = {}): TableElement {
  const cells: TableCell[] = [];
  const rows = grid.length;
  let cols = 0;
  grid.forEach((row, r) => row.forEach((c, col) => {
    if (c === null) return; // covered by a span
    const o = typeof c === 'string' ? { text: c } : c;
    cols = Math.max(cols, col + (o.colSpan ?? 1));
    cells.push({ row: r, col, rowSpan: o.rowSpan ?? 1, colSpan: o.colSpan ?? 1, text: o.text, box: null, isHeader: r < (extra.headerRows ?? 0), confidence: 1 });
  }));
  return { kind: 'table', page: 1, box: null, rows, cols, cells, confidence: 0.9, headerRows: 0, ...extra };
}

export function figure(extra: Partial<FigureElement> = {}): FigureElement {
  return { kind: 'figure', page: 1, box: null, visualType: 'image', text: '', ...extra };
}

export function page(number: number, elements: Element[], extra: Partial<Page> = {}): Page {
  return { number, width: 612, height: 792, elements, words: [], selectionMarks: [], ...extra };
}

export function doc(pages: Page[], extra: Partial<Document> = {}): Document {
  return { format: 'pdf', pageCount: pages.length, pages, warnings: [], ...extra };
}

export const box = (x0: number, y0: number, x1: number, y1: number): Box => ({ x0, y0, x1, y1 });
