import { randomUUID } from 'node:crypto';
import { startTestServer, formWith, pollJob, type TestServer } from '../support/embedded.js';
import { startChatServer } from '../support/chat-server.js';
import { FORM, INVOICE, makeInvoicePdf, makeLabelValueFormPdf, makePacketPdf } from '../fixtures/pdf/schema-documents.js';

/** id → text of every element and table cell in an extraction response. */
function elementTexts(extraction: any): Map<string, string> {
  const out = new Map<string, string>();
  for (const [cat, list] of Object.entries(extraction.bounding_boxes)) {
    if (!Array.isArray(list)) continue;
    for (const el of list as any[]) {
      if (cat === 'Tables') for (const c of el.cell_data) out.set(c.id, c.text);
      else if (el.id) out.set(el.id, el.original_content ?? el.content ?? '');
    }
  }
  return out;
}

const norm = (s: string) => s.toLowerCase().replace(/[\s,]/g, '');

/** Each cited id resolves in the extraction and its text contains the printed value. */
function expectCites(texts: Map<string, string>, ids: unknown, printed: string) {
  expect(Array.isArray(ids)).toBe(true);
  expect((ids as string[]).length).toBeGreaterThan(0);
  for (const id of ids as string[]) {
    expect(texts.has(id)).toBe(true);
    expect(norm(texts.get(id)!)).toContain(norm(printed));
  }
}

const invoiceSchema = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    invoice_date: { type: 'string', format: 'date' },
    total: { type: 'number', description: 'Total amount due' },
    currency: { type: 'string' },
    po_number: { type: 'string', description: 'Purchase order number' },
    line_items: {
      type: 'array',
      items: { type: 'object', properties: { description: { type: 'string' }, quantity: { type: 'integer' }, unit_price: { type: 'number' }, amount: { type: 'number' } } },
    },
  },
  required: ['invoice_number', 'total'],
};

const formSchema = {
  type: 'object',
  properties: { full_name: { type: 'string' }, date_of_birth: { type: 'string', format: 'date' }, email: { type: 'string', format: 'email' }, phone: { type: 'string' }, occupation: { type: 'string' } },
};

