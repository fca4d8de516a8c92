import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { createGatewayApp, fileUrlFetcher, mountedRoutes, recordedExamples, routeDocs } from '@quire/gateway';
import { buildOpenApi, openApiPath, type RecordedExample, type RouteDoc } from '@quire/contracts';
import { startTestServer, pollJob, type TestServer } from '../support/embedded.js';
import { startReceiver } from '../support/webhook-receiver.js';
import { makePng } from '../fixtures/pdf/documents.js';
import { makeInvoicePdf } from '../fixtures/pdf/schema-documents.js';
import { makePacketPdf, PACKET_TOPICS } from '../fixtures/pdf/packet.js';
import { makeXlsx } from '../fixtures/office/make-xlsx.js';
import { makeFillableForm } from '../fixtures/forms/make-forms.js';

/**
 * The examples in GET /openapi.json come from this run: every operation the gateway documents is driven
 * once through a real embedded server, its response is validated against the document's schema for its
 * status, and compared with the example checked in (services/gateway/src/openapi-examples.json): same
 * status, same shape (keys and JSON types; ids and timestamps differ from run to run). Record afresh after
 * a contract change with
 *   QUIRE_RECORD_EXAMPLES=1 node --experimental-vm-modules node_modules/jest/bin/jest.js tests/e2e/openapi-examples.test.ts
 * The test also fails when the gateway mounts a route the document does not describe, or the reverse.
 */
const EXAMPLES_FILE = fileURLToPath(new URL('../../services/gateway/src/openapi-examples.json', import.meta.url));
const RECORD = process.env.QUIRE_RECORD_EXAMPLES === '1';
/** Recorded URLs name a stable host instead of the test server's random port. */
const EXAMPLE_BASE = 'http://localhost:8080';

const docs = routeDocs();
const byId = new Map(docs.map((d) => [d.operationId, d]));

/** A page of text with a picture and its caption: an extraction with a figure crop (for /results/{id}/images). */
async function makeFigurePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText('Reservoir levels', { x: 72, y: 720, size: 18, font });
  page.drawText('The reservoir held steady through the dry season.', { x: 72, y: 690, size: 11, font });
  page.drawImage(await doc.embedPng(await makePng(120, 80)), { x: 72, y: 400, width: 216, height: 144 });
  page.drawText('Figure 1. Water level over the year.', { x: 72, y: 385, size: 10, font });
  return doc.save();
}

type Upload = { fields: Record<string, string>; file?: { bytes: Uint8Array; name: string; type: string } };

