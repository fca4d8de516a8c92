import type { TableCell, TableElement } from '@quire/core';

/** Each grid position mapped to the cell that covers it (a spanning cell covers several), or null. */
export type Slots = (TableCell | null)[][];

export function slotsOf(t: TableElement): Slots {
  const slots: Slots = Array.from({ length: t.rows }, () => Array<TableCell | null>(t.cols).fill(null));
  for (const cell of t.cells) {
    for (let r = cell.row; r < Math.min(t.rows, cell.row + Math.max(1, cell.rowSpan)); r++) {
      for (let c = cell.col; c < Math.min(t.cols, cell.col + Math.max(1, cell.colSpan)); c++) {
        if (r >= 0 && c >= 0) slots[r][c] = cell;
      }
    }
  }
  return slots;
}

/** Cells grouped by the row they start in, left to right. */
export function rowsOf(t: TableElement): TableCell[][] {
  const rows: TableCell[][] = Array.from({ length: t.rows }, () => []);
  for (const c of t.cells) if (c.row >= 0 && c.row < t.rows) rows[c.row].push(c);
  for (const r of rows) r.sort((a, b) => a.col - b.col);
  return rows;
}

export const clean = (s: string) => s.replace(/\s+/g, ' ').trim();
