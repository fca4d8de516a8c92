import type { ChartData } from '@quire/core';
import { CHART_TABLE_MAX_ROWS, chartDataShown, chartGrid, chartGridMarkdown, refSheet } from './chart-table.js';

const series = (name: string, values: (number | null)[], ref?: string) => ({
  name, categories: values.map((_, i) => `c${i + 1}`), values, ...(ref ? { refs: { values: ref } } : {}),
});
const chart = (s: ChartData['series']): ChartData => ({ chartType: 'line', series: s, sourceRanges: [] });

describe('chart data table', () => {
  it('rows are categories, columns series; gaps stay empty and float noise is dropped', () => {
    const grid = chartGrid(chart([series('A', [1, null, 0.1 + 0.2]), series('', [2, 3, 4])]))!;
    expect(chartGridMarkdown(grid)).toBe('|  | A | Series 2 |\n| --- | --- | --- |\n| c1 | 1 | 2 |\n| c2 |  | 3 |\n| c3 | 0.3 | 4 |');
  });

  it('a long chart is cut and says how much was left out; a chart without values has no table', () => {
    const grid = chartGrid(chart([series('A', Array.from({ length: CHART_TABLE_MAX_ROWS + 5 }, (_, i) => i))]))!;
    expect(grid.rows).toHaveLength(CHART_TABLE_MAX_ROWS);
    expect(chartGridMarkdown(grid).endsWith('(5 more categories not shown)')).toBe(true);
    expect(chartGrid(chart([series('A', [null, null])]))).toBeNull();
  });

  it('reads the sheet of a cell formula, quoted or not', () => {
    expect(refSheet('Data!$B$2:$B$5')).toBe('Data');
    expect(refSheet("'Q1 ''24 data'!$B$2")).toBe("Q1 '24 data");
    expect(refSheet('(Data!$B$2,Data!$B$4)')).toBe('Data');
    expect(refSheet('$B$2:$B$5')).toBeUndefined();
  });

  it('data counts as shown only when every series reads from a sheet the markdown renders', () => {
    const c = chart([series('A', [1], 'Data!$B$2'), series('B', [2], "'Other'!$C$2")]);
    expect(chartDataShown(c, new Set(['Data', 'Other']))).toBe(true);
    expect(chartDataShown(c, new Set(['Data']))).toBe(false);
    expect(chartDataShown(chart([series('A', [1])]), new Set(['Data']))).toBe(false);
  });
});
