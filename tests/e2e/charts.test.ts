import { startTestServer, formWith, pollJob, type TestServer } from '../support/embedded.js';
import { makeXlsx, XLSX_CHARTS } from '../fixtures/office/make-xlsx.js';
import { makePptx, PPTX_CHART } from '../fixtures/office/make-pptx.js';
import { makeTableKindsPdf } from '../fixtures/tables/pdf-tables.js';
import { BLUE, RED, chartPdf } from '../fixtures/charts/draw-chart.js';

async function extract(t: TestServer, bytes: Uint8Array, name: string): Promise<string> {
  const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes, name }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { extraction_id: string }).extraction_id;
}
const post = (t: TestServer, body: unknown) =>
  t.api('/charts', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

describe('embedded: POST /charts', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer(); });
  afterAll(() => t.close());

  it('reconstructs spreadsheet charts from their cached series: type, title, series with cell ranges, anchor, CSV; 1 credit per chart', async () => {
    const id = await extract(t, await makeXlsx(), 'book.xlsx');
    const res = await post(t, { extraction_id: id });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.charts_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.extraction_id).toBe(id);
    expect(body.not_converted).toEqual([]);
    expect(body.charts.length).toBe(3);
    expect(body.credits_used).toBe(3);
    const line = body.charts.find((c: any) => c.chart_type === 'line');
    expect(line.title).toBe('Units sold');
    expect(line.series).toEqual([{
      name: 'Units', plot_type: 'line', categories: XLSX_CHARTS.line[0].cats, values: XLSX_CHARTS.line[0].vals,
      source_ranges: { name: 'Data!$B$1', categories: 'Data!$A$2:$A$4', values: 'Data!$B$2:$B$4' },
    }]);
    expect(line.source).toMatchObject({ bounding_box: [], sheet_name: 'Data', source_ranges: ['Data!$B$1', 'Data!$A$2:$A$4', 'Data!$B$2:$B$4'] });
    expect(line.source.excel_range).toMatch(/^[A-Z]+\d+:[A-Z]+\d+$/);
    expect(line.axes.x.title).toBe('Quarter');
    expect(line.exports.csv).toBe('Quarter,Units\r\nWidget,10\r\nGadget,20\r\nGizmo,30\r\n');
    const bar = body.charts.find((c: any) => c.chart_type === 'bar');
    expect(bar.series.map((s: any) => s.name)).toEqual(['Units', 'Price']);
    expect(bar.exports.csv.split('\r\n')[1]).toBe('Widget,10,2.5');
  });

  it('pptx charts carry a page polygon; async returns charts_id; documents without charts cost nothing', async () => {
    const id = await extract(t, await makePptx(), 'deck.pptx');
    const acc = await post(t, { extraction_id: id, async: true });
    expect(acc.status).toBe(202);
    const accBody = (await acc.json()) as any;
    expect(accBody.charts_id).toBe(accBody.job_id);
    const job = (await pollJob(t, accBody.job_id)) as any;
    expect(job.status).toBe('completed');
    const [chart] = job.result.charts;
    expect(chart.series.map((s: any) => [s.name, s.values])).toEqual(PPTX_CHART.series.map((s) => [s.name, s.vals]));
    expect(chart.source.bounding_box).toHaveLength(8);
    expect(chart.source.bounding_box.every((n: number) => n >= 0 && n <= 1)).toBe(true);

    const plain = (await (await post(t, { extraction_id: await extract(t, await makeTableKindsPdf(), 'kinds.pdf') })).json()) as any;
    expect(plain).toMatchObject({ charts: [], credits_used: 0 });
  });

  it('reads a bar chart drawn as vectors in a PDF without a model: series, reading, XLSX exports; 1 credit', async () => {
    const pdf = await chartPdf({ kind: 'column', categories: ['Q1', 'Q2', 'Q3'], axis: { min: 0, max: 40, step: 10 },
      series: [{ name: 'North', values: [12, 25.5, 40], colour: BLUE }, { name: 'South', values: [8, 17.25, 22], colour: RED }] });
    const res = await post(t, { extraction_id: await extract(t, pdf, 'report.pdf') });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.not_converted).toEqual([]);
    expect(body.credits_used).toBe(1);
    const [chart] = body.charts;
    expect(chart.chart_type).toBe('column');
    expect(chart.series.map((s: any) => [s.name, s.categories, s.values])).toEqual([['North', ['Q1', 'Q2', 'Q3'], [12, 25.5, 40]], ['South', ['Q1', 'Q2', 'Q3'], [8, 17.25, 22]]]);
    expect(chart.series[0].mark_boxes).toHaveLength(3);
    expect(chart.reading).toMatchObject({ value_scale: 'linear' });
    expect(chart.source.bounding_box).toHaveLength(8);
    const xlsx = Buffer.from(chart.exports.xlsx, 'base64');
    expect(xlsx.subarray(0, 2).toString()).toBe('PK');
    expect(body.exports.csv.split('\r\n')[1]).toBe(`${chart.id},1,column,North,Q1,,12`);
    expect(Buffer.from(body.exports.xlsx, 'base64').subarray(0, 2).toString()).toBe('PK');
  });

  it('answers 400 for a missing extraction_id and 404 for an unknown one', async () => {
    const missing = await post(t, {});
    expect(missing.status).toBe(400);
    const unknown = await post(t, { extraction_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as any).error.code).toBe('STORAGE_002');
  });
});
