import { prettifyFieldName } from './labels.js';
import type { DetectedCell } from './types.js';

/** Sorts cells page by page into reading order: lines top to bottom, left to right within a line. */
export function readingOrder(cells: DetectedCell[]): DetectedCell[] {
  const byPage = new Map<number, DetectedCell[]>();
  for (const c of cells) byPage.set(c.page_number, [...(byPage.get(c.page_number) ?? []), c]);
  const out: DetectedCell[] = [];
  for (const page of [...byPage.keys()].sort((a, b) => a - b)) {
    const sorted = byPage.get(page)!.sort((a, b) => a.bounding_box[1] - b.bounding_box[1]);
    const lines: DetectedCell[][] = [];
    for (const c of sorted) {
      const line = lines[lines.length - 1];
      const cy = (c.bounding_box[1] + c.bounding_box[3]) / 2;
      if (line && cy <= Math.min(...line.map((l) => l.bounding_box[3]))) line.push(c);
      else lines.push([c]);
    }
    for (const line of lines) out.push(...line.sort((a, b) => a.bounding_box[0] - b.bounding_box[0]));
  }
  return out;
}

const TOL = 0.004;

/**
 * Fields aligned in a grid (at least 2 rows × 2 columns sharing column positions, rows evenly
 * stacked) get row / col / table_idx. `startIdx` continues table numbering from the drawn grids.
 */
export function assignWidgetGrids(cells: DetectedCell[], startIdx: number): number {
  let tableIdx = startIdx;
  const pages = new Set(cells.map((c) => c.page_number));
  for (const page of pages) {
    const cand = cells.filter((c) => c.page_number === page && c.type === 'text' && c.row === undefined);
    const rows: DetectedCell[][] = [];
    for (const c of [...cand].sort((a, b) => a.bounding_box[1] - b.bounding_box[1])) {
      const row = rows.find((r) => Math.abs(r[0].bounding_box[1] - c.bounding_box[1]) < TOL && Math.abs(r[0].bounding_box[3] - c.bounding_box[3]) < TOL);
      if (row) row.push(c); else rows.push([c]);
    }
    for (const r of rows) r.sort((a, b) => a.bounding_box[0] - b.bounding_box[0]);
    const multi = rows.filter((r) => r.length >= 2).sort((a, b) => a[0].bounding_box[1] - b[0].bounding_box[1]);
    let i = 0;
    while (i < multi.length) {
      const group = [multi[i]];
      while (i + group.length < multi.length && sameColumns(group[group.length - 1], multi[i + group.length]) && stacked(group[group.length - 1], multi[i + group.length])) {
        group.push(multi[i + group.length]);
      }
      if (group.length >= 2) {
        group.forEach((r, ri) => r.forEach((c, ci) => {
          c.row = ri; c.col = ci; c.table_idx = tableIdx;
          // rows below the first rarely have printed labels: name them after the column's header
          const header = group[0][ci].label;
          if (ri > 0 && c.source.kind === 'acroform' && c.label === prettifyFieldName(c.source.fieldName) && header) c.label = `${header} (row ${ri + 1})`;
        }));
        tableIdx++;
      }
      i += group.length;
    }
  }
  return tableIdx;
}

const sameColumns = (a: DetectedCell[], b: DetectedCell[]) =>
  a.length === b.length && a.every((c, k) => Math.abs(c.bounding_box[0] - b[k].bounding_box[0]) < TOL && Math.abs(c.bounding_box[2] - b[k].bounding_box[2]) < TOL);

const stacked = (a: DetectedCell[], b: DetectedCell[]) => {
  const h = a[0].bounding_box[3] - a[0].bounding_box[1];
  return b[0].bounding_box[1] - a[0].bounding_box[3] < 2.5 * h + 0.01;
};
