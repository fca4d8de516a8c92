import type { Document, FigureElement } from '@quire/core';
import { reconstructCharts } from '@quire/tables';
import { BLUE, GREEN, RED, chartPdf, chartsPagePdf, diagramPdf, type ChartSpec } from '../../../tests/fixtures/charts/draw-chart.js';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { extractDocument } from './pipeline.js';

const figuresOf = (doc: Document) => doc.pages.flatMap((p) => p.elements.filter((e): e is FigureElement => e.kind === 'figure'));

async function read(spec: ChartSpec) {
  const doc = await extractDocument(await chartPdf(spec), 'pdf');
  const out = reconstructCharts(doc, 'no series');
  return { doc, out, figures: figuresOf(doc) };
}

const QUARTERS = ['Q1', 'Q2', 'Q3', 'Q4'];

/** A ruled table whose first column numbers its rows 1…8 down the page, every other row on a grey band. */
async function stripedTablePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  const top = 700, rowH = 22, left = 80, right = 520;
  for (let r = 0; r < 8; r++) {
    const y = top - (r + 1) * rowH;
    if (r % 2 === 0) page.drawRectangle({ x: left, y, width: right - left, height: rowH, color: rgb(0.85, 0.85, 0.85) });
    page.drawText(String(r + 1), { x: left + 20 - font.widthOfTextAtSize(String(r + 1), 9), y: y + 7, size: 9, font });
    page.drawText(`Item ${String.fromCharCode(65 + r)} description`, { x: left + 40, y: y + 7, size: 9, font });
    page.drawText(`${(r + 1) * 13}.50`, { x: right - 60, y: y + 7, size: 9, font });
  }
  for (let r = 0; r <= 8; r++) page.drawLine({ start: { x: left + 26, y: top - r * rowH }, end: { x: right, y: top - r * rowH }, thickness: 0.5, color: rgb(0.4, 0.4, 0.4) });
  return pdf.save();
}

