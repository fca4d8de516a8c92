import type { TableCell, TableElement } from '@quire/core';
import { attr, child, childrenNamed, isOn, kids, nameOf, path, val, type X } from './ox.js';
import { pickAlternate } from './inline.js';

/** Rows and cells can sit inside content controls, custom XML and tracked insertions: look through them. */
function unwrap(nodes: X[], name: string): X[] {
  const out: X[] = [];
  for (const n of nodes) {
    const k = nameOf(n);
    if (k === name) out.push(n);
    else if (k === 'sdt') out.push(...unwrap(kids(child(n, 'sdtContent') ?? {}), name));
    else if (k === 'customXml' || k === 'ins' || k === 'moveTo') out.push(...unwrap(kids(n), name));
    else if (k === 'AlternateContent') out.push(...unwrap(pickAlternate(n), name));
  }
  return out;
}

const tableRows = (tbl: X) => unwrap(kids(tbl), 'tr').filter((tr) => !path(tr, 'trPr', 'del'));
const rowCells = (tr: X) => unwrap(kids(tr), 'tc');

export interface TableRead {
  table: TableElement;
  /** Rows (0-based) whose cells contain a rendered page break: the table continues on the next page there. */
  rowsWithBreaks: number;
}

/**
 * w:tbl → TableElement. gridSpan gives column spans; vMerge="restart" opens a vertical merge that
 * following vMerge (continue) cells extend; gridBefore skips leading grid columns; leading rows marked
 * tblHeader (repeat as header row) are the header rows. `cellText` reads a cell's paragraphs.
 */
export function buildTable(tbl: X, cellText: (tc: X) => { text: string; renderedBreaks: number }): TableRead {
  const rows = tableRows(tbl);
  const gridCols = childrenNamed(child(tbl, 'tblGrid') ?? {}, 'gridCol').length;
  const cells: TableCell[] = [];
  const open = new Map<number, TableCell>(); // grid column → cell whose vertical merge is still open
  const taken: boolean[][] = [];
  let headerRows = 0, headerRun = true, rowsWithBreaks = 0;
  rows.forEach((tr, r) => {
    let col = Number(val(path(tr, 'trPr', 'gridBefore')) ?? 0) || 0;
    const isHeaderRow = isOn(path(tr, 'trPr', 'tblHeader'));
    headerRun &&= isHeaderRow;
    if (headerRun) headerRows = r + 1;
    let broke = false;
    for (const tc of rowCells(tr)) {
      const span = Math.max(1, Math.min(1000, Number(val(path(tc, 'tcPr', 'gridSpan')) ?? 1) || 1));
      const vMerge = path(tc, 'tcPr', 'vMerge');
      const { text, renderedBreaks } = cellText(tc);
      if (renderedBreaks > 0) broke = true;
      const above = open.get(col);
      if (vMerge && attr(vMerge, 'val') !== 'restart' && above && above.colSpan === span) {
        above.rowSpan = r - above.row + 1;
        if (text && !above.text.includes(text)) above.text = above.text ? `${above.text}\n${text}` : text;
      } else {
        const cell: TableCell = { row: r, col, rowSpan: 1, colSpan: span, text, box: null, isHeader: isHeaderRow, confidence: null };
        cells.push(cell);
        for (let j = 0; j < span; j++) open.delete(col + j);
        if (vMerge) open.set(col, cell);
      }
      for (let j = 0; j < span; j++) (taken[r] ??= [])[col + j] = true;
      col += span;
    }
    // a merge stays open only while the next row continues it
    for (const [c, cell] of open) if (cell.row + cell.rowSpan - 1 < r) open.delete(c);
    if (broke) rowsWithBreaks++;
  });
  for (const c of cells) for (let i = 1; i < c.rowSpan; i++) for (let j = 0; j < c.colSpan; j++) (taken[c.row + i] ??= [])[c.col + j] = true;
  const cols = Math.max(gridCols, ...Array.from(taken, (t) => t?.length ?? 0), 0);
  for (let r = 0; r < rows.length; r++) for (let c = 0; c < cols; c++) {
    if (!taken[r]?.[c]) cells.push({ row: r, col: c, rowSpan: 1, colSpan: 1, text: '', box: null, isHeader: false, confidence: null });
  }
  cells.sort((a, b) => a.row - b.row || a.col - b.col);
  if (headerRows === rows.length) headerRows = Math.min(headerRows, rows.length > 1 ? rows.length - 1 : 0);
  return {
    table: { kind: 'table', page: 1, box: null, rows: rows.length, cols, cells, confidence: null, headerRows },
    rowsWithBreaks,
  };
}
