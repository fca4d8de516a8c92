import type { Element, SpreadsheetAnchor, TableCell, TableElement, TextElement } from '@quire/core';
import { rectName, type CellRect } from './a1.js';
import { BOLD, NUMERIC, type CellStore } from './cell-store.js';
import { rectOf, type Items } from './regions.js';

export interface Placed { el: Element; r: number; c: number }

export interface BlockCtx { items: Items; cells: CellStore; page: number; anchor: SpreadsheetAnchor; maxGrid: number }

const textOf = (ctx: BlockCtx, i: number) => (ctx.items.cell[i] >= 0 ? ctx.cells.texts[ctx.items.cell[i]] : '');
const flagsOf = (ctx: BlockCtx, i: number) => (ctx.items.cell[i] >= 0 ? ctx.cells.flags[ctx.items.cell[i]] : 0);

function textElement(ctx: BlockCtx, i: number, category: TextElement['category'] = 'Text'): Placed | undefined {
  const text = textOf(ctx, i).trim();
  if (!text) return undefined;
  const it = ctx.items;
  const excelRange = rectName({ r0: it.r0[i], c0: it.c0[i], r1: it.r1[i], c1: it.c1[i] });
  const el: TextElement = { kind: 'text', category, text, box: null, page: ctx.page, confidence: 1, spreadsheet: { ...ctx.anchor, excelRange } };
  if (category === 'Header') el.level = 2;
  return { el, r: it.r0[i], c: it.c0[i] };
}

/**
 * A block of cells → elements. Lone cells, single rows and single columns become Text elements;
 * a block opening with a lone text cell (a sheet title above a table) gives that title first; the
 * rest becomes one table with every cell, merged cells as spans, and detected header rows.
 */
export function blockElements(ctx: BlockCtx, idx: Int32Array): Placed[] {
  const out: Placed[] = [];
  let cur = idx;
  for (let peel = 0; peel < 3 && cur.length > 1; peel++) {
    const rect = rectOf(ctx.items, cur);
    if (rect.r1 === rect.r0 || rect.c1 === rect.c0) break;
    const top = [...cur].filter((i) => ctx.items.r0[i] === rect.r0);
    if (top.length !== 1 || flagsOf(ctx, top[0]) & NUMERIC || !textOf(ctx, top[0]).trim()) break;
    const t = top[0];
    const rest = cur.filter((i) => ctx.items.r0[i] > ctx.items.r1[t]);
    if (rest.length === 0) break;
    const wide = ctx.items.c1[t] > ctx.items.c0[t];
    const p = textElement(ctx, t, wide || flagsOf(ctx, t) & BOLD ? 'Header' : 'Text');
    if (p) out.push(p);
    cur = rest;
  }
  const rect = rectOf(ctx.items, cur);
  const rows = rect.r1 - rect.r0 + 1, cols = rect.c1 - rect.c0 + 1;
  if (rows < 2 || cols < 2 || rows * cols > ctx.maxGrid) {
    const order = [...cur].sort((a, b) => ctx.items.r0[a] - ctx.items.r0[b] || ctx.items.c0[a] - ctx.items.c0[b]);
    for (const i of order) { const p = textElement(ctx, i); if (p) out.push(p); }
    return out;
  }
  out.push({ el: buildTable(ctx, cur, rect, undefined), r: rect.r0, c: rect.c0 });
  return out;
}

/** Builds the TableElement over `rect` (a block's bounds or a defined table's ref). */
export function buildTable(ctx: BlockCtx, idx: Int32Array, rect: CellRect, definedHeaderRows: number | undefined): TableElement {
  const it = ctx.items;
  const rows = rect.r1 - rect.r0 + 1, cols = rect.c1 - rect.c0 + 1;
  const slot = new Int32Array(rows * cols).fill(-1);
  for (const i of idx) {
    const r0 = it.r0[i] - rect.r0, c0 = it.c0[i] - rect.c0;
    if (r0 < 0 || c0 < 0 || r0 >= rows || c0 >= cols) continue;
    const r1 = Math.min(rows - 1, it.r1[i] - rect.r0), c1 = Math.min(cols - 1, it.c1[i] - rect.c0);
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) slot[r * cols + c] = -2;
    slot[r0 * cols + c0] = i;
  }
  const headerRows = definedHeaderRows ?? detectHeaderRows(ctx, idx, rect);
  const cells: TableCell[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const s = slot[r * cols + c];
      if (s === -2) continue;
      const rowSpan = s >= 0 ? Math.min(rows - r, it.r1[s] - it.r0[s] + 1) : 1;
      const colSpan = s >= 0 ? Math.min(cols - c, it.c1[s] - it.c0[s] + 1) : 1;
      cells.push({ row: r, col: c, rowSpan, colSpan, text: s >= 0 ? textOf(ctx, s) : '', box: null, isHeader: r < headerRows, confidence: 1 });
    }
  }
  return {
    kind: 'table', page: ctx.page, box: null, rows, cols, cells, confidence: 1, headerRows,
    spreadsheet: { ...ctx.anchor, excelRange: rectName(rect) },
  };
}

/**
 * Header rows of an undeclared table: the first row is a header when all its cells are text and
 * numbers follow below, or when it is all bold and the body is not. A first row with a horizontal
 * merge over an all-text second row makes a two-row header; vertical merges in the header extend it.
 */
function detectHeaderRows(ctx: BlockCtx, idx: Int32Array, rect: CellRect): number {
  const it = ctx.items;
  const first: number[] = [], second: number[] = [];
  let numericBelow = false, plainBelow = false;
  for (const i of idx) {
    if (it.r0[i] === rect.r0) first.push(i);
    else {
      if (it.r0[i] === rect.r0 + 1) second.push(i);
      const f = flagsOf(ctx, i);
      if (f & NUMERIC) numericBelow = true;
      if (!(f & BOLD) && textOf(ctx, i)) plainBelow = true;
    }
  }
  const filled = first.filter((i) => textOf(ctx, i).trim());
  if (!filled.length) return 0;
  const allText = filled.every((i) => !(flagsOf(ctx, i) & NUMERIC));
  const allBold = filled.every((i) => flagsOf(ctx, i) & BOLD);
  if (!((allText && numericBelow) || (allBold && plainBelow))) return 0;
  let h = 1;
  for (const i of first) h = Math.max(h, it.r1[i] - it.r0[i] + 1);
  const hMerge = first.some((i) => it.c1[i] > it.c0[i]);
  const secondText = second.length > 0 && second.every((i) => !(flagsOf(ctx, i) & NUMERIC));
  if (h === 1 && hMerge && secondText && rect.r1 - rect.r0 >= 2) h = 2;
  return Math.min(h, rect.r1 - rect.r0);
}