describe('embedded: POST /schema', () => {
  let t: TestServer;
  let invoice: any, form: any, packet: any;
  const post = (path: string, body: unknown) => t.api(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const extract = async (bytes: Uint8Array, name: string) => {
    const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes, name, type: 'application/pdf' }) });
    expect(res.status).toBe(200);
    return res.json();
  };
  const orgId = async () => (await t.server.ctx.store.keys.findByKey(t.key))!.org_id;

  beforeAll(async () => {
    t = await startTestServer();
    invoice = await extract(await makeInvoicePdf(), 'invoice.pdf');
    form = await extract(await makeLabelValueFormPdf(), 'form.pdf');
    packet = await extract(await makePacketPdf(), 'packet.pdf');
  });
  afterAll(() => t.close());

  it('single mode: typed values, citations that resolve to the printed text, nulls with reasons, 1 credit per page', async () => {
    const res = await post('/schema', { extraction_id: invoice.extraction_id, schema_config: { input_schema: invoiceSchema } });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body.schema_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.version).toBeGreaterThanOrEqual(1);
    const { values, citations } = body.schema_output;
    expect(values).toMatchObject({ invoice_number: INVOICE.number, invoice_date: INVOICE.date, total: INVOICE.total, currency: 'USD' });
    expect(values.line_items).toEqual(INVOICE.items);
    const texts = elementTexts(invoice);
    expectCites(texts, citations.invoice_number, INVOICE.number);
    expectCites(texts, citations.total, '106.70');
    expectCites(texts, citations.line_items[1].description, INVOICE.items[1].description);
    expect(citations.line_items[1].amount[0]).toMatch(/^tbl-\d+-r\d+c\d+$/);
    expect(values.po_number).toBeNull();
    expect(citations.po_number).toBeNull();
    expect(body.details.notes['/po_number']).toMatch(/not found/);
    expect(body.schema_output.confidence).toBeUndefined();
    expect(body.credits_used).toBe(1);
    expect(body.plan_info).toBeDefined();
  });

  it('a label/value form', async () => {
    const body = (await (await post('/schema', { extraction_id: form.extraction_id, schema_config: { input_schema: formSchema } })).json()) as any;
    const { values, citations } = body.schema_output;
    expect(values).toEqual({ full_name: FORM.name, date_of_birth: FORM.birth, email: FORM.email, phone: FORM.phone, occupation: null });
    const texts = elementTexts(form);
    expectCites(texts, citations.full_name, FORM.name);
    expectCites(texts, citations.email, FORM.email);
    expect(body.details.notes['/occupation']).toBeDefined();
  });

  it('validates the JSON Schema before anything else: SCHEMA_004, SCHEMA_003, SCHEMA_001', async () => {
    const unknownId = randomUUID();
    const r4 = await post('/schema', { extraction_id: unknownId, schema_config: { input_schema: { type: 'object', properties: { d: { type: 'date' } } } } });
    expect(r4.status).toBe(400);
    expect(((await r4.json()) as any).error.code).toBe('SCHEMA_004');
    let deep: any = { type: 'string' };
    for (let i = 0; i < 7; i++) deep = { type: 'object', properties: { x: deep } };
    const r3 = await post('/schema', { extraction_id: unknownId, schema_config: { input_schema: deep } });
    expect(((await r3.json()) as any).error.code).toBe('SCHEMA_003');
    // 20,000 levels (written as text: JSON.stringify itself would overflow the stack)
    const abyss = `${'{"type":"object","properties":{"x":'.repeat(20_000)}{"type":"string"}${'}}'.repeat(20_000)}`;
    const r3deep = await t.api('/schema', { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"extraction_id":"${unknownId}","schema_config":{"input_schema":${abyss}}}` });
    expect({ status: r3deep.status, code: ((await r3deep.json()) as any).error.code }).toEqual({ status: 400, code: 'SCHEMA_003' });
    const r1 = await post('/schema', { extraction_id: unknownId, schema_config: { input_schema: { type: 'object', required: 'total' } } });
    expect(r1.status).toBe(400);
    expect(((await r1.json()) as any).error.code).toBe('SCHEMA_001');
    // a valid schema on an unknown extraction is a 404
    const r404 = await post('/schema', { extraction_id: unknownId, schema_config: { input_schema: invoiceSchema } });
    expect(r404.status).toBe(404);
    expect(((await r404.json()) as any).error.code).toBe('STORAGE_002');
  });

  it('refuses a schema with more properties than QUIRE_SCHEMA_MAX_PROPERTIES (1,000 by default) with SCHEMA_003, before any work', async () => {
    const properties = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`field_${i}`, { type: 'string' }]));
    const wide = { type: 'object', properties };
    const r = await post('/schema', { extraction_id: randomUUID(), schema_config: { input_schema: wide } });
    const body = (await r.json()) as any;
    expect({ status: r.status, code: body.error.code }).toEqual({ status: 400, code: 'SCHEMA_003' });
    expect(body.error.message).toContain('10000 properties (at most 1000)');
    const saved = await post('/schema/configs', { name: 'wide', schema_config: { input_schema: wide } });
    expect({ status: saved.status, code: ((await saved.json()) as any).error.code }).toEqual({ status: 400, code: 'SCHEMA_003' });
    // at the limit it is accepted (an unknown extraction, so 404 after validation)
    const atLimit = { type: 'object', properties: Object.fromEntries(Object.entries(properties).slice(0, 1_000)) };
    expect((await post('/schema', { extraction_id: randomUUID(), schema_config: { input_schema: atLimit } })).status).toBe(404);
  });

  it('mode rules: exactly one config, exactly one source', async () => {
    const both = await post('/schema', { extraction_id: invoice.extraction_id, schema_config: { input_schema: invoiceSchema }, schema_config_id: randomUUID() });
    expect(((await both.json()) as any).error.code).toBe('REQ_003');
    const none = await post('/schema', { extraction_id: invoice.extraction_id });
    expect(((await none.json()) as any).error.code).toBe('REQ_004');
    const noSource = await post('/schema', { schema_config: { input_schema: invoiceSchema } });
    expect(((await noSource.json()) as any).error.code).toBe('REQ_004');
    const twoSources = await post('/schema', { extraction_id: invoice.extraction_id, split_id: randomUUID(), schema_config: { input_schema: invoiceSchema } });
    expect(((await twoSources.json()) as any).error.code).toBe('REQ_003');
  });

  it('saved configurations: create, read, list, use by id; each call is a new version', async () => {
    const bad = await post('/schema/configs', { name: 'bad', schema_config: { input_schema: { type: 'object', properties: { a: { type: 'money' } } } } });
    expect(((await bad.json()) as any).error.code).toBe('SCHEMA_004');
    const created = await post('/schema/configs', { name: 'invoices', schema_config: { input_schema: invoiceSchema, schema_prompt: 'Dates are month first' } });
    expect(created.status).toBe(201);
    const cfg = (await created.json()) as any;
    expect(cfg).toMatchObject({ name: 'invoices', config_version: 1, schema_config: { input_schema: invoiceSchema } });
    expect(((await (await t.api(`/schema/configs/${cfg.schema_config_id}`)).json()) as any).name).toBe('invoices');
    const list = (await (await t.api('/schema/configs')).json()) as any;
    expect(list.schema_configs.map((c: any) => c.schema_config_id)).toContain(cfg.schema_config_id);
    const first = (await (await post('/schema', { extraction_id: invoice.extraction_id, schema_config_id: cfg.schema_config_id })).json()) as any;
    const second = (await (await post('/schema', { extraction_id: invoice.extraction_id, schema_config_id: cfg.schema_config_id })).json()) as any;
    expect([first.version, second.version]).toEqual([1, 2]);
    expect(first.schema_config_id).toBe(cfg.schema_config_id);
    expect(second.schema_output.values.invoice_number).toBe(INVOICE.number);
    const versions = (await (await t.api(`/schema/configs/${cfg.schema_config_id}/versions`)).json()) as any;
    expect(versions.versions.map((v: any) => [v.schema_id, v.version])).toEqual([[first.schema_id, 1], [second.schema_id, 2]]);
    const lineage = (await (await t.api(`/schema/${second.schema_id}/versions`)).json()) as any;
    expect(lineage.versions).toHaveLength(2);
    const record = (await (await t.api(`/schema/${first.schema_id}`)).json()) as any;
    expect(record).toMatchObject({ schema_id: first.schema_id, version: 1, schema_config_id: cfg.schema_config_id, extraction_ids: [invoice.extraction_id] });
    expect(record.schema_output.values.total).toBe(INVOICE.total);
    expect((await t.api(`/schema/configs/${randomUUID()}`)).status).toBe(404);
    expect(((await (await post('/schema', { extraction_id: invoice.extraction_id, schema_config_id: randomUUID() })).json()) as any).error.code).toBe('STORAGE_002');
    // the same inline configuration forms its own lineage
    const a = (await (await post('/schema', { extraction_id: form.extraction_id, schema_config: { input_schema: formSchema, schema_prompt: 'lineage' } })).json()) as any;
    const b = (await (await post('/schema', { extraction_id: form.extraction_id, schema_config: { input_schema: formSchema, schema_prompt: 'lineage' } })).json()) as any;
    expect(b.version).toBe(a.version + 1);
  });

  it('composite: extraction_ids combine into one answer citing <extraction_id>-<element id>', async () => {
    const schema = { type: 'object', properties: { invoice_number: { type: 'string' }, total: { type: 'number' }, email: { type: 'string', format: 'email' }, full_name: { type: 'string' } } };
    const res = await post('/schema', { extraction_ids: [invoice.extraction_id, form.extraction_id], schema_config: { input_schema: schema } });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body.extraction_ids).toEqual([invoice.extraction_id, form.extraction_id]);
    expect(body.schema_output.values).toEqual({ invoice_number: INVOICE.number, total: INVOICE.total, email: FORM.email, full_name: FORM.name });
    const sources: Record<string, Map<string, string>> = { [invoice.extraction_id]: elementTexts(invoice), [form.extraction_id]: elementTexts(form) };
    const resolve = (cited: string[], printed: string, from: string) => {
      for (const c of cited) {
        expect(c.startsWith(`${from}-`)).toBe(true);
        expectCites(sources[from], [c.slice(from.length + 1)], printed);
      }
    };
    resolve(body.schema_output.citations.invoice_number, INVOICE.number, invoice.extraction_id);
    resolve(body.schema_output.citations.email, FORM.email, form.extraction_id);
    expect(body.credits_used).toBe(2);
  });

  it('split mode: one result per topic, each reading only its pages', async () => {
    const splitId = randomUUID();
    await t.server.ctx.store.artifacts.create({
      id: splitId, org_id: await orgId(), job_id: randomUUID(), type: 'split', parent_id: packet.extraction_id,
      data: { extraction_id: packet.extraction_id, groups: [{ topic: 'invoice', pages: [1], confidence: 0.9 }, { topic: 'application', pages: [2], confidence: 0.8 }] },
      expires_at: new Date(Date.now() + 3600_000),
    });
    const res = await post('/schema', {
      split_id: splitId,
      split_schema_config: {
        invoice: { schema: { type: 'object', properties: { invoice_number: { type: 'string' }, total: { type: 'number' }, email: { type: 'string', format: 'email' } } } },
        application: { schema: { type: 'object', properties: { full_name: { type: 'string' }, email: { type: 'string', format: 'email' }, invoice_number: { type: 'string' } } }, schema_prompt: 'A membership form', effort: true },
      },
    });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body.split_id).toBe(splitId);
    expect(body.results.invoice.pages).toEqual([1]);
    expect(body.results.invoice.schema_output.values).toEqual({ invoice_number: INVOICE.number, total: INVOICE.total, email: null });
    expect(body.results.application.schema_output.values).toEqual({ full_name: FORM.name, email: FORM.email, invoice_number: null });
    const texts = elementTexts(packet);
    expectCites(texts, body.results.application.schema_output.citations.email, FORM.email);
    // 1 credit for the invoice page, 6 for the application page read with effort
    expect(body.credits_used).toBe(7);
    const missing = await post('/schema', { split_id: splitId });
    expect(((await missing.json()) as any).error.code).toBe('REQ_004');
    const unknown = await post('/schema', { split_id: randomUUID(), split_schema_config: { x: { schema: { type: 'object' } } } });
    expect(unknown.status).toBe(404);
  });

  it('agentic_confidence needs the organization flag; then confidence mirrors values (0..1) and costs 3 more per page', async () => {
    const req = { extraction_id: invoice.extraction_id, schema_config: { input_schema: invoiceSchema, agentic_confidence: true } };
    // the embedded dev organization has every flag on: switch it off to see the refusal
    await t.server.ctx.store.orgs.setFlags(await orgId(), { agentic_confidence: false });
    const denied = await post('/schema', req);
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as any).error).toMatchObject({ code: 'AUTH_004', details: { flag: 'agentic_confidence' } });
    const deniedSplit = await post('/schema', { split_id: randomUUID(), split_schema_config: { t: { schema: invoiceSchema, agentic_confidence: true } } });
    expect(deniedSplit.status).toBe(403);
    await t.server.ctx.store.orgs.setFlags(await orgId(), { agentic_confidence: true });
    {
      const body = (await (await post('/schema', req)).json()) as any;
      const { values, confidence } = body.schema_output;
      expect(Object.keys(confidence)).toEqual(Object.keys(values));
      for (const k of ['invoice_number', 'invoice_date', 'total']) expect(confidence[k]).toBeGreaterThan(0.5);
      expect(confidence.po_number).toBeNull();
      expect(confidence.line_items).toHaveLength(values.line_items.length);
      for (const v of [confidence.total, ...Object.values(confidence.line_items[0])] as number[]) expect(v >= 0 && v <= 1).toBe(true);
      expect(body.credits_used).toBe(4);
    }
  });

  it('effort with a configured model: the strong model answers, a verification pass corrects it, 6 + 3 credits per page', async () => {
    const ids = { number: '', total: '' };
    const answer = (total: number, conf: number) => JSON.stringify({
      values: { invoice_number: INVOICE.number, total }, citations: { invoice_number: [ids.number], total: [ids.total] }, confidence: { invoice_number: 0.9, total: conf },
    });
    // the first answer misreads the total; the verification pass (its own system prompt) corrects it
    const llm = await startChatServer((body) => (/check a structured answer/.test(body.messages[0].content) ? answer(INVOICE.total, 0.95) : answer(INVOICE.total + 10, 0.9)));
    const t2 = await startTestServer({ QUIRE_LLM_BASE_URL: llm.baseUrl, QUIRE_LLM_MODEL: 'small', QUIRE_LLM_STRONG_MODEL: 'big' });
    try {
      const res = await t2.api('/extract', { method: 'POST', body: formWith({ bytes: await makeInvoicePdf(), name: 'invoice.pdf', type: 'application/pdf' }) });
      const extraction = (await res.json()) as any;
      const texts = elementTexts(extraction);
      ids.number = [...texts].find(([, t]) => t.includes(INVOICE.number))![0];
      ids.total = [...texts].find(([, t]) => norm(t) === norm(INVOICE.total.toFixed(2)) || norm(t).endsWith(norm(INVOICE.total.toFixed(2))))![0];
      const schema = { type: 'object', properties: { invoice_number: { type: 'string' }, total: { type: 'number' } } };
      const done = await t2.api('/schema', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ extraction_id: extraction.extraction_id, schema_config: { input_schema: schema, effort: true, agentic_confidence: true } }) });
      const body = (await done.json()) as any;
      expect(done.status).toBe(200);
      expect(llm.requests.map((r) => r.model)).toEqual(['big', 'big']);
      expect(llm.requests[1].messages[1].content).toContain(`"total":${INVOICE.total + 10}`);
      expect(body.schema_output.values).toEqual({ invoice_number: INVOICE.number, total: INVOICE.total });
      // the total changed in verification: its confidence is capped at 0.7
      expect(body.schema_output.confidence).toEqual({ invoice_number: 0.9, total: 0.7 });
      expect(body.details.model).toBe('openai:small');
      expect(body.credits_used).toBe(9);
    } finally {
      await t2.close();
      await llm.close();
    }
  });

  it('async: 202 with job_id and schema_id, the job result is the schema result', async () => {
    const res = await post('/schema', { extraction_id: invoice.extraction_id, schema_config: { input_schema: invoiceSchema, effort: true }, async: true });
    expect(res.status).toBe(202);
    const accepted = (await res.json()) as any;
    expect(accepted.schema_id).toBe(accepted.job_id);
    const job = (await pollJob(t, accepted.job_id)) as any;
    expect(job.status).toBe('completed');
    expect(job.result.schema_output.values.total).toBe(INVOICE.total);
    expect(job.result.credits_used).toBe(6);
  });
  it('deprecated /extract inputs run the schema step and answer in the old shape', async () => {
    const pdf = await makeInvoicePdf();
    const schema = { type: 'object', properties: { invoice_number: { type: 'string' }, total: { type: 'number' }, po_number: { type: 'string' } } };
    const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes: pdf, name: 'invoice.pdf' }, { schema: JSON.stringify(schema), schema_prompt: 'An invoice' }) });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body.markdown).toContain(INVOICE.number);
    expect(body.structured_output).toEqual({ invoice_number: INVOICE.number, total: INVOICE.total, po_number: null });
    expectCites(elementTexts(body), body.citations.total, '106.70');
    expect(body.schema_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.credits_used).toBe(2);
    const record = (await (await t.api(`/schema/${body.schema_id}`)).json()) as any;
    expect(record.extraction_ids).toEqual([body.extraction_id]);
    // structured_output holding {schema, schema_prompt}, asynchronously
    const accepted = (await (await t.api('/extract', { method: 'POST', body: formWith({ bytes: pdf, name: 'invoice.pdf' }, { async: 'true', structured_output: JSON.stringify({ schema }) }) })).json()) as any;
    const job = (await pollJob(t, accepted.job_id)) as any;
    expect(job.result.structured_output.invoice_number).toBe(INVOICE.number);
    // checked before any work
    const bad = await t.api('/extract', { method: 'POST', body: formWith({ bytes: pdf, name: 'invoice.pdf' }, { schema: JSON.stringify({ type: 'object', properties: { a: { type: 'money' } } }) }) });
    expect(((await bad.json()) as any).error.code).toBe('SCHEMA_004');
    const promptOnly = await t.api('/extract', { method: 'POST', body: formWith({ bytes: pdf, name: 'invoice.pdf' }, { schema_prompt: 'the total' }) });
    expect(((await promptOnly.json()) as any).error.code).toBe('REQ_004');
  });
});
