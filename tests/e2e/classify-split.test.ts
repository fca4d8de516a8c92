import { startTestServer, formWith, pollJob, type TestServer } from '../support/embedded.js';
import { makeContractPdf, makePacketPdf, PACKET_PARTS, PACKET_TOPICS } from '../fixtures/pdf/packet.js';

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('embedded: /split, /classify and /pipelines', () => {
  let t: TestServer;
  let packet: Uint8Array;
  let contract: Uint8Array;
  let extractionId: string;
  beforeAll(async () => {
    t = await startTestServer();
    [packet, contract] = await Promise.all([makePacketPdf(), makeContractPdf()]);
    const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes: packet, name: 'packet.pdf' }) });
    expect(res.status).toBe(200);
    extractionId = ((await res.json()) as any).extraction_id;
  });
  afterAll(() => t.close());

  async function otherOrgKey(name: string): Promise<string> {
    const org = await t.server.ctx.store.orgs.create({ name });
    return (await t.server.ctx.store.keys.create(org.id)).key;
  }

  it('documents the routes in the OpenAPI document', async () => {
    const oas = (await (await t.api('/openapi.json', { key: null })).json()) as any;
    expect(oas.paths['/classify'].post.requestBody.content['multipart/form-data']).toBeDefined();
    expect(oas.paths['/split'].post.responses['200'].content['application/json'].schema).toBeDefined();
    expect(JSON.stringify(oas)).toContain('unassigned_pages');
    expect(Object.keys(oas.paths['/pipelines/{id}']).sort()).toEqual(['delete', 'get', 'patch', 'put']);
  });

  describe('/split', () => {
    it('splits a three-document packet into per-topic page groups and saves the split', async () => {
      const res = await t.api('/split', json({ extraction_id: extractionId, split_config: { split_input: PACKET_TOPICS } }));
      expect(res.status).toBe(200);
      const body = (await res.json()) as any;
      expect(body.split_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(body.splits.map((s: any) => [s.name, s.pages])).toEqual(PACKET_PARTS.map((p) => [p.topic, [...p.pages]]));
      for (const s of body.splits) {
        expect(s.confidence).toBeGreaterThan(0.5);
        expect(s.confidence).toBeLessThanOrEqual(1);
        expect(s.documents).toHaveLength(1);
      }
      expect(body.unassigned_pages).toEqual([]);
      expect(body.credits_used).toBe(14); // 2 per page, 7 pages
      expect(body.model).toBe('builtin');
      const org = (await t.server.ctx.store.jobs.get(body.split_id))!.org_id;
      const artifact = await t.server.ctx.store.artifacts.getForOrg(org, 'split', body.split_id);
      expect(artifact?.parent_id).toBe(extractionId);
      expect(artifact?.data).toMatchObject({ extraction_id: extractionId, groups: PACKET_PARTS.map((p) => ({ topic: p.topic, pages: [...p.pages] })) });
    });

    it('runs asynchronously: 202 with split_id, result by polling', async () => {
      const res = await t.api('/split', json({ extraction_id: extractionId, split_config: { split_input: PACKET_TOPICS }, async: true }));
      expect(res.status).toBe(202);
      const acc = (await res.json()) as any;
      expect(acc.split_id).toBe(acc.job_id);
      const job = (await pollJob(t, acc.job_id)) as any;
      expect(job.status).toBe('completed');
      expect(job.result.splits[0].pages).toEqual([1, 2]);
    });

    it('validates its input', async () => {
      const cases: [unknown, number, string][] = [
        [{ split_config: { split_input: PACKET_TOPICS } }, 400, 'REQ_004'],
        [{ extraction_id: extractionId }, 400, 'REQ_004'],
        [{ extraction_id: extractionId, split_config: {} }, 400, 'REQ_004'],
        [{ extraction_id: extractionId, split_config: { split_input: [] } }, 400, 'REQ_003'],
        [{ extraction_id: extractionId, split_config: { split_input: [{ description: 'no name' }] } }, 400, 'REQ_004'],
        [{ extraction_id: extractionId, split_config: { split_input: [{ name: 'a' }, { name: 'a' }] } }, 400, 'REQ_003'],
        [{ extraction_id: extractionId, split_config: { split_input: 'invoice' } }, 400, 'REQ_003'],
        [{ extraction_id: '6f1c1c52-5a0c-4f0e-9a7e-3c1e6f1d2b3a', split_config: { split_input: PACKET_TOPICS } }, 404, 'STORAGE_002'],
      ];
      for (const [body, status, code] of cases) {
        const res = await t.api('/split', json(body));
        expect([JSON.stringify(body), res.status, ((await res.json()) as any).error.code]).toEqual([JSON.stringify(body), status, code]);
      }
    });

    it("another organization cannot split this organization's extraction", async () => {
      const key = await otherOrgKey('split-intruder');
      const res = await t.api('/split', { ...json({ extraction_id: extractionId, split_config: { split_input: PACKET_TOPICS } }), key });
      expect(res.status).toBe(404);
      expect(((await res.json()) as any).error.code).toBe('STORAGE_002');
    });
  });

  describe('/pipelines', () => {
    it('create, list, get, patch, put, delete', async () => {
      const key = await otherOrgKey('crud');
      const create = await t.api('/pipelines', { ...json({ name: 'invoices', description: 'Supplier invoices', keywords: ['invoice'] }), key });
      expect(create.status).toBe(201);
      const p = (await create.json()) as any;
      expect(p).toMatchObject({ name: 'invoices', description: 'Supplier invoices', keywords: ['invoice'] });
      expect((await (await t.api('/pipelines', { key })).json()) as any).toEqual({ pipelines: [p] });
      expect((await (await t.api(`/pipelines/${p.pipeline_id}`, { key })).json()) as any).toEqual(p);
      const patched = (await (await t.api(`/pipelines/${p.pipeline_id}`, { ...json({ keywords: ['invoice', 'bill'] }), method: 'PATCH', key })).json()) as any;
      expect(patched).toMatchObject({ name: 'invoices', description: 'Supplier invoices', keywords: ['invoice', 'bill'] });
      const put = (await (await t.api(`/pipelines/${p.pipeline_id}`, { ...json({ name: 'bills' }), method: 'PUT', key })).json()) as any;
      expect(put).toMatchObject({ pipeline_id: p.pipeline_id, name: 'bills', description: '', keywords: [] });
      expect((await t.api(`/pipelines/${p.pipeline_id}`, { method: 'DELETE', key })).status).toBe(200);
      expect((await t.api(`/pipelines/${p.pipeline_id}`, { key })).status).toBe(404);
      expect((await t.api(`/pipelines/${p.pipeline_id}`, { method: 'DELETE', key })).status).toBe(404);
    });

    it('validates bodies and keeps organizations apart', async () => {
      const key = await otherOrgKey('owner');
      const bad = await t.api('/pipelines', { ...json({ description: 'no name' }), key });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as any).error.code).toBe('REQ_004');
      const extra = await t.api('/pipelines', { ...json({ name: 'x', colour: 'red' }), key });
      expect(((await extra.json()) as any).error.code).toBe('REQ_002');
      const p = (await (await t.api('/pipelines', { ...json({ name: 'private' }), key })).json()) as any;
      const intruder = await otherOrgKey('pipeline-intruder');
      expect((await (await t.api('/pipelines', { key: intruder })).json()) as any).toEqual({ pipelines: [] });
      for (const method of ['GET', 'DELETE']) expect((await t.api(`/pipelines/${p.pipeline_id}`, { method, key: intruder })).status).toBe(404);
      expect((await t.api(`/pipelines/${p.pipeline_id}`, { ...json({ name: 'stolen' }), method: 'PATCH', key: intruder })).status).toBe(404);
      expect(((await (await t.api(`/pipelines/${p.pipeline_id}`, { key })).json()) as any).name).toBe('private');
      // naming another organization's pipeline in /classify is a 404 too
      const res = await t.api('/classify', { method: 'POST', body: formWith({ bytes: contract, name: 'c.pdf' }, { pipeline_ids: p.pipeline_id }), key: intruder });
      expect(res.status).toBe(404);
    });
  });

  describe('/classify', () => {
    let key: string;
    let invoices: string;
    let contracts: string;
    beforeAll(async () => {
      key = await otherOrgKey('classify');
      invoices = ((await (await t.api('/pipelines', { ...json({ name: 'invoices', description: 'Supplier invoices and bills: line items, VAT, amounts and total due', keywords: ['invoice', 'total due', 'VAT'] }), key })).json()) as any).pipeline_id;
      contracts = ((await (await t.api('/pipelines', { ...json({ name: 'contracts', description: 'Agreements between parties with clauses, term and termination', keywords: ['agreement', 'clause', 'party'] }), key })).json()) as any).pipeline_id;
    });

    it('routes an invoice to "invoices" with the scores of every pipeline, billing the pages read', async () => {
      const res = await t.api('/classify', { method: 'POST', body: formWith({ bytes: packet, name: 'packet.pdf' }, { page_range: '1-2' }), key });
      expect(res.status).toBe(200);
      const body = (await res.json()) as any;
      expect(body).toMatchObject({ pipeline_id: invoices, pipeline_name: 'invoices', pages_read: [1, 2], page_count: 7, credits_used: 1, model: 'builtin' });
      expect(body.scores.map((s: any) => s.pipeline_id)).toEqual([invoices, contracts]);
      expect(body.scores[0].score).toBeGreaterThan(body.scores[1].score * 2);
      expect(body.confidence).toBe(body.scores[0].score);
    });

    it('routes a contract to "contracts"', async () => {
      const body = (await (await t.api('/classify', { method: 'POST', body: formWith({ bytes: contract, name: 'c.pdf' }), key })).json()) as any;
      expect(body.pipeline_id).toBe(contracts);
      expect(body.credits_used).toBe(0.5);
    });

    it('reads the first 5 pages by default, and classifies a saved extraction', async () => {
      const body = (await (await t.api('/classify', { method: 'POST', body: formWith({ bytes: packet, name: 'packet.pdf' }), key })).json()) as any;
      expect(body.pages_read).toEqual([1, 2, 3, 4, 5]);
      expect(body.credits_used).toBe(2.5);
      const mine = (await (await t.api('/extract', { method: 'POST', body: formWith({ bytes: contract, name: 'c.pdf' }), key })).json()) as any;
      const saved = (await (await t.api('/classify', { ...json({ extraction_id: mine.extraction_id }), key })).json()) as any;
      expect(saved).toMatchObject({ pipeline_id: contracts, pages_read: [1], credits_used: 0.5 });
      // another organization's extraction is not found
      const foreign = await t.api('/classify', { ...json({ extraction_id: extractionId }), key });
      expect(foreign.status).toBe(404);
    });

    it('takes inline pipelines and pipeline_ids, and runs async', async () => {
      const inline = (await (await t.api('/classify', { method: 'POST', body: formWith({ bytes: contract, name: 'c.pdf' }, {
        pipelines: JSON.stringify([{ pipeline_id: 'legal', name: 'legal', description: 'contracts and agreements between parties' }, { name: 'receipts', keywords: ['receipt', 'paid'] }]),
      }), key })).json()) as any;
      expect(inline.pipeline_id).toBe('legal');
      expect(inline.scores.map((s: any) => s.pipeline_id).sort()).toEqual(['legal', 'receipts']);
      const only = (await (await t.api('/classify', { method: 'POST', body: formWith({ bytes: contract, name: 'c.pdf' }, { pipeline_ids: invoices }), key })).json()) as any;
      expect(only.scores).toHaveLength(1);
      expect(only.pipeline_id).toBeNull(); // a contract is no invoice
      const acc = (await (await t.api('/classify', { method: 'POST', body: formWith({ bytes: packet, name: 'p.pdf' }, { async: 'true', page_range: '1' }), key })).json()) as any;
      expect(acc.status).toBe('pending');
      let job: any;
      do job = await (await t.api(`/job/${acc.job_id}`, { key })).json(); while (!['completed', 'failed'].includes(job.status) && (await new Promise((r) => setTimeout(r, 50)), true));
      expect(job.result.pipeline_id).toBe(invoices);
    });

    it('answers the spec error codes', async () => {
      const fresh = await otherOrgKey('no-pipelines');
      const none = await t.api('/classify', { method: 'POST', body: formWith({ bytes: contract, name: 'c.pdf' }), key: fresh });
      expect([none.status, ((await none.json()) as any).error.code]).toEqual([400, 'REQ_004']);
      const noDoc = await t.api('/classify', { ...json({}), key });
      expect([noDoc.status, ((await noDoc.json()) as any).error.code]).toEqual([400, 'REQ_001']);
      const both = await t.api('/classify', { method: 'POST', body: formWith({ bytes: contract, name: 'c.pdf' }, { extraction_id: extractionId }), key });
      expect([both.status, ((await both.json()) as any).error.code]).toEqual([400, 'REQ_002']);
      const range = await t.api('/classify', { method: 'POST', body: formWith({ bytes: contract, name: 'c.pdf' }, { page_range: '4-9' }), key });
      expect([range.status, ((await range.json()) as any).error.code]).toEqual([400, 'REQ_006']);
      const dup = await t.api('/classify', { method: 'POST', body: formWith({ bytes: contract, name: 'c.pdf' }, { pipelines: JSON.stringify([{ name: 'a' }, { name: 'a' }]) }), key });
      expect([dup.status, ((await dup.json()) as any).error.code]).toEqual([400, 'REQ_003']);
      expect((await t.api('/classify', { method: 'POST', body: formWith({ bytes: contract, name: 'c.pdf' }), key: null })).status).toBe(401);
    });
  });
});
