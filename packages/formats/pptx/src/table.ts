import type { TableCell, TableElement } from '@quire/core';
import { xAttr, xChild, xChildren, type XEl } from '@quire/format-ooxml';
import { toBox, type Rect } from './geometry.js';
import { paragraphText } from './text.js';

const int = (v: string | undefined, d: number) => {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : d;
};
const on = (v: string | undefined) => v === '1' || v === 'true';

/**
 * a:tbl → TableElement. Spans come from gridSpan/rowSpan on the anchor cell; the cells they cover
 * are marked hMerge/vMerge and are dropped, so each merged cell appears once at its top-left.
 * Cell boxes come from the grid's column widths and the rows' heights inside the frame.
 */
export function readTable(tbl: XEl, frame: Rect | undefined, page: number, slideW: number, slideH: number): TableElement {
  const widths = xChildren(xChild(tbl, 'tblGrid'), 'gridCol').map((g) => Number(xAttr(g, 'w') ?? 0) || 0);
  const rows = xChildren(tbl, 'tr');
  const heights = rows.map((r) => Number(xAttr(r, 'h') ?? 0) || 0);
  const cols = Math.max(widths.length, ...rows.map((r) => xChildren(r, 'tc').length), 0);
  const xs = [frame?.x ?? 0];
  for (let c = 0; c < cols; c++) xs.push(xs[c] + (widths[c] ?? 0));
  const ys = [frame?.y ?? 0];
  for (let r = 0; r < rows.length; r++) ys.push(ys[r] + heights[r]);
  const cells: TableCell[] = [];
  const tblPr = xChild(tbl, 'tblPr');
  let headerRows = on(xAttr(tblPr, 'firstRow')) ? 1 : 0;
  rows.forEach((tr, r) => {
    xChildren(tr, 'tc').forEach((tc, c) => {
      if (on(xAttr(tc, 'hMerge')) || on(xAttr(tc, 'vMerge'))) return;
      const colSpan = Math.min(int(xAttr(tc, 'gridSpan'), 1), cols - c);
      const rowSpan = Math.min(int(xAttr(tc, 'rowSpan'), 1), rows.length - r);
      if (r === 0 && headerRows > 0) headerRows = Math.max(headerRows, rowSpan);
      const text = xChildren(xChild(tc, 'txBody'), 'p').map((p) => paragraphText(p)).join('\n').trim();
      const rect = frame ? { x: xs[c], y: ys[r], w: xs[c + colSpan] - xs[c], h: ys[r + rowSpan] - ys[r] } : undefined;
      cells.push({ row: r, col: c, rowSpan, colSpan, text, box: toBox(rect, slideW, slideH), isHeader: r < headerRows, confidence: 1 });
    });
  });
  for (const cell of cells) cell.isHeader = cell.row < headerRows;
  const table: TableElement = {
    kind: 'table', page, box: toBox(frame, slideW, slideH), rows: rows.length, cols, cells, confidence: 1, headerRows,
  };
  if (on(xAttr(tblPr, 'firstCol'))) table.headerCols = 1;
  return table;
}
