import type { Document, FigureElement } from '@quire/core';
import { NO_CHART_MODEL, buildTables } from './build-tables.js';
import { reconstructCharts } from './charts.js';
import { tableToHtml } from './to-html.js';
import type { TableJson } from './to-json.js';

const office: FigureElement = {
  kind: 'figure', id: 'fig-1', page: 1, box: null, visualType: 'chart', text: '',
  spreadsheet: { sheetName: 'Data', sheetIndex: 1, workbookSheetIndex: 2, excelRange: 'E2:K16' },
  chart: {
    chartType: 'column', title: 'Units, by "kind"', sourceRanges: ['Data!$B$1', 'Data!$A$2:$A$3', 'Data!$B$2:$B$3'],
    axes: { x: { title: 'Product' } },
    series: [
      { name: 'Units', categories: ['Widget', 'Gadget, large'], values: [10, null], plotType: 'column', refs: { name: 'Data!$B$1', categories: 'Data!$A$2:$A$3', values: 'Data!$B$2:$B$3' } },
      { name: 'Empty', categories: [], values: [] },
    ],
  },
};
const drawn: FigureElement = { kind: 'figure', id: 'fig-2', page: 2, box: { x0: 0.1, y0: 0.2, x1: 0.5, y1: 0.6 } as any, visualType: 'chart', text: 'Sales 2023' };
const doc = (els: FigureElement[]): Document => ({
  format: 'xlsx' as any, pageCount: 2, warnings: [],
  pages: [1, 2].map((n) => ({ number: n, width: 0, height: 0, words: [], selectionMarks: [], elements: els.filter((e) => e.page === n) })),
});

describe('reconstructCharts', () => {
  it('gives series, axes, source and a CSV from the cached office chart data', () => {
    const { charts, not_converted } = reconstructCharts(doc([office]), 'no model');
    expect(not_converted).toEqual([]);
    expect(charts).toHaveLength(1);
    const [c] = charts;
    expect(c).toMatchObject({ id: 'fig-1', page: 1, chart_type: 'column', title: 'Units, by "kind"', axes: { x: { title: 'Product' }, y: { title: null } } });
    expect(c.series).toEqual([{ name: 'Units', plot_type: 'column', categories: ['Widget', 'Gadget, large'], values: [10, null], source_ranges: { name: 'Data!$B$1', categories: 'Data!$A$2:$A$3', values: 'Data!$B$2:$B$3' } }]);
    expect(c.source).toEqual({ bounding_box: [], sheet_name: 'Data', excel_range: 'E2:K16', source_ranges: office.chart!.sourceRanges });
    expect(c.exports.csv).toBe('Product,Units\r\nWidget,10\r\n"Gadget, large",\r\n');
  });

  it('lists charts without stored series under not_converted with the reason given', () => {
    const { charts, not_converted } = reconstructCharts(doc([office, drawn]), 'no chart-reading model is configured');
    expect(charts.map((c) => c.id)).toEqual(['fig-1']);
    expect(not_converted).toEqual([{ id: 'fig-2', page: 2, reason: 'no chart-reading model is configured' }]);
  });
});

describe('charts read by a vision model', () => {
  const read = { chartType: 'bar', sourceRanges: [], series: [{ name: 'Sales', categories: ['Q1', 'Q2'], values: [4, 5] }] };
  const third: FigureElement = { ...drawn, id: 'fig-3' };

  it('reconstructCharts takes a reading for a chart without stored series, and reports a failed one', () => {
    const readings = new Map([['fig-2', { chart: read, model: 'openai:m' }], ['fig-3', { error: 'the picture could not be rendered' }]]);
    const { charts, not_converted } = reconstructCharts(doc([office, drawn, third]), 'no model', readings);
    expect(charts.map((c) => [c.id, c.read_by, c.exports.csv])).toEqual([['fig-1', undefined, expect.any(String)], ['fig-2', 'openai:m', 'Category,Sales\r\nQ1,4\r\nQ2,5\r\n']]);
    expect(not_converted).toEqual([{ id: 'fig-3', page: 2, reason: 'the picture could not be rendered' }]);
  });

  it('buildTables turns readings into from_chart tables (counted as charts) and names the charts left unconverted', () => {
    const readings = new Map([['fig-2', { chart: read, model: 'openai:m' }]]);
    const out = buildTables(doc([office, drawn, third]), { chartsToTables: true, format: 'json', chartReadings: readings, unreadableChart: 'no vision model' });
    expect(out.tables.map((t) => [t.citations, t.from_chart])).toEqual([[['fig-1'], true], [['fig-2'], true]]);
    expect((out.tables[1].table_content as TableJson)).toMatchObject({ chart_read_by: 'openai:m', chart_type: 'bar' });
    expect((out.tables[1].table_content as TableJson).rows.map((r) => r.values)).toEqual([['Q1', 4], ['Q2', 5]]);
    expect(out.chartCount).toBe(2);
    expect(out.unconvertedCharts).toEqual([{ id: 'fig-3', page: 2, reason: 'no vision model' }]);
    expect(tableToHtml(out.views[1])).toContain('data-chart-read-by="openai:m"');
    // without readings or a reason, the default names the missing model
    expect(buildTables(doc([drawn]), { chartsToTables: true }).unconvertedCharts[0].reason).toBe(NO_CHART_MODEL);
  });
});