/** Keys and JSON types, recursively (an array by its first element): what must not drift between runs. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? [shape(v[0])] : [];
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, shape((v as Record<string, unknown>)[k])]));
  return v === null ? 'null' : typeof v;
}

describe('OpenAPI examples, recorded from a real run of every operation', () => {
  let t: TestServer;
  let idle: TestServer; // no workers: a job that stays pending, to cancel
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const live: Record<string, RecordedExample> = {};
  const schemaProblems: string[] = [];
  let validate: (op: RouteDoc, status: number, body: unknown) => string[];

  beforeAll(async () => {
    [t, idle, receiver] = await Promise.all([startTestServer({ QUIRE_WEBHOOK_ALLOW_HOSTS: '127.0.0.1', QUIRE_WEBHOOK_POLL_MS: '50' }), startTestServer({}, { startWorkers: false }), startReceiver()]);
    // the served document, but with response objects closed: a field a reply carries and the contract does not list fails
    const doc = buildOpenApi(docs, {}, { closedResponses: true }) as Record<string, any>;
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema({ $id: 'openapi.json', components: doc.components } as never);
    validate = (op, status, body) => {
      const media = doc.paths[openApiPath(op.path)][op.method].responses[String(status)]?.content?.['application/json'];
      if (!media?.schema) return [`no JSON schema documented for ${op.operationId} ${status}`];
      const check = ajv.compile({ $ref: `openapi.json${media.schema.$ref}` });
      return check(body) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
    };
  }, 120_000);
  afterAll(async () => { await Promise.all([t?.close(), idle?.close(), receiver?.close()]); });

  /** One documented operation through HTTP, recorded. */
  async function call(operationId: string, path: string, opts: { json?: unknown; upload?: Upload; server?: TestServer; headers?: Record<string, string>; record?: boolean } = {}): Promise<any> {
    const op = byId.get(operationId);
    if (!op) throw new Error(`no route doc for ${operationId}`);
    const server = opts.server ?? t;
    const keyed = op.auth === undefined || op.auth === 'apiKey' || (op.auth === 'apiKeyOrUrlToken' && !path.includes('token='));
    const headers: Record<string, string> = { ...(keyed ? { 'x-api-key': server.key } : {}), ...opts.headers };
    let body: string | FormData | undefined;
    if (opts.json !== undefined) { headers['content-type'] = 'application/json'; body = JSON.stringify(opts.json); }
    if (opts.upload) {
      const form = new FormData();
      for (const [k, v] of Object.entries(opts.upload.fields)) form.append(k, v);
      if (opts.upload.file) form.append('file', new Blob([Buffer.from(opts.upload.file.bytes)], { type: opts.upload.file.type }), opts.upload.file.name);
      body = form;
    }
    const res = await fetch(server.url + path, { method: op.method.toUpperCase(), headers, body });
    const documented = op.responses[res.status];
    const text = await res.text();
    if (!documented) throw new Error(`${operationId}: ${res.status} is not a documented success: ${text.slice(0, 500)}`);
    const contentType = (res.headers.get('content-type') ?? '').split(';')[0];
    let parsed: unknown;
    if (documented.schema) {
      parsed = JSON.parse(text);
      for (const e of validate(op, res.status, parsed)) schemaProblems.push(`${operationId} ${res.status}: ${e}`);
    }
    const example: RecordedExample = {
      path,
      ...(opts.json !== undefined ? { request: { json: opts.json } } : {}),
      ...(opts.upload ? { request: { multipart: { fields: opts.upload.fields, ...(opts.upload.file ? { file: opts.upload.file.name } : {}) } } } : {}),
      status: res.status,
      response: documented.schema ? { json: parsed } : { contentType, bytes: Buffer.byteLength(text), ...(contentType.startsWith('text/') ? { text: excerpt(text) } : {}) },
    };
    if (opts.record !== false) live[operationId] = JSON.parse(JSON.stringify(example).replaceAll(server.url, EXAMPLE_BASE)) as RecordedExample;
    return parsed;
  }

  const excerpt = (s: string) => (s.length <= 600 ? s : `${s.slice(0, s.lastIndexOf('\n', 600) + 1 || 600)}…`);
  const pdf = (bytes: Uint8Array, name: string) => ({ bytes, name, type: 'application/pdf' });

  it('drives every documented operation and checks each response against its schema', async () => {
    const [invoice, figure, packet, book, form] = await Promise.all([makeInvoicePdf(), makeFigurePdf(), makePacketPdf(), makeXlsx(), makeFillableForm()]);

    // operations and docs
    await call('healthz', '/healthz');
    await call('readyz', '/readyz');
    await call('metrics', '/metrics');
    await call('getOpenApi', '/openapi.json');
    await call('docsPage', '/docs');
    await call('docsAsset', '/docs/assets/quire-docs.js');
    await call('playground', '/playground');
    await call('playgroundAsset', '/playground/app.js');

    // extraction, sync and async (with a figure crop), jobs and results
    const extraction = await call('extract', '/extract', { upload: { fields: {}, file: pdf(invoice, 'invoice.pdf') } });
    const accepted = await call('extractAsync', '/extract_async', { upload: { fields: { figure_processing: JSON.stringify({ show_images: true }) }, file: pdf(figure, 'report.pdf') } });
    await pollJob(t, accepted.job_id);
    await call('getJob', `/job/${accepted.job_id}`);
    await call('getResult', `/results/${accepted.job_id}`);
    await call('getResultImage', `/results/${accepted.job_id}/images/fig-1.png`);
    await call('getJobEvents', `/job/${accepted.job_id}/events`);
    await call('getPageImage', `/results/${accepted.job_id}/pages/1.png?dpi=36`);

    // classify and pipelines
    const pipeline = await call('createPipeline', '/pipelines', { json: { name: 'invoices', description: 'Supplier invoices and bills', keywords: ['invoice', 'amount due'] } });
    await call('listPipelines', '/pipelines');
    await call('getPipeline', `/pipelines/${pipeline.pipeline_id}`);
    await call('classify', '/classify', { json: { extraction_id: extraction.extraction_id } });
    await call('replacePipeline', `/pipelines/${pipeline.pipeline_id}`, { json: { name: 'invoices', description: 'Invoices', keywords: ['invoice'] } });
    await call('updatePipeline', `/pipelines/${pipeline.pipeline_id}`, { json: { keywords: ['invoice', 'bill'] } });
    await call('deletePipeline', `/pipelines/${pipeline.pipeline_id}`);

    // schema
    const inputSchema = { type: 'object', properties: { invoice_number: { type: 'string' }, total: { type: 'number', description: 'Total amount due' } } };
    const config = await call('createSchemaConfig', '/schema/configs', { json: { name: 'invoices', schema_config: { input_schema: inputSchema } } });
    await call('listSchemaConfigs', '/schema/configs');
    await call('getSchemaConfig', `/schema/configs/${config.schema_config_id}`);
    await call('updateSchemaConfig', `/schema/configs/${config.schema_config_id}`, { json: { schema_config: { input_schema: inputSchema, schema_prompt: 'Amounts in the invoice currency' } } });
    const schemaResult = await call('schema', '/schema', { json: { extraction_id: extraction.extraction_id, schema_config_id: config.schema_config_id } });
    await call('listSchemaConfigVersions', `/schema/configs/${config.schema_config_id}/versions`);
    await call('getSchemaRecord', `/schema/${schemaResult.schema_id}`);
    await call('listSchemaVersions', `/schema/${schemaResult.schema_id}/versions`);

    // tables, charts, split
    await call('tables', '/tables', { json: { extraction_id: extraction.extraction_id } });
    const workbook = await call('extract', '/extract', { record: false, upload: { fields: {}, file: { bytes: book, name: 'book.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } } });
    await call('charts', '/charts', { json: { extraction_id: workbook.extraction_id } });
    const packetExtraction = await call('extract', '/extract', { record: false, upload: { fields: {}, file: pdf(packet, 'packet.pdf') } });
    await call('split', '/split', { json: { extraction_id: packetExtraction.extraction_id, split_config: { split_input: PACKET_TOPICS } } });

    // batches (each parent polled to the end, so nothing is left running)
    const batch = await call('batchExtract', '/batch/extract', { upload: { fields: {}, file: pdf(invoice, 'invoice.pdf') } });
    await pollJob(t, batch.job_id, 60_000);
    const ids = [extraction.extraction_id, packetExtraction.extraction_id];
    for (const [operationId, path, body] of [
      ['batchSchema', '/batch/schema', { extraction_ids: ids, schema_config_id: config.schema_config_id }],
      ['batchTables', '/batch/tables', { extraction_ids: ids }],
      ['batchSplit', '/batch/split', { extraction_ids: ids, split_config: { split_input: PACKET_TOPICS } }],
    ] as const) {
      const parent = await call(operationId, path, { json: body });
      await pollJob(t, parent.job_id, 60_000);
    }

    // forms
    const detected = await call('formDetect', '/form/detect', { upload: { fields: {}, file: pdf(form, 'form.pdf') } });
    const filled = await call('formFill', '/form/fill', { json: { form_id: detected.form_id, instructions: 'Full name: Jane Doe; ZIP code: 12345; she is married' } });
    await call('getResultPdf', `/results/${filled.form_id}/pdf`);
    await call('formClear', '/form/clear', { json: { form_id: filled.form_id } });

    // cancel: jobs on a server whose workers never start stay pending
    const idleUpload = (name: string) => ({ server: idle, record: false, upload: { fields: { async: 'true' }, file: pdf(invoice, name) } });
    const pending = await call('extract', '/extract', idleUpload('invoice.pdf'));
    await call('cancelJob', `/job/${pending.job_id}`, { server: idle });
    const pendingLegacy = await call('extract', '/extract', idleUpload('invoice.pdf'));
    await call('cancelJobLegacy', `/cancel/${pendingLegacy.job_id}`, { server: idle });

    // webhooks and the portal
    const { link } = await call('webhookPortalLink', '/webhook');
    const token = new URL(link).searchParams.get('token')!;
    const bearer = { headers: { authorization: `Bearer ${token}` } };
    await call('webhookPortalPage', `/webhook-portal?token=${token}`);
    await call('portalListEventTypes', '/webhook-portal/api/event-types', bearer);
    const endpoint = await call('portalCreateEndpoint', '/webhook-portal/api/endpoints', { ...bearer, json: { url: `${receiver.url}/quire`, description: 'CI receiver', event_types: ['job.completed', 'job.failed'] } });
    await call('portalListEndpoints', '/webhook-portal/api/endpoints', bearer);
    await call('portalGetEndpoint', `/webhook-portal/api/endpoints/${endpoint.id}`, bearer);
    await call('portalUpdateEndpoint', `/webhook-portal/api/endpoints/${endpoint.id}`, { ...bearer, json: { description: 'CI receiver (all events)', event_types: [] } });
    await call('portalTestEndpoint', `/webhook-portal/api/endpoints/${endpoint.id}/test`, bearer);
    // the log once the test event has been delivered (before that its attempts are still empty)
    for (const deadline = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 50))) {
      const log = (await (await fetch(`${t.url}/webhook-portal/api/endpoints/${endpoint.id}/deliveries`, bearer)).json()) as { deliveries: { status: string }[] };
      if (log.deliveries.length > 0 && log.deliveries.every((d) => d.status === 'succeeded')) break;
      if (Date.now() > deadline) throw new Error(`test event not delivered: ${JSON.stringify(log)}`);
    }
    await call('portalListDeliveries', `/webhook-portal/api/endpoints/${endpoint.id}/deliveries`, bearer);
    await call('portalDeleteEndpoint', `/webhook-portal/api/endpoints/${endpoint.id}`, bearer);

    // usage and the legacy hosted-file pair
    await call('getUsage', '/usage?granularity=day');
    const hosted = await call('convert', '/convert', { upload: { fields: {}, file: pdf(invoice, 'invoice.pdf') } });
    await call('getHostedFile', new URL(hosted.url).pathname + new URL(hosted.url).search);

    expect(docs.map((d) => d.operationId).filter((id) => !live[id])).toEqual([]);
    expect(schemaProblems).toEqual([]);
  }, 300_000);

  it('documents every route the gateway mounts, and only those', () => {
    const app = createGatewayApp({ ...t.server.ctx, fetchUrl: fileUrlFetcher(t.server.ctx.config) });
    const mounted = new Set(mountedRoutes(app).map((r) => `${r.method} ${r.path}`));
    const documented = new Set(docs.map((d) => `${d.method} ${d.path}`));
    expect({ undocumented: [...mounted].filter((r) => !documented.has(r)), notMounted: [...documented].filter((r) => !mounted.has(r)) })
      .toEqual({ undocumented: [], notMounted: [] });
  });

  it(RECORD ? 'records the examples into openapi-examples.json' : 'has a current recorded example for every operation (same status and shape as this run)', () => {
    expect(Object.keys(live).length).toBe(docs.length);
    if (RECORD) {
      const ordered = Object.fromEntries(docs.map((d) => [d.operationId, live[d.operationId]]));
      fs.writeFileSync(EXAMPLES_FILE, `${JSON.stringify(ordered, null, 2)}\n`);
      return;
    }
    const recorded = recordedExamples();
    for (const d of docs) {
      const was = recorded[d.operationId];
      const now = live[d.operationId];
      expect({ op: d.operationId, recorded: !!was }).toEqual({ op: d.operationId, recorded: true });
      expect({ op: d.operationId, status: was.status, request: shape(was.request), response: shape('json' in was.response ? was.response.json : { contentType: was.response.contentType }) })
        .toEqual({ op: d.operationId, status: now.status, request: shape(now.request), response: shape('json' in now.response ? now.response.json : { contentType: now.response.contentType }) });
    }
  });
});
