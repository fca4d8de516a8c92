import type { TableCell } from '@quire/core';
import { parseCellValue, type CellType } from './cell-value.js';
import { rowsOf, slotsOf } from './grid.js';
import type { MergeDecision, TableView } from './table-view.js';

export interface JsonCell {
  id?: string;
  row: number;
  col: number;
  row_span: number;
  col_span: number;
  /** The text as printed. */
  text: string;
  type: CellType;
  /** Parsed value: a number for number/percent/currency (percent as printed: "12 %" → 12), the text for strings, null when empty or missing. */
  value: number | string | null;
  unit?: string;
}

export interface JsonColumn {
  index: number;
  /** Header texts top to bottom, e.g. ["2023", "Q1"]; a pandas MultiIndex tuple. */
  path: string[];
  name: string;
  /** Most common non-empty type among the column's body cells. */
  type: CellType;
  is_stub: boolean;
}

export interface JsonRow {
  index: number;
  role: 'data' | 'total' | 'section';
  /** Stub (row header) texts, outermost first. */
  row_header: string[];
  /** One value per column; a spanning cell's value repeats over the columns (and rows) it covers. */
  values: (number | string | null)[];
  /** The cells that start in this row, with spans. */
  cells: JsonCell[];
}

export interface TableJson {
  id: string;
  citations: string[];
  pages: number[];
  from_chart: boolean;
  n_rows: number;
  n_cols: number;
  header_rows: number;
  stub_cols: number;
  columns: JsonColumn[];
  /** Header rows as cells with spans (multi-level headers). */
  header: JsonCell[][];
  rows: JsonRow[];
  merge?: MergeDecision[];
  chart_type?: string;
}

function jsonCell(c: TableCell): JsonCell {
  const v = parseCellValue(c.text);
  const text = c.text.trim();
  return {
    ...(c.id ? { id: c.id } : {}), row: c.row, col: c.col, row_span: c.rowSpan, col_span: c.colSpan, text,
    type: v.type, value: v.type === 'string' ? text : v.value, ...(v.unit ? { unit: v.unit } : {}),
  };
}

/** The dataframe-oriented JSON form of an output table. */
export function tableToJson(view: TableView): TableJson {
  const { table, structure } = view;
  const slots = slotsOf(table);
  const rows = rowsOf(table);
  const h = structure.headerRows;
  const body: JsonRow[] = [];
  const types: Map<CellType, number>[] = Array.from({ length: table.cols }, () => new Map());
  const memo = new Map<TableCell, JsonCell>();
  const of = (c: TableCell) => { let j = memo.get(c); if (!j) memo.set(c, (j = jsonCell(c))); return j; };
  for (let r = h; r < table.rows; r++) {
    const values = slots[r].map((cell) => (cell ? of(cell).value : null));
    const cells = rows[r].map(of);
    for (const c of cells) if (c.type !== 'empty') types[c.col].set(c.type, (types[c.col].get(c.type) ?? 0) + 1);
    const role = structure.rowRoles[r];
    body.push({ index: r, role: role === 'header' ? 'data' : role, row_header: structure.rowHeaders[r], values, cells });
  }
  const columns: JsonColumn[] = structure.columnPaths.map((path, c) => ({
    index: c, path, name: path.length ? path.join(' / ') : `column_${c + 1}`,
    type: dominant(types[c]), is_stub: c < structure.stubCols,
  }));
  return {
    id: view.id, citations: view.citations, pages: view.pages, from_chart: view.fromChart,
    n_rows: table.rows, n_cols: table.cols, header_rows: h, stub_cols: structure.stubCols,
    columns, header: rows.slice(0, h).map((cells) => cells.map(jsonCell)), rows: body,
    ...(view.merges.length ? { merge: view.merges } : {}),
    ...(view.chartType ? { chart_type: view.chartType } : {}),
    ...(view.chartReadBy ? { chart_read_by: view.chartReadBy } : {}),
  };
}

function dominant(counts: Map<CellType, number>): CellType {
  let best: CellType = 'empty', n = 0;
  for (const [t, k] of counts) if (k > n || (k === n && t !== 'missing')) { best = t; n = k; }
  if (best === 'missing' && counts.size > 1) {
    for (const [t, k] of counts) if (t !== 'missing' && (best === 'missing' || k > (counts.get(best) ?? 0))) best = t;
  }
  return best;
}
