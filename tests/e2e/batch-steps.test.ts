import { startTestServer, pollJob, SAMPLE_HTML, type TestServer } from '../support/embedded.js';

const FIRST_HTML = `<!doctype html><html><body><main><h1>Quarterly report</h1><p>Reference code: QR-2024-17</p><p>Revenue grew in every region.</p>
<table><thead><tr><th>Region</th><th>Revenue</th></tr></thead><tbody><tr><td>North</td><td>1,200</td></tr><tr><td>South</td><td>900</td></tr></tbody></table></main></body></html>`;
const OTHER_HTML = `<!doctype html><html><body><main><h1>Annual summary</h1><p>Reference code: AS-2023-04</p><p>Costs fell in the West region.</p>
<table><thead><tr><th>Region</th><th>Cost</th></tr></thead><tbody><tr><td>West</td><td>300</td></tr></tbody></table></main></body></html>`;

function batchForm(files: { text: string; name: string }[]): FormData {
  const fd = new FormData();
  for (const f of files) fd.append('files', new Blob([f.text]), f.name);
  return fd;
}
const postJson = (t: TestServer, path: string, body: unknown) =>
  t.api(path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
const countJobs = async (t: TestServer) => (await t.server.ctx.store.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs')).rows[0].n;
const schemaConfig = { input_schema: { type: 'object', properties: { reference_code: { type: 'string', description: 'Reference code' } } } };

describe('embedded: POST /batch/schema, /batch/tables, /batch/split', () => {
  let t: TestServer;
  let batchId: string;
  let extractionIds: string[];
  beforeAll(async () => {
    t = await startTestServer();
    const res = await t.api('/batch/extract', { method: 'POST', body: batchForm([{ text: FIRST_HTML, name: 'q.html' }, { text: OTHER_HTML, name: 'a.html' }]) });
    const acc = (await res.json()) as any;
    batchId = acc.job_id;
    extractionIds = acc.children.map((c: any) => c.extraction_id);
    expect(((await pollJob(t, batchId)) as any).result.completed).toBe(2);
  }, 60_000);
  afterAll(() => t.close());

  it('/batch/tables over a batch-extract parent: one tables child per completed extraction, summary with tables_id', async () => {
    const res = await postJson(t, '/batch/tables', { batch_id: batchId, tables_config: { table_format: 'json' } });
    expect(res.status).toBe(202);
    const acc = (await res.json()) as any;
    expect(acc.children.map((c: any) => c.extraction_id)).toEqual(extractionIds);
    expect(acc.children.every((c: any) => c.tables_id === c.job_id)).toBe(true);
    const parent = (await pollJob(t, acc.job_id)) as any;
    expect(parent).toMatchObject({ status: 'completed', kind: 'batch_tables' });
    expect(parent.result).toMatchObject({ total: 2, completed: 2, failed: 0, credits_used: 0.5 });
    expect(parent.result.results.map((r: any) => r.tables_id)).toEqual(acc.children.map((c: any) => c.job_id));
    const child = (await (await t.api(`/job/${acc.children[1].job_id}`)).json()) as any;
    expect(child.result.tables_output.tables[0].table_content.rows[0].values).toEqual(['West', 300]);
  }, 30_000);

  it('/batch/split with extraction_ids, then /batch/schema over the splits (split mode) and over the extractions', async () => {
    const split = await postJson(t, '/batch/split', { extraction_ids: extractionIds, split_config: { split_input: [{ name: 'report', description: 'Any report' }] } });
    expect(split.status).toBe(202);
    const sAcc = (await split.json()) as any;
    const sParent = (await pollJob(t, sAcc.job_id)) as any;
    expect(sParent).toMatchObject({ status: 'completed', kind: 'batch_split' });
    expect(sParent.result).toMatchObject({ completed: 2, credits_used: 4 }); // 2 credits per page, one page each
    const splitIds = sParent.result.results.map((r: any) => r.split_id);

    const bySplit = await postJson(t, '/batch/schema', { split_ids: splitIds, split_schema_config: { report: { schema: schemaConfig.input_schema } } });
    expect(bySplit.status).toBe(202);
    const bsAcc = (await bySplit.json()) as any;
    expect(bsAcc.children.map((c: any) => c.split_id)).toEqual(splitIds);
    expect(((await pollJob(t, bsAcc.job_id)) as any).result).toMatchObject({ completed: 2, failed: 0 });

    const byExtraction = await postJson(t, '/batch/schema', { extraction_ids: extractionIds, schema_config: schemaConfig });
    const beAcc = (await byExtraction.json()) as any;
    const parent = (await pollJob(t, beAcc.job_id)) as any;
    expect(parent).toMatchObject({ status: 'completed', kind: 'batch_schema' });
    expect(parent.result).toMatchObject({ completed: 2, credits_used: 2 });
    const titles = [];
    for (const r of parent.result.results) {
      const rec = (await (await t.api(`/schema/${r.schema_id}`)).json()) as any;
      expect(rec.extraction_ids ?? [r.extraction_id]).toEqual([r.extraction_id]);
      titles.push(String(rec.schema_output.values.reference_code));
    }
    expect(titles[0]).toBe('QR-2024-17');
    expect(titles[1]).toBe('AS-2023-04');
  }, 60_000);

  it('/schema with a batch-extract parent as extraction_id combines its completed children', async () => {
    const res = await postJson(t, '/schema', { extraction_id: batchId, schema_config: schemaConfig });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.extraction_ids).toEqual(extractionIds);
    expect(body.credits_used).toBe(2);
  }, 30_000);

  it('validates every item first with the single-item codes, naming the item, and creates no job', async () => {
    const before = await countJobs(t);
    const unknown = await postJson(t, '/batch/tables', { extraction_ids: [extractionIds[0], '00000000-0000-4000-8000-000000000000'] });
    expect(unknown.status).toBe(404);
    const ue = ((await unknown.json()) as any).error;
    expect(ue.code).toBe('STORAGE_002');
    expect(ue.message).toContain('extraction_ids[1]');
    const badSchema = await postJson(t, '/batch/schema', { extraction_ids: extractionIds, schema_config: { input_schema: { type: 'object', properties: { a: { type: 'strin' } } } } });
    expect(badSchema.status).toBe(400);
    expect(((await badSchema.json()) as any).error.code).toMatch(/^SCHEMA_00/);
    const dupTopics = await postJson(t, '/batch/split', { extraction_ids: extractionIds, split_config: { split_input: [{ name: 'x' }, { name: 'x' }] } });
    expect(((await dupTopics.json()) as any).error.code).toBe('REQ_003');
    const both = await postJson(t, '/batch/tables', { extraction_ids: extractionIds, batch_id: batchId });
    expect(((await both.json()) as any).error.code).toBe('REQ_003');
    const none = await postJson(t, '/batch/split', { split_config: { split_input: [{ name: 'x' }] } });
    expect(((await none.json()) as any).error.code).toBe('REQ_004');
    const notBatch = await postJson(t, '/batch/tables', { batch_id: extractionIds[0] });
    expect(notBatch.status).toBe(404);
    const tooMany = await postJson(t, '/batch/tables', { extraction_ids: Array.from({ length: 51 }, (_, i) => `id-${i}`) });
    expect(((await tooMany.json()) as any).error.code).toBe('REQ_003');
    expect(await countJobs(t)).toBe(before);
  });
});

describe('embedded: a batch that is still running', () => {
  it('cannot be used as batch_id or as /schema extraction_id yet (409 JOB_004)', async () => {
    const t = await startTestServer({}, { startWorkers: false });
    try {
      const acc = (await (await t.api('/batch/extract', { method: 'POST', body: batchForm([{ text: SAMPLE_HTML, name: 'a.html' }]) })).json()) as any;
      const res = await postJson(t, '/batch/tables', { batch_id: acc.job_id });
      expect(res.status).toBe(409);
      expect(((await res.json()) as any).error.code).toBe('JOB_004');
      const schema = await postJson(t, '/schema', { extraction_id: acc.job_id, schema_config: schemaConfig });
      expect(((await schema.json()) as any).error.code).toBe('JOB_004');
    } finally {
      await t.close();
    }
  });
});
