import type { TableElement } from '@quire/core';
import { parseCellValue } from './cell-value.js';
import { clean, slotsOf, type Slots } from './grid.js';

export type RowRole = 'header' | 'data' | 'total' | 'section';

/** Reading of a table's logical structure on top of its grid. */
export interface TableStructure {
  headerRows: number;
  /** Leading stub columns: row headers. */
  stubCols: number;
  rowRoles: RowRole[];
  /** Per column, the texts of the header cells above it, top to bottom (multi-level headers). */
  columnPaths: string[][];
  /** Per row, the texts of its stub cells (a row-spanning stub cell names every row it covers). */
  rowHeaders: string[][];
}

const TOTAL = /^(?:grand\s+|sub-?)?totals?\b|^(?:sum|all\s+\w+)\b|\btotal$/i;

const isQuantity = (text: string) => {
  const t = parseCellValue(text).type;
  return t === 'number' || t === 'percent' || t === 'currency' || t === 'missing';
};
/** Column labels are often years or plain small integers ("2023", "Q1" is text anyway). */
const isLabelLike = (text: string) => {
  const v = parseCellValue(text);
  if (v.type === 'string') return true;
  return v.type === 'number' && /^\d{4}$/.test(clean(text)) && Number(v.value) >= 1800 && Number(v.value) <= 2100;
};

/**
 * Header rows, stub columns, totals and section rows. The extraction's own header marking (bold, fill,
 * rule under the header) is kept; it is extended downward over leading rows that read as labels while
 * the body below reads as quantities, which is how multi-level headers of borderless statistical tables
 * look. The stub is the first column when it holds text beside quantity columns.
 */
export function analyzeStructure(t: TableElement): TableStructure {
  const slots = slotsOf(t);
  const stubCols = t.headerCols ?? inferStub(slots, t);
  const headerRows = Math.max(t.headerRows, inferHeaderRows(slots, t, stubCols));
  const rowRoles: RowRole[] = [];
  const rowHeaders: string[][] = [];
  for (let r = 0; r < t.rows; r++) {
    const stub: string[] = [];
    for (let c = 0; c < stubCols; c++) {
      const cell = slots[r][c];
      if (cell && clean(cell.text) && (c === 0 || slots[r][c - 1] !== cell)) stub.push(clean(cell.text));
    }
    rowHeaders.push(r < headerRows ? [] : stub);
    rowRoles.push(r < headerRows ? 'header' : roleOf(slots[r], t.cols));
  }
  return { headerRows, stubCols, rowRoles, columnPaths: columnPaths(slots, t.cols, headerRows), rowHeaders };
}

function roleOf(row: Slots[number], cols: number): RowRole {
  const distinct = [...new Set(row.filter((c) => c && clean(c.text)))];
  if (cols > 2 && distinct.length === 1 && distinct[0]!.colSpan >= cols - 1 && !isQuantity(distinct[0]!.text)) return 'section';
  const first = distinct[0];
  if (first && TOTAL.test(clean(first.text))) return 'total';
  return 'data';
}

function columnPaths(slots: Slots, cols: number, headerRows: number): string[][] {
  const out: string[][] = [];
  for (let c = 0; c < cols; c++) {
    const path: string[] = [];
    let prev: unknown = null;
    for (let r = 0; r < headerRows; r++) {
      const cell = slots[r][c];
      if (cell && cell !== prev && clean(cell.text)) path.push(clean(cell.text));
      prev = cell;
    }
    out.push(path);
  }
  return out;
}

function inferStub(slots: Slots, t: TableElement): number {
  if (t.cols < 2) return 0;
  const body = slots.slice(Math.max(1, t.headerRows));
  let text = 0, n = 0, quantCols = 0;
  for (const row of body) {
    const cell = row[0];
    if (cell && cell.col === 0 && clean(cell.text)) { n++; if (!isQuantity(cell.text)) text++; }
  }
  for (let c = 1; c < t.cols; c++) {
    let q = 0, m = 0;
    for (const row of body) { const cell = row[c]; if (cell && cell.col === c && clean(cell.text)) { m++; if (isQuantity(cell.text)) q++; } }
    if (m > 0 && q >= 0.6 * m) quantCols++;
  }
  return n > 0 && text >= 0.7 * n && quantCols > 0 ? 1 : 0;
}

/** Leading rows whose non-stub cells are labels while most non-stub body cells are quantities. */
function inferHeaderRows(slots: Slots, t: TableElement, stubCols: number): number {
  const rowKind = (r: number): 'label' | 'quantity' | 'blank' | 'mixed' => {
    let labels = 0, quants = 0;
    for (let c = stubCols; c < t.cols; c++) {
      const cell = slots[r][c];
      if (!cell || (cell.row !== r && cell.rowSpan > 1) || !clean(cell.text) || (c > stubCols && slots[r][c - 1] === cell)) continue;
      if (isLabelLike(cell.text)) labels++;
      else quants++;
    }
    if (labels === 0 && quants === 0) return 'blank';
    return quants === 0 ? 'label' : labels === 0 ? 'quantity' : 'mixed';
  };
  let k = 0;
  while (k < t.rows - 1 && (rowKind(k) === 'label' || (k > 0 && rowKind(k) === 'blank'))) k++;
  while (k > 0 && rowKind(k - 1) === 'blank') k--;
  if (k === 0) return 0;
  let quant = 0, total = 0;
  for (let r = k; r < t.rows; r++) {
    const kind = rowKind(r);
    if (kind === 'blank') continue;
    total++;
    if (kind === 'quantity' || kind === 'mixed') quant++;
  }
  if (total === 0 || quant < 0.6 * total) return 0;
  // a header cell spanning down pulls the rows it covers into the header
  let h = k;
  for (let c = 0; c < t.cols; c++) for (let r = 0; r < h; r++) { const cell = slots[r][c]; if (cell) h = Math.max(h, cell.row + cell.rowSpan); }
  return Math.min(h, t.rows - 1);
}
