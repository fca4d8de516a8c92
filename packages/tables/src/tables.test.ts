import type { Document, TableCell, TableElement } from '@quire/core';
import { buildTables } from './build-tables.js';
import { analyzeStructure } from './structure.js';
import type { TableJson } from './to-json.js';

/** A table from rows of texts (no spans), boxes on an even grid inside `box`. */
function table(id: string, page: number, rows: string[][], box = { x0: 0.1, y0: 0.1, x1: 0.9, y1: 0.9 }, headerRows = 0): TableElement {
  const cols = rows[0].length;
  const w = (box.x1 - box.x0) / cols, h = (box.y1 - box.y0) / rows.length;
  const cells: TableCell[] = rows.flatMap((row, r) => row.map((text, c) => ({
    id: `${id}-r${r}c${c}`, row: r, col: c, rowSpan: 1, colSpan: 1, text, isHeader: r < headerRows, confidence: 1,
    box: { x0: box.x0 + c * w, x1: box.x0 + (c + 1) * w, y0: box.y0 + r * h, y1: box.y0 + (r + 1) * h },
  })));
  return { kind: 'table', id, page, box, rows: rows.length, cols, cells, confidence: 0.9, headerRows };
}

const doc = (...pages: TableElement[][]): Document => ({
  format: 'pdf', pageCount: pages.length, warnings: [],
  pages: pages.map((elements, i) => ({ number: i + 1, width: 612, height: 792, elements, words: [], selectionMarks: [] })),
});

const body = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => [`Item ${from + i}`, String(100 + from + i), `${from + i}.5`]);

describe('structure', () => {
  it('extends the header over leading label rows above quantities and finds the stub', () => {
    const t = table('tbl-1', 1, [['', 'Revenue', ''], ['State', 'Medical', 'Family'], ['Kerala', '1,200', '300'], ['Goa', '900', '(20)'], ['Total', '2,100', '280']]);
    const s = analyzeStructure(t);
    expect(s.headerRows).toBe(2);
    expect(s.stubCols).toBe(1);
    expect(s.columnPaths).toEqual([['State'], ['Revenue', 'Medical'], ['Family']]);
    expect(s.rowRoles).toEqual(['header', 'header', 'data', 'data', 'total']);
    expect(s.rowHeaders[3]).toEqual(['Goa']);
  });

  it('leaves an all-text table without an invented header', () => {
    expect(analyzeStructure(table('tbl-1', 1, [['a', 'b'], ['c', 'd'], ['e', 'f']])).headerRows).toBe(0);
  });
});

describe('merge across pages', () => {
  const head = ['Name', 'Count', 'Weight'];
  const top = { x0: 0.1, y0: 0.5, x1: 0.9, y1: 0.95 }, bottom = { x0: 0.1, y0: 0.05, x1: 0.9, y1: 0.6 };

  it('drops a repeated header and cites both tables', () => {
    const d = doc([table('tbl-1', 1, [head, ...body(1, 10)], top, 1)], [table('tbl-2', 2, [head, ...body(10, 20)], bottom, 1)]);
    const out = buildTables(d, { merge: true, format: 'json' });
    expect(out.tables).toHaveLength(1);
    expect(out.tables[0].citations).toEqual(['tbl-1', 'tbl-2']);
    const j = out.tables[0].table_content as TableJson;
    expect(j.rows.map((r) => r.values[0])).toEqual(body(1, 20).map((r) => r[0]));
    expect(out.mergeDecisions[0]).toMatchObject({ merged: true, droppedHeaderRows: 1 });
    expect(out.mergeDecisions[0].confidence).toBeGreaterThan(0.9);
    expect(out.tableCount).toBe(1);
  });

  it('merges a continuation without header and stitches a row split at the break', () => {
    const last = [...body(1, 9), ['Item with a long', '109', '9.5']];
    const d = doc([table('tbl-1', 1, [head, ...last], top, 1)], [table('tbl-2', 2, [['name', '', ''], ...body(10, 15)], bottom)]);
    const out = buildTables(d, { merge: true, format: 'json' });
    expect(out.tables).toHaveLength(1);
    const j = out.tables[0].table_content as TableJson;
    expect(j.rows[8].values).toEqual(['Item with a long name', 109, 9.5]);
    expect(j.rows).toHaveLength(14);
    expect(out.mergeDecisions[0]).toMatchObject({ merged: true, stitchedRow: true, droppedHeaderRows: 0 });
  });

  it('keeps tables apart when columns differ, when text sits at the break, or when merge is off', () => {
    const other = table('tbl-2', 2, [['A', 'B'], ['1', '2'], ['3', '4']], bottom);
    expect(buildTables(doc([table('tbl-1', 1, [head, ...body(1, 9)], top, 1)], [other]), { merge: true }).tables).toHaveLength(2);
    const prose = { kind: 'text' as const, id: 'txt-1', category: 'Text' as const, text: 'Notes.', box: { x0: 0.1, y0: 0.96, x1: 0.9, y1: 0.98 }, page: 1, confidence: 1 };
    const d = doc([table('tbl-1', 1, [head, ...body(1, 9)], top, 1), prose as never], [table('tbl-2', 2, body(10, 15), bottom)]);
    expect(buildTables(d, { merge: true }).tables).toHaveLength(2);
    const d2 = doc([table('tbl-1', 1, [head, ...body(1, 9)], top, 1)], [table('tbl-2', 2, body(10, 15), bottom)]);
    expect(buildTables(d2, { merge: false }).tables).toHaveLength(2);
    expect(buildTables(d2, { merge: true }).tables).toHaveLength(1);
  });

  it('refuses a continuation whose columns sit elsewhere', () => {
    const shifted = table('tbl-2', 2, body(10, 15), { x0: 0.4, y0: 0.05, x1: 0.95, y1: 0.6 });
    const out = buildTables(doc([table('tbl-1', 1, [head, ...body(1, 9)], top, 1)], [shifted]), { merge: true });
    expect(out.tables).toHaveLength(2);
    expect(out.mergeDecisions[0].merged).toBe(false);
    expect(out.mergeDecisions[0].confidence).toBeLessThan(0.6);
  });
});

describe('charts', () => {
  it('lists charts without series as not converted', () => {
    const fig = { kind: 'figure' as const, id: 'fig-1', page: 1, box: null, visualType: 'chart' as const, text: '' };
    const out = buildTables(doc([fig as never]), { chartsToTables: true });
    expect(out.tables).toHaveLength(0);
    expect(out.unconvertedCharts).toEqual([expect.objectContaining({ id: 'fig-1', page: 1 })]);
  });

  it('turns scatter series into x/y columns exactly as cached', () => {
    const fig = { kind: 'figure' as const, id: 'fig-1', page: 1, box: null, visualType: 'chart' as const, text: '',
      chart: { chartType: 'scatter', sourceRanges: [], series: [{ name: 'Obs', categories: [], values: [1.5, 2.25], xValues: [10, 20] }] } };
    const out = buildTables(doc([fig as never]), { chartsToTables: true, format: 'json' });
    const j = out.tables[0].table_content as TableJson;
    expect(out.tables[0].from_chart).toBe(true);
    expect(j.columns.map((c) => c.name)).toEqual(['Obs (x)', 'Obs']);
    expect(j.rows.map((r) => r.values)).toEqual([[10, 1.5], [20, 2.25]]);
    expect(out.chartCount).toBe(1);
  });
});