describe('charts drawn in a PDF: recognised from the vector drawing and read back exactly', () => {
  test('clustered columns: type, series named from the legend by colour, categories and values', async () => {
    const { out, figures } = await read({
      kind: 'column', categories: QUARTERS, axis: { min: 0, max: 50, step: 10 }, title: 'Sales by region',
      series: [{ name: 'North', values: [12, 25.5, 40, 33], colour: BLUE }, { name: 'South', values: [8, 17.25, 22, 48], colour: RED }],
    });
    expect(figures).toHaveLength(1);
    expect(figures[0]).toMatchObject({ visualType: 'chart', classification: { model: 'quire-drawn-chart-v1' } });
    expect(out.not_converted).toEqual([]);
    const [c] = out.charts;
    expect(c.chart_type).toBe('column');
    expect(c.title).toBe('Sales by region');
    expect(c.series.map((s) => s.name)).toEqual(['North', 'South']);
    expect(c.series[0].categories).toEqual(QUARTERS);
    expect(c.series[0].values).toEqual([12, 25.5, 40, 33]);
    expect(c.series[1].values).toEqual([8, 17.25, 22, 48]);
    expect(c.exports.csv.split('\r\n')[1]).toBe('Q1,12,8');
  });

  test('data labels: a printed value agreeing with the scale is taken as printed (exact, not interpolated)', async () => {
    const spec: ChartSpec = { kind: 'column', categories: ['A', 'B', 'C'], axis: { min: 0, max: 500, step: 100 }, series: [{ name: 'Units', values: [123.45, 250, 387.125], colour: BLUE }] };
    const plain = (await read(spec)).out.charts[0].series[0];
    // without labels the drawing resolves a thousandth of the tick step: close, not as printed
    [123.45, 250, 387.125].forEach((v, i) => expect(Math.abs(plain.values[i]! - v)).toBeLessThanOrEqual(0.1));
    expect(plain.values[0]).not.toBe(123.45);
    expect(plain.interpolated).toEqual([true, true, true]); // none lies on a tick (0, 100, … 500)
    const labelled = (await read({ ...spec, dataLabels: true })).out.charts[0].series[0];
    expect(labelled.values).toEqual([123.45, 250, 387.125]);
    expect(labelled.interpolated).toEqual([false, false, false]);
  });

  test('tick labels printed with a decimal comma or a magnitude suffix: the axis is found and values are in full units', async () => {
    const comma = await read({
      kind: 'column', categories: ['Jan', 'Feb', 'Mar'], axis: { min: 0, max: 2.5, step: 0.5, format: (v) => v.toFixed(1).replace('.', ',') },
      series: [{ name: 'Rendite', values: [0.5, 1.75, 2.25], colour: BLUE }],
    });
    expect(comma.out.charts).toHaveLength(1);
    expect(comma.out.charts[0].series[0].values).toEqual([0.5, 1.75, 2.25]);
    const thousands = await read({
      kind: 'line', categories: QUARTERS, axis: { min: 0, max: 40_000, step: 10_000, format: (v) => (v ? `${v / 1000}K` : '0') },
      series: [{ name: 'Visits', values: [12_000, 25_500, 31_000, 18_250], colour: RED }],
    });
    expect(thousands.out.charts).toHaveLength(1);
    expect(thousands.out.charts[0].series[0].values).toEqual([12_000, 25_500, 31_000, 18_250]);
  });

  test('a reversed value axis (values grow down the page): columns hang from the top, categories above the plot', async () => {
    const { out } = await read({
      kind: 'column', categories: QUARTERS, axis: { min: 0, max: 50, step: 10, reversed: true },
      series: [{ name: 'North', values: [12, 25.5, 40, 33], colour: BLUE }, { name: 'South', values: [8, 17.25, 22, 48], colour: RED }],
    });
    expect(out.charts).toHaveLength(1);
    const [c] = out.charts;
    expect(c.chart_type).toBe('column');
    expect(c.series.map((s) => [s.name, s.categories, s.values])).toEqual([['North', QUARTERS, [12, 25.5, 40, 33]], ['South', QUARTERS, [8, 17.25, 22, 48]]]);
  });

  test('a reversed value axis under lines and stacked columns', async () => {
    const line = (await read({
      kind: 'line', categories: QUARTERS, axis: { min: 0, max: 100, step: 20, reversed: true },
      series: [{ name: 'Rank', values: [10, 35, 62.5, 90], colour: GREEN }],
    })).out.charts[0];
    expect(line.series[0]).toMatchObject({ name: 'Rank', categories: QUARTERS, values: [10, 35, 62.5, 90] });
    const stacked = (await read({
      kind: 'stacked', categories: ['East', 'West'], axis: { min: 0, max: 100, step: 25, reversed: true },
      series: [{ name: 'Yes', values: [40, 55], colour: BLUE }, { name: 'No', values: [35, 20], colour: RED }],
    })).out.charts[0];
    expect(stacked.chart_type).toBe('column-stacked');
    expect(stacked.series.map((s) => [s.name, s.values])).toEqual([['Yes', [40, 55]], ['No', [35, 20]]]);
  });

  test('a table with numbered rows and striped row bands is no chart, though its numbers grow down the page like a reversed axis', async () => {
    const striped = await extractDocument(await stripedTablePdf(), 'pdf');
    expect(figuresOf(striped).filter((f) => f.visualType === 'chart')).toEqual([]);
    expect(reconstructCharts(striped, 'no series').charts).toEqual([]);
  });

  test('a combination chart: columns on the left axis, a line on a secondary right-hand axis read against that axis', async () => {
    const { out } = await read({
      kind: 'column', categories: QUARTERS, axis: { min: 0, max: 500, step: 100 },
      series: [{ name: 'Revenue', values: [120, 340, 275, 410], colour: BLUE }],
      secondary: { axis: { min: 0, max: 25, step: 5, percent: true }, series: [{ name: 'Margin', values: [8, 12.5, 17, 21], colour: RED }] },
    });
    expect(out.charts).toHaveLength(1);
    const [c] = out.charts;
    expect(c.chart_type).toBe('column+line');
    expect(c.series.map((s) => [s.name, s.categories, s.values])).toEqual([['Revenue', QUARTERS, [120, 340, 275, 410]], ['Margin', QUARTERS, [8, 12.5, 17, 21]]]);
    expect(c.reading?.note).toMatch(/Margin read against the secondary/);
  });

  test('lines and areas on primary and secondary axes (no columns): the later series is read against the right-hand axis, its tick marks drawn across the line', async () => {
    for (const kind of ['line', 'area'] as const) {
      const { out } = await read({
        kind, crossTicks: true, categories: QUARTERS, axis: { min: 0, max: 6, step: 1 },
        series: [{ name: 'Small', values: [1, 4, 5, 2], colour: BLUE }],
        secondary: { axis: { min: 0, max: 400, step: 50 }, series: [{ name: 'Big', values: [200, 300, 250, 350], colour: RED }] },
      });
      expect(out.charts).toHaveLength(1);
      const [c] = out.charts;
      expect(c.chart_type).toBe(kind);
      expect(c.series.map((s) => [s.name, s.values])).toEqual([['Small', [1, 4, 5, 2]], ['Big', [200, 300, 250, 350]]]);
      expect(c.reading?.note).toMatch(/Big read against the secondary/);
    }
  });

  test('negative columns grow down from the zero line', async () => {
    const { out } = await read({
      kind: 'column', categories: ['Jan', 'Feb', 'Mar'], axis: { min: -20, max: 30, step: 10 },
      series: [{ name: 'Margin', values: [-15, 22.5, -3], colour: GREEN }],
    });
    expect(out.charts[0]).toMatchObject({ chart_type: 'column' });
    expect(out.charts[0].series[0].values).toEqual([-15, 22.5, -3]);
  });

  test('negative values with the category labels next to the zero line, over the plot: columns and horizontal bars', async () => {
    const categories = ['Mon', 'Tue', 'Wed', 'Thu'];
    const series = [{ name: 'Gain', values: [10, -20, 35, -5], colour: BLUE }, { name: 'Loss', values: [-12, 8, -30, 22], colour: RED }];
    for (const kind of ['column', 'bar'] as const) {
      const { out } = await read({ kind, labelsAtZero: true, cells: true, categories, axis: { min: -40, max: 40, step: 10 }, series });
      expect(out.charts).toHaveLength(1);
      const [c] = out.charts;
      expect(c.chart_type).toBe(kind);
      expect(c.series[0].categories).toEqual(categories);
      expect(c.series.map((s) => [s.name, s.values])).toEqual(series.map((s) => [s.name, s.values]));
    }
  });

  test('crowded columns with their category labels printed at a slant: one label per column cluster', async () => {
    const categories = Array.from({ length: 12 }, (_, i) => `Region ${i + 1}`);
    const series = [
      { name: 'A', values: categories.map((_, i) => (i * 7) % 23 + 1), colour: BLUE },
      { name: 'B', values: categories.map((_, i) => (i * 5) % 17 + 2), colour: RED },
    ];
    const { out } = await read({ kind: 'column', slantedLabels: true, categories, axis: { min: 0, max: 25, step: 5 }, series });
    expect(out.charts).toHaveLength(1);
    const [c] = out.charts;
    expect(c.series.map((s) => [s.name, s.values])).toEqual(series.map((s) => [s.name, s.values]));
    expect(c.series[0].categories).toEqual(categories);
  });

  test('stacked columns: each segment is its own value', async () => {
    const { out } = await read({
      kind: 'stacked', categories: QUARTERS, axis: { min: 0, max: 100, step: 20 },
      series: [{ name: 'Hardware', values: [20, 30, 25, 40], colour: BLUE }, { name: 'Services', values: [35, 10, 45, 20], colour: RED }, { name: 'Cloud', values: [5, 15, 20, 30], colour: GREEN }],
    });
    const [c] = out.charts;
    expect(c.chart_type).toBe('column-stacked');
    expect(c.series.map((s) => [s.name, s.values])).toEqual([['Hardware', [20, 30, 25, 40]], ['Services', [35, 10, 45, 20]], ['Cloud', [5, 15, 20, 30]]]);
  });

  test('percent-stacked columns: segments in percent of their category on a 0% … 100% axis', async () => {
    const { out } = await read({
      kind: 'stacked', categories: ['East', 'West'], axis: { min: 0, max: 100, step: 25, percent: true },
      series: [{ name: 'Yes', values: [62.5, 40], colour: BLUE }, { name: 'No', values: [37.5, 60], colour: RED }],
    });
    const [c] = out.charts;
    expect(c.chart_type).toBe('column-percent-stacked');
    expect(c.series.map((s) => [s.name, s.values])).toEqual([['Yes', [62.5, 40]], ['No', [37.5, 60]]]);
  });

  test('horizontal bars: values along the bottom axis, categories bottom to top', async () => {
    const { out } = await read({
      kind: 'bar', categories: ['Paris', 'Lyon', 'Nice'], axis: { min: 0, max: 800, step: 200 },
      series: [{ name: '2023', values: [640, 310, 155], colour: BLUE }, { name: '2024', values: [700, 290, 180], colour: RED }],
    });
    const [c] = out.charts;
    expect(c.chart_type).toBe('bar');
    expect(c.series[0].categories).toEqual(['Paris', 'Lyon', 'Nice']);
    expect(c.series.map((s) => [s.name, s.values])).toEqual([['2023', [640, 310, 155]], ['2024', [700, 290, 180]]]);
  });

  test('horizontal bars beside the worksheet\'s cells: only the label column next to the axis gives categories', async () => {
    const categories = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'];
    const series = [{ name: 'Apples', values: [1, 4, 5, 2, 3], colour: BLUE }, { name: 'Pears', values: [2, 3, 2, 3, 1], colour: RED }];
    const { out } = await read({ kind: 'bar', cells: true, categories, axis: { min: 0, max: 6, step: 1 }, series });
    expect(out.charts).toHaveLength(1);
    const [c] = out.charts;
    expect(c.chart_type).toBe('bar');
    expect(c.series[0].categories).toEqual(categories);
    expect(c.series.map((s) => s.values)).toEqual([[1, 4, 5, 2, 3], [2, 3, 2, 3, 1]]);
  });

  test('lines: a point per category, a missing point stays null, names from line keys', async () => {
    const { out } = await read({
      kind: 'line', categories: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], axis: { min: 0, max: 12, step: 2 },
      series: [{ name: 'Visits', values: [3, 7.5, null, 10, 4], colour: BLUE }, { name: 'Orders', values: [1, 2, 2.5, 6, 11], colour: RED }],
    });
    const [c] = out.charts;
    expect(c.chart_type).toBe('line');
    expect(c.series.map((s) => [s.name, s.values])).toEqual([['Visits', [3, 7.5, null, 10, 4]], ['Orders', [1, 2, 2.5, 6, 11]]]);
    expect(c.series[0].categories).toEqual(['Mon', 'Tue', 'Wed', 'Thu', 'Fri']);
  });

  test('smoothed lines: a curve sampled between the points is read at each category, not at the first vertex of its slot', async () => {
    const series = [{ name: 'Apples', values: [10, 40, 50, 20, 10], colour: BLUE }, { name: 'Pears', values: [20, 30, 25, 35, 15], colour: RED }];
    const { out } = await read({ kind: 'line', smooth: true, categories: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], axis: { min: 0, max: 60, step: 10 }, series });
    expect(out.charts).toHaveLength(1);
    expect(out.charts[0].chart_type).toBe('line');
    expect(out.charts[0].series.map((s) => s.values)).toEqual([[10, 40, 50, 20, 10], [20, 30, 25, 35, 15]]);
  });

  test('areas: the filled outline\'s top edge; stacked areas count from the series below', async () => {
    const area = (await read({
      kind: 'area', categories: ['2019', '2020', '2021', '2022'], axis: { min: 0, max: 60, step: 20 },
      series: [{ name: 'Exports', values: [20, 35, 50, 42.5], colour: GREEN }],
    })).out.charts[0];
    expect(area.chart_type).toBe('area');
    expect(area.series.map((s) => [s.name, s.categories, s.values])).toEqual([['Exports', [2019, 2020, 2021, 2022], [20, 35, 50, 42.5]]]);
    const stacked = (await read({
      kind: 'stacked-area', categories: ['A', 'B', 'C'], axis: { min: 0, max: 100, step: 25 },
      series: [{ name: 'Base', values: [30, 40, 20], colour: BLUE }, { name: 'Extra', values: [25, 10, 50], colour: RED }],
    })).out.charts[0];
    expect(stacked.chart_type).toBe('area-stacked');
    // categories on the tick marks: the outline starts at the plot's left edge and ends at its right
    const onTicks = (await read({
      kind: 'area', onTicks: true, categories: ['Mon', 'Tue', 'Wed', 'Thu'], axis: { min: 0, max: 8, step: 2 },
      series: [{ name: 'Load', values: [1, 4.5, 6, 2], colour: BLUE }],
    })).out.charts[0];
    expect(onTicks.series.map((s) => [s.categories, s.values])).toEqual([[['Mon', 'Tue', 'Wed', 'Thu'], [1, 4.5, 6, 2]]]);
    expect(stacked.series.map((s) => [s.name, s.values])).toEqual([['Base', [30, 40, 20]], ['Extra', [25, 10, 50]]]);
  });

  test('overlapping areas painted back to front: series come in the legend keys\' order', async () => {
    const series = [{ name: 'Apples', values: [10, 40, 50, 20], colour: BLUE }, { name: 'Pears', values: [20, 30, 25, 35], colour: RED }, { name: 'Plums', values: [30, 15, 40, 10], colour: GREEN }];
    const c = (await read({ kind: 'area', backToFront: true, categories: QUARTERS, axis: { min: 0, max: 60, step: 10 }, series })).out.charts[0];
    expect(c.chart_type).toBe('area');
    expect(c.series.map((s) => [s.name, s.values])).toEqual(series.map((s) => [s.name, s.values]));
  });

  test('areas on a date axis: points at their own dates between more, evenly spaced date labels are read at the outline\'s corners', async () => {
    // 1 Jan, 1 Feb, 1 Mar, 1 Apr on a day axis from 1 Jan to 1 Apr labelled every 9 days
    const days = [0, 31, 59, 90];
    const axisLabels = Array.from({ length: 11 }, (_, i) => new Date(Date.UTC(2025, 0, 1 + 9 * i)).toISOString().slice(0, 10));
    const series = [{ name: 'Load', values: [4.3, 2.5, 3.5, 4.5], colour: BLUE }, { name: 'Spare', values: [2.4, 4.4, 1.8, 2.8], colour: RED }];
    const c = (await read({ kind: 'area', categories: ['a', 'b', 'c', 'd'], pointsAt: days.map((d) => d / 90), axisLabels, axis: { min: 0, max: 5, step: 1 }, series })).out.charts[0];
    expect(c.chart_type).toBe('area');
    expect(c.series.map((s) => [s.name, s.values])).toEqual(series.map((s) => [s.name, s.values]));
    expect(c.series[0].categories).toEqual([1, 2, 3, 4]); // the dates between labels are not claimed
  });

  test('percent-stacked areas: the top series ends on the 100% line at every category', async () => {
    const c = (await read({
      kind: 'stacked-area', categories: ['A', 'B', 'C'], axis: { min: 0, max: 100, step: 25, percent: true },
      series: [{ name: 'Base', values: [30, 60, 20], colour: BLUE }, { name: 'Extra', values: [70, 40, 80], colour: RED }],
    })).out.charts[0];
    expect(c.chart_type).toBe('area-percent-stacked');
    expect(c.series.map((s) => [s.name, s.values])).toEqual([['Base', [30, 60, 20]], ['Extra', [70, 40, 80]]]);
    // the same stack on a plain axis ending below 100 stays stacked
    const plain = (await read({
      kind: 'stacked-area', categories: ['A', 'B', 'C'], axis: { min: 0, max: 100, step: 25, percent: true },
      series: [{ name: 'Base', values: [30, 40, 20], colour: BLUE }, { name: 'Extra', values: [25, 10, 50], colour: RED }],
    })).out.charts[0];
    expect(plain.chart_type).toBe('area-stacked');
  });

  test('scatter: x and y from two value axes', async () => {
    const { out } = await read({
      kind: 'scatter', categories: [], axis: { min: 0, max: 50, step: 10 }, xAxis: { min: 0, max: 10, step: 2 },
      series: [{ name: 'Samples', x: [1, 2.5, 4, 7, 9.5], values: [5, 12, 30, 41.5, 48], colour: BLUE }],
    });
    const [c] = out.charts;
    expect(c.chart_type).toBe('scatter');
    expect(c.series[0]).toMatchObject({ name: 'Samples', x_values: [1, 2.5, 4, 7, 9.5], values: [5, 12, 30, 41.5, 48] });
  });

  test('scatter series painted alike, told apart by their marker outlines, painted last series first: split by outline, named and ordered by the legend keys', async () => {
    const grey: [number, number, number] = [0.6, 0.8, 1];
    const series = [
      { name: 'Y1', values: [2, 4, 3, 8], x: [1, 2, 3, 4], colour: grey },
      { name: 'Y2', values: [5, 1, 7, 2], x: [1.5, 2.5, 3.5, 4.5], colour: grey },
      { name: 'Y3', values: [3, 6, 4, 1], x: [0.5, 2, 3, 4.25], colour: grey },
    ];
    const { out } = await read({ kind: 'scatter', outlines: true, backToFront: true, categories: [], axis: { min: 0, max: 10, step: 2 }, xAxis: { min: 0, max: 5, step: 1 }, series });
    expect(out.charts).toHaveLength(1);
    const [c] = out.charts;
    expect(c.chart_type).toBe('scatter');
    expect(c.series.map((s) => [s.name, s.x_values, s.values])).toEqual(series.map((s) => [s.name, s.x, s.values]));
  });

  test('scatter without vertical grid lines, points joined by lines: the x axis still reads from its labels', async () => {
    const { out } = await read({
      kind: 'scatter', categories: [], axis: { min: 0, max: 100, step: 25 }, xAxis: { min: 0, max: 20, step: 5, grid: false }, joined: true,
      series: [{ name: 'Run A', x: [2, 5, 11, 17.5], values: [10, 37.5, 60, 90], colour: BLUE }, { name: 'Run B', x: [1, 8, 12, 19], values: [5, 20, 55, 70], colour: RED }],
    });
    const [c] = out.charts;
    expect(c.chart_type).toBe('scatter');
    expect(c.series.map((s) => [s.name, s.x_values, s.values])).toEqual([['Run A', [2, 5, 11, 17.5], [10, 37.5, 60, 90]], ['Run B', [1, 8, 12, 19], [5, 20, 55, 70]]]);
  });

  test('bubbles: x and y from the axes, sizes relative to the largest bubble from their areas', async () => {
    const { out } = await read({
      kind: 'scatter', categories: [], axis: { min: 0, max: 100, step: 20 }, xAxis: { min: 0, max: 50, step: 10 },
      series: [{ name: 'Markets', x: [10, 25, 40], values: [30, 70, 50], sizes: [4, 16, 9], colour: GREEN }],
    });
    const [c] = out.charts;
    expect(c.chart_type).toBe('bubble');
    expect(c.series[0]).toMatchObject({ name: 'Markets', x_values: [10, 25, 40], values: [30, 70, 50] });
    c.series[0].bubble_sizes!.forEach((v, i) => expect(v).toBeCloseTo([0.25, 1, 0.5625][i], 2));
  });

  test('bubbles of one series outlined differently (arcs from another start) stay one series: round marks are not split by outline', async () => {
    const { out } = await read({
      kind: 'scatter', arcBubbles: true, categories: [], axis: { min: 0, max: 100, step: 20 }, xAxis: { min: 0, max: 50, step: 10 },
      series: [{ name: 'Markets', x: [10, 25, 40, 45], values: [30, 70, 50, 20], sizes: [4, 16, 9, 1], colour: GREEN }],
    });
    const [c] = out.charts;
    expect(c.chart_type).toBe('bubble');
    expect(c.series).toHaveLength(1);
    expect(c.series[0]).toMatchObject({ name: 'Markets', x_values: [10, 25, 40, 45], values: [30, 70, 50, 20] });
  });

  test('pie: slice shares in percent from the sector angles, categories from the legend', async () => {
    const { out } = await read({
      kind: 'pie', categories: ['Rent', 'Staff', 'Energy', 'Other'],
      series: [{ name: 'Costs', values: [40, 35, 15, 10], colour: BLUE }],
    });
    const [c] = out.charts;
    expect(c.chart_type).toBe('pie');
    expect(c.series[0].categories).toEqual(['Rent', 'Staff', 'Energy', 'Other']);
    c.series[0].values.forEach((v, i) => expect(v).toBeCloseTo([40, 35, 15, 10][i], 2));
    // the legend names the slices, not the series: untitled, it is numbered
    expect(c.series[0].name).toBe('Series 1');
  });

  test('a chart of one series the drawing names nowhere else takes its title as the series\' name (an office suite\'s automatic title)', async () => {
    const { out } = await read({
      kind: 'pie', title: 'Costs', categories: ['Rent', 'Staff', 'Energy', 'Other'],
      series: [{ name: 'Costs', values: [40, 35, 15, 10], colour: BLUE }],
    });
    expect(out.charts.map((c) => [c.title, c.series.map((s) => s.name)])).toEqual([['Costs', ['Costs']]]);
    // series named in a legend keep the legend's names, whatever the title
    const named = (await read({ kind: 'column', title: 'Sales', categories: QUARTERS, axis: { min: 0, max: 60, step: 10 }, series: [{ name: 'North', values: [10, 25, 20, 40], colour: BLUE }] })).out.charts;
    expect(named.map((c) => [c.title, c.series.map((s) => s.name)])).toEqual([['Sales', ['North']]]);
  });

  test('exploded pie: slices pulled out from the centre, each around its own apex, still one pie', async () => {
    const { out } = await read({
      kind: 'pie', explode: 14, categories: ['Rent', 'Staff', 'Energy', 'Other'],
      series: [{ name: 'Costs', values: [40, 35, 15, 10], colour: BLUE }],
    });
    expect(out.charts).toHaveLength(1);
    const [c] = out.charts;
    expect(c.chart_type).toBe('pie');
    expect(c.series[0].categories).toEqual(['Rent', 'Staff', 'Energy', 'Other']);
    c.series[0].values.forEach((v, i) => expect(v).toBeCloseTo([40, 35, 15, 10][i], 2));
  });

  test('doughnut: ring segments\' shares from the angles they span', async () => {
    const { out } = await read({
      kind: 'doughnut', categories: ['Web', 'Shop', 'Phone'],
      series: [{ name: 'Orders', values: [50, 30, 20], colour: BLUE }],
    });
    const [c] = out.charts;
    expect(c.chart_type).toBe('doughnut');
    expect(c.series[0].categories).toEqual(['Web', 'Shop', 'Phone']);
    c.series[0].values.forEach((v, i) => expect(v).toBeCloseTo([50, 30, 20][i], 1));
    // the same ring with its arcs flattened into straight edges
    const flat = (await read({ kind: 'doughnut', flatArcs: true, categories: ['Web', 'Shop', 'Phone'], series: [{ name: 'Orders', values: [50, 30, 20], colour: BLUE }] })).out.charts[0];
    expect(flat.chart_type).toBe('doughnut');
    flat.series[0].values.forEach((v, i) => expect(v).toBeCloseTo([50, 30, 20][i], 1));
  });

  test('gradient fills (outline as clipping path, arcs flattened, then a shading): pies, doughnuts, areas, columns and bubbles are read as if flat', async () => {
    const shares = [40, 35, 15, 10], cats = ['Rent', 'Staff', 'Energy', 'Other'];
    for (const gradient of ['series', 'one'] as const) {
      const pie = (await read({ kind: 'pie', gradient, categories: cats, series: [{ name: 'Costs', values: shares, colour: BLUE }] })).out.charts;
      expect([gradient, pie.map((c) => c.chart_type)]).toEqual([gradient, ['pie']]);
      // one gradient for all: the legend keys, painted alike, still name the slices in order
      expect(pie[0].series[0].categories).toEqual(cats);
      pie[0].series[0].values.forEach((v, i) => expect(v).toBeCloseTo(shares[i], 1));
    }
    const ring = (await read({ kind: 'doughnut', gradient: 'series', categories: ['Web', 'Shop', 'Phone'], series: [{ name: 'Orders', values: [50, 30, 20], colour: BLUE }] })).out.charts;
    expect(ring.map((c) => c.chart_type)).toEqual(['doughnut']);
    ring[0].series[0].values.forEach((v, i) => expect(v).toBeCloseTo([50, 30, 20][i], 1));
    const series = [{ name: 'North', values: [10, 25, 20, 40], colour: BLUE }, { name: 'South', values: [5, 10, 15, 10], colour: RED }];
    const area = (await read({ kind: 'stacked-area', gradient: 'series', categories: QUARTERS, axis: { min: 0, max: 60, step: 10 }, series })).out.charts;
    expect(area.map((c) => c.chart_type)).toEqual(['area-stacked']);
    expect(area[0].series.map((s) => [s.name, s.values])).toEqual(series.map((s) => [s.name, s.values]));
    // a chart-area background painted the same way (a gradient through an outline around the whole chart) is no area series
    const behind = (await read({ kind: 'area', gradientBackground: true, categories: QUARTERS, axis: { min: 0, max: 60, step: 10 }, series })).out.charts;
    expect(behind.map((c) => [c.chart_type, c.series.map((s) => [s.name, s.values])])).toEqual([['area', series.map((s) => [s.name, s.values])]]);
    const columns = (await read({ kind: 'column', gradient: 'series', categories: QUARTERS, axis: { min: 0, max: 60, step: 10 }, series })).out.charts;
    expect(columns.map((c) => c.chart_type)).toEqual(['column']);
    // each series' gradient is its colour: bars and legend keys painted alike are matched by it
    expect(columns[0].series.map((s) => [s.name, s.values])).toEqual(series.map((s) => [s.name, s.values]));
    const bubbles = (await read({
      kind: 'scatter', gradient: 'series', axis: { min: 0, max: 100, step: 20 }, xAxis: { min: 0, max: 50, step: 10 },
      categories: [], series: [{ name: 'Markets', x: [10, 25, 40, 45], values: [30, 70, 50, 20], sizes: [4, 9, 1, 16], colour: BLUE }],
    })).out.charts;
    expect(bubbles.map((c) => c.chart_type)).toEqual(['bubble']);
    expect(bubbles[0].series[0]).toMatchObject({ name: 'Markets', x_values: [10, 25, 40, 45], values: [30, 70, 50, 20] });
  });

  test('log value axis: bars read through powers of ten', async () => {
    const { out } = await read({
      kind: 'column', categories: ['A', 'B', 'C'], axis: { min: 1, max: 10000, step: 10, log: true },
      series: [{ name: 'Count', values: [10, 250, 5000], colour: BLUE }],
    });
    const [c] = out.charts;
    expect(c.chart_type).toBe('column');
    expect(c.series[0].values).toEqual([10, 250, 5000]);
  });

  test('two charts on one page, side by side or one above the other: each keeps its own legend keys and grid lines', async () => {
    const series = [{ name: 'Apples', values: [10, 40, 50, 20], colour: BLUE }, { name: 'Pears', values: [20, 30, 25, 35], colour: RED }];
    const other = [{ name: 'Figs', values: [5, 15, 45, 30], colour: BLUE }, { name: 'Kiwis', values: [25, 10, 35, 55], colour: GREEN }];
    const axis = { min: 0, max: 60, step: 10 };
    const layouts = {
      'side by side': [{ left: 50, right: 230, top: 160, bottom: 340 }, { left: 350, right: 500, top: 160, bottom: 340 }],
      'one above the other': [{ left: 110, right: 410, top: 120, bottom: 300 }, { left: 110, right: 410, top: 370, bottom: 550 }],
    };
    for (const [layout, [first, second]] of Object.entries(layouts)) {
      const doc = await extractDocument(await chartsPagePdf(
        { kind: 'column', plot: first, categories: QUARTERS, axis, series },
        { kind: 'area', plot: second, categories: QUARTERS, axis, series: other },
      ), 'pdf');
      const { charts } = reconstructCharts(doc, 'no series');
      expect([layout, charts.map((c) => c.chart_type)]).toEqual([layout, ['column', 'area']]);
      expect(charts.map((c) => c.series.map((s) => [s.name, s.values]))).toEqual([series.map((s) => [s.name, s.values]), other.map((s) => [s.name, s.values])]);
    }
  });

  test('a vector diagram that is no chart stays an image', async () => {
    const doc = await extractDocument(await diagramPdf(), 'pdf');
    const figures = figuresOf(doc);
    expect(figures.length).toBeGreaterThan(0);
    expect(figures.every((f) => f.visualType === 'image' && !f.chart)).toBe(true);
    expect(reconstructCharts(doc, 'no series').charts).toEqual([]);
  });
});
