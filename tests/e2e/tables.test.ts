import { startChatServer } from '../support/chat-server.js';
import { startTestServer, formWith, pollJob, type TestServer } from '../support/embedded.js';
import { LINE_CHART, makeLineChartPdf, makeRasterLineChartPdf, makeSplitTablePdf, makeTableKindsPdf } from '../fixtures/tables/pdf-tables.js';
import { makeXlsx, XLSX_CHARTS } from '../fixtures/office/make-xlsx.js';

async function extract(t: TestServer, bytes: Uint8Array, name: string): Promise<string> {
  const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes, name }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { extraction_id: string }).extraction_id;
}
const post = (t: TestServer, body: unknown, key?: string) =>
  t.api('/tables', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, ...(key ? { key } : {}) });

describe('embedded: POST /tables', () => {
  let t: TestServer;
  let kinds: string, split: string;
  beforeAll(async () => {
    t = await startTestServer();
    kinds = await extract(t, await makeTableKindsPdf(), 'kinds.pdf');
    split = await extract(t, await makeSplitTablePdf({ repeatHeader: true }), 'split.pdf');
  });
  afterAll(() => t.close());

  it('returns every table as HTML with header structure, citations and 0.25 credits per table', async () => {
    const res = await post(t, { extraction_id: kinds });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.tables_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.tables_output.tables).toHaveLength(3);
    const [ruled] = body.tables_output.tables;
    expect(ruled.citations).toEqual(['tbl-1']);
    expect(ruled.from_chart).toBe(false);
    expect(ruled.table_content).toContain('<thead>');
    expect(ruled.table_content).toMatch(/<th scope="colgroup" colspan="2"[^>]*>2023<\/th>/);
    expect(ruled.table_content).toMatch(/<th scope="col" rowspan="2"[^>]*>Region<\/th>/);
    expect(ruled.table_content).toMatch(/<th scope="row"[^>]*>North<\/th>/);
    expect(body.credits_used).toBe(0.75);
  });

  it('json format gives header paths and typed cells', async () => {
    const res = await post(t, { extraction_id: kinds, tables_config: { table_format: 'json' } });
    const body = (await res.json()) as any;
    const tbl = body.tables_output.tables[0].table_content;
    expect(tbl.columns.map((c: any) => c.path)).toEqual([['Region'], ['2023', 'Q1'], ['2023', 'Q2'], ['2024', 'Q1'], ['2024', 'Q2']]);
    expect(tbl.rows[0].values).toEqual(['North', 1200, -35.5, 1410, 12]);
    expect(tbl.rows[0].cells[4]).toMatchObject({ text: '12 %', type: 'percent', value: 12, unit: '%' });
    expect(tbl.rows.at(-1).role).toBe('total');
  });

  it('merges a table split across pages when asked, at 0.5 credits per table', async () => {
    const plain = (await (await post(t, { extraction_id: split })).json()) as any;
    expect(plain.tables_output.tables).toHaveLength(2);
    const res = await post(t, { extraction_id: split, tables_config: { merge: true, table_format: 'json' } });
    const body = (await res.json()) as any;
    expect(body.tables_output.tables).toHaveLength(1);
    const merged = body.tables_output.tables[0];
    expect(merged.citations).toEqual(['tbl-1', 'tbl-2']);
    expect(merged.table_content.rows).toHaveLength(39);
    expect(body.tables_output.merges[0]).toMatchObject({ from: 'tbl-1', to: 'tbl-2', merged: true, droppedHeaderRows: 1 });
    expect(body.credits_used).toBe(0.5);
    const html = (await (await post(t, { extraction_id: split, tables_config: { merge: true } })).json()) as any;
    expect(html.tables_output.tables[0].table_content).toMatch(/<table data-bb-table-id="tbl-1" data-merged-from="tbl-1,tbl-2">/);
  });

  it('converts spreadsheet charts from their cached series with charts_to_tables', async () => {
    const id = await extract(t, await makeXlsx(), 'book.xlsx');
    const res = await post(t, { extraction_id: id, tables_config: { charts_to_tables: true, table_format: 'json' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    const charts = body.tables_output.tables.filter((x: any) => x.from_chart);
    expect(charts.length).toBeGreaterThanOrEqual(3);
    const bar = charts.find((c: any) => c.table_content.columns.length === 3)!.table_content;
    expect(bar.columns.slice(1).map((c: any) => c.name)).toEqual(['Units', 'Price']);
    expect(bar.rows.map((r: any) => r.values)).toEqual(XLSX_CHARTS.bar[0].cats.map((cat, i) => [cat, XLSX_CHARTS.bar[0].vals[i], XLSX_CHARTS.bar[1].vals[i]]));
    const tables = body.tables_output.tables.length - charts.length;
    expect(body.credits_used).toBe(tables * 0.25 + charts.length);
  });

  it('converts a chart drawn as vectors in a PDF from its drawing, without a model: from_chart table at 1 credit', async () => {
    const id = await extract(t, await makeLineChartPdf(), 'chart.pdf');
    const body = (await (await post(t, { extraction_id: id, tables_config: { charts_to_tables: true, table_format: 'json' } })).json()) as any;
    const charts = body.tables_output.tables.filter((x: any) => x.from_chart);
    expect(charts).toHaveLength(1);
    expect(charts[0].table_content.columns.map((c: any) => c.name)).toEqual(['Category', 'North site', 'South site']);
    expect(charts[0].table_content.rows.map((r: any) => r.values)).toEqual(LINE_CHART.categories.map((c, i) => [c, LINE_CHART.series[0].values[i], LINE_CHART.series[1].values[i]]));
    expect(body.tables_output.charts_not_converted).toBeUndefined();
    expect(body.credits_used).toBe(0.25 * (body.tables_output.tables.length - 1) + 1);
  });

  it('names the raster PDF charts it could not convert when no chart-reading model is configured', async () => {
    const id = await extract(t, await makeRasterLineChartPdf(), 'chart.pdf');
    const body = (await (await post(t, { extraction_id: id, tables_config: { charts_to_tables: true } })).json()) as any;
    expect(body.tables_output.tables.filter((x: any) => x.from_chart)).toHaveLength(0);
    expect(body.tables_output.charts_not_converted).toEqual([{ id: 'fig-1', page: 1, reason: expect.stringMatching(/no chart-reading vision model is configured/) }]);
    expect(body.credits_used).toBe(0.25 * body.tables_output.tables.length);
  });

  it('reads raster PDF charts with the configured vision model (QUIRE_LLM_VISION_MODEL): from_chart tables at 1 credit per chart', async () => {
    // a chart reader's answer: the chart's months and both series (estimates off the picture, here exact)
    const llm = await startChatServer(() => JSON.stringify({
      chart_type: 'line', title: 'Visitors by month', x_axis_title: 'Month', y_axis_title: null,
      categories: LINE_CHART.categories, series: LINE_CHART.series,
    }));
    const asked = llm.requests;
    const t2 = await startTestServer({ QUIRE_LLM_BASE_URL: llm.baseUrl, QUIRE_LLM_MODEL: 'text-model', QUIRE_LLM_VISION_MODEL: 'eyes' });
    try {
      const id = await extract(t2, await makeRasterLineChartPdf(), 'chart.pdf');
      const res = await post(t2, { extraction_id: id, tables_config: { charts_to_tables: true, table_format: 'json' } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as any;
      expect(asked).toHaveLength(1);
      expect(asked[0].model).toBe('eyes');
      const parts = asked[0].messages[1].content as any[];
      expect(parts.find((p) => p.type === 'image_url').image_url.url).toMatch(/^data:image\/png;base64,/);
      expect(parts.find((p) => p.type === 'text').text).toContain('Figure 1: Monthly visitors');
      const charts = body.tables_output.tables.filter((x: any) => x.from_chart);
      expect(charts).toHaveLength(1);
      const table = charts[0].table_content;
      expect(charts[0].citations).toEqual(['fig-1']);
      expect(table.chart_read_by).toBe('openai:text-model');
      expect(table.columns.map((c: any) => c.name)).toEqual(['Month', 'North site', 'South site']);
      expect(table.rows.map((r: any) => r.values)).toEqual(LINE_CHART.categories.map((c, i) => [c, LINE_CHART.series[0].values[i], LINE_CHART.series[1].values[i]]));
      expect(body.tables_output.charts_not_converted).toBeUndefined();
      expect(body.credits_used).toBe(0.25 * (body.tables_output.tables.length - 1) + 1);
      // /charts reads it the same way
      const charted = (await (await t2.api('/charts', { method: 'POST', body: JSON.stringify({ extraction_id: id }), headers: { 'content-type': 'application/json' } })).json()) as any;
      expect(charted.charts.map((c: any) => [c.id, c.chart_type, c.read_by, c.series.map((s: any) => s.values)])).toEqual([['fig-1', 'line', 'openai:text-model', LINE_CHART.series.map((s) => s.values)]]);
      expect(charted.not_converted).toEqual([]);
    } finally {
      await t2.close();
      await llm.close();
    }
  });

  it('runs asynchronously and the tables_id cannot be used as an extraction_id', async () => {
    const res = await post(t, { extraction_id: kinds, async: true });
    expect(res.status).toBe(202);
    const accepted = (await res.json()) as any;
    expect(accepted.tables_id).toBe(accepted.job_id);
    const job = await pollJob(t, accepted.job_id);
    expect(job.status).toBe('completed');
    expect((job.result as any).tables_output.tables).toHaveLength(3);
    const chained = await post(t, { extraction_id: accepted.tables_id });
    expect(chained.status).toBe(404);
    expect(((await chained.json()) as any).error.code).toBe('STORAGE_002');
  });

  it('refuses bad requests and orgs without the flag', async () => {
    const missing = await post(t, { tables_config: { merge: true } });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as any).error.code).toBe('REQ_004');
    const bad = await post(t, { extraction_id: kinds, tables_config: { table_format: 'xml' } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.code).toBe('REQ_003');
    const unknown = await post(t, { extraction_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    const store = t.server.ctx.store;
    const org = await store.orgs.create({ name: 'no-tables' });
    const { key } = await store.keys.create(org.id);
    const denied = await post(t, { extraction_id: kinds }, key);
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as any).error.code).toBe('AUTH_004');
    await store.orgs.setFlags(org.id, { tables_endpoint: true });
    const foreign = await post(t, { extraction_id: kinds }, key);
    expect(foreign.status).toBe(404);
  });
});
