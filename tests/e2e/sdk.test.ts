import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { defineJobHandler } from '@quire/jobs';
import { Quire, QuireError, SDK_OPERATIONS, type JobPageResult, type JobProgress } from '@quire/sdk';
import { makeFillableForm } from '../fixtures/forms/make-forms.js';
import { makeXlsx } from '../fixtures/office/make-xlsx.js';
import { makePng } from '../fixtures/pdf/documents.js';
import { SAMPLE_HTML, startTestServer, type TestServer } from '../support/embedded.js';

/** A two-page report with a picture on page 1 (for figure images) and a topic per page (for split). */
async function makeReportPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const p1 = doc.addPage([612, 792]);
  p1.drawText('Invoice 2024-17', { x: 72, y: 720, size: 18, font });
  p1.drawText('Total due: 1,250.00 EUR. Payment within 30 days.', { x: 72, y: 690, size: 11, font });
  p1.drawImage(await doc.embedPng(await makePng(120, 80)), { x: 72, y: 400, width: 216, height: 144 });
  p1.drawText('Figure 1. Delivered goods.', { x: 72, y: 385, size: 10, font });
  const p2 = doc.addPage([612, 792]);
  p2.drawText('Employment contract', { x: 72, y: 720, size: 18, font });
  p2.drawText('The employee agrees to the terms of employment and salary below.', { x: 72, y: 690, size: 11, font });
  return doc.save();
}

const polls = { initialMs: 20, maxMs: 200 };

describe('@quire/sdk against the embedded server', () => {
  let t: TestServer;
  let quire: Quire;
  let pdf: Uint8Array;
  let tmp: string;
  beforeAll(async () => {
    // Results of 2 KB or more come back as single-use URLs, so every async wait below follows one.
    // Loopback file_url allowed: the hosted URLs of POST /convert point at this server.
    t = await startTestServer({ QUIRE_INLINE_RESULT_LIMIT_BYTES: '2048', QUIRE_RESULT_ROW_LIMIT_BYTES: '1024', QUIRE_FILE_URL_ALLOW_HOSTS: '127.0.0.1' });
    quire = new Quire({ baseUrl: t.url, apiKey: t.key, poll: polls });
    pdf = await makeReportPdf();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-sdk-'));
  }, 60_000);
  afterAll(async () => { await t?.close(); fs.rmSync(tmp, { recursive: true, force: true }); });

  it('covers every operation the served OpenAPI lists for the spec\'s endpoints, with a client method each', async () => {
    const oas = await quire.transport.json<{ paths: Record<string, Record<string, unknown>> }>('GET', '/openapi.json');
    const served = Object.entries(oas.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    const outOfScope = /^(GET|POST|PUT|PATCH|DELETE) \/(pipelines|schema\/|webhook-portal|files|healthz|readyz|metrics|openapi|docs|playground)/;
    const missing = served.filter((op) => !outOfScope.test(op) && !(op in SDK_OPERATIONS));
    expect(missing).toEqual([]);
    for (const [op, method] of Object.entries(SDK_OPERATIONS)) {
      expect(typeof (quire as unknown as Record<string, unknown>)[method]).toBe('function');
      expect(served).toContain(op);
    }
  });

  it('extract: from a path, Buffer, Uint8Array, stream and URL; sync and async give the same result', async () => {
    const file = path.join(tmp, 'report.pdf');
    fs.writeFileSync(file, pdf);
    const fromPath = await quire.extract(file, { pages: '1' });
    expect(fromPath.markdown).toContain('Invoice 2024-17');
    expect(fromPath.page_count).toBe(2);
    expect(fromPath.credits_used).toBe(1);
    const fromBuffer = await quire.extract(Buffer.from(pdf), {}, { filename: 'report.pdf' });
    expect(fromBuffer.markdown).toContain('Employment contract');
    const fromStream = await quire.extract(Readable.from([SAMPLE_HTML]), {}, { filename: 'report.html' });
    expect(fromStream.markdown).toContain('# Quarterly report');
    const progress: JobProgress[] = [];
    const pages: JobPageResult[] = [];
    const viaJob = await quire.extract(pdf, {}, { filename: 'report.pdf', async: true, onProgress: (p) => progress.push(p), onPage: (p) => pages.push(p) });
    expect(viaJob.markdown).toBe(fromBuffer.markdown);
    // each page's result as it was read, in order, even those done before the stream opened
    expect(pages.map((p) => [p.page, p.provisional])).toEqual([[1, true], [2, true]]);
    expect(pages[0].markdown).toContain('Invoice 2024-17');
    expect(pages[0].elements.length).toBeGreaterThan(0);
    expect(viaJob.extraction_id).not.toBe(fromBuffer.extraction_id);
    expect(progress.at(-1)?.status).toBe('completed');
    // a hosted document (POST /convert) is a URL the service accepts as file_url
    const hosted = await quire.convert(pdf, { filename: 'report.pdf' });
    expect(hosted).toMatchObject({ format: 'pdf', page_count: 2 });
    const fromUrl = await quire.extract(new URL(hosted.url));
    expect(fromUrl.markdown).toBe(fromBuffer.markdown);
  }, 120_000);

  it('figure images and large results: image bytes, and a result too large to inline is followed by its URL', async () => {
    const accepted = await quire.startExtract(pdf, { figure_processing: { show_images: true } }, { filename: 'report.pdf' });
    expect(accepted).toMatchObject({ status: 'pending', extraction_id: accepted.job_id });
    const job = await waitUntilSettled(accepted.job_id);
    expect(job.result).toMatchObject({ is_url: true });
    const result = await quire.resultOf<{ bounding_boxes: { Images: { image_url: string }[] } }>(job);
    const image = result.bounding_boxes.Images[0];
    const png = await quire.downloadImage(image.image_url);
    expect(Buffer.from(png.subarray(1, 4)).toString('latin1')).toBe('PNG');
    const again = await quire.downloadImage(accepted.job_id, path.basename(new URL(image.image_url).pathname));
    expect(Buffer.from(again).equals(Buffer.from(png))).toBe(true);
    const page = await quire.downloadPageImage(accepted.job_id, 1, { dpi: 72 });
    expect(Buffer.from(page.subarray(1, 4)).toString('latin1')).toBe('PNG');
    expect(Buffer.from(page).readUInt32BE(16)).toBeGreaterThan(100); // IHDR width in pixels
    const viaResults = await quire.getResult<{ page_count: number }>(accepted.job_id);
    expect(viaResults.page_count).toBe(2);
  }, 120_000);

  it('classify, split, schema, tables and charts chain on a saved extraction', async () => {
    const { extraction_id } = await quire.extract(pdf, {}, { filename: 'report.pdf' });
    const pipelines = [{ name: 'invoices', keywords: ['invoice', 'total due'] }, { name: 'contracts', keywords: ['contract', 'employee'] }];
    const classified = await quire.classify(pdf, { pipelines }, { filename: 'report.pdf' });
    expect(classified.pipeline_name).toBe('invoices');
    const byId = await quire.classify({ extraction_id: extraction_id! }, { pipelines }, { async: true });
    expect(byId.scores.length).toBe(2);

    const split = await quire.split({ extraction_id: extraction_id!, split_config: { split_input: [{ name: 'invoice', description: 'invoices and totals' }, { name: 'contract', description: 'employment contracts' }] } });
    expect(split.splits.map((s) => [s.name, s.pages])).toEqual([['invoice', [1]], ['contract', [2]]]);

    const input_schema = { type: 'object', properties: { invoice_number: { type: 'string', description: 'The invoice number' } } };
    const schema = await quire.schema({ extraction_id: extraction_id!, schema_config: { input_schema } }, { async: true });
    expect(schema.version).toBe(1);
    expect(schema.schema_output?.values).toHaveProperty('invoice_number');

    const tables = await quire.tables({ extraction_id: extraction_id!, tables_config: { table_format: 'json' } });
    expect(tables.tables_output.tables).toEqual([]);

    const book = await quire.extract(await makeXlsx(), {}, { filename: 'book.xlsx' });
    const charts = await quire.charts({ extraction_id: book.extraction_id! }, { async: true });
    expect(charts.charts.length).toBe(3);
    expect(charts.credits_used).toBe(3);
  }, 180_000);

  it('batch: extract files and a URL, then schema, tables and split over the batch', async () => {
    const hosted = await quire.convert(Buffer.from(SAMPLE_HTML), { filename: 'hosted.html' });
    const accepted = await quire.batchExtract([pdf, new URL(hosted.url)], {});
    expect(accepted.children).toHaveLength(2);
    const summary = await quire.waitForBatch(accepted.job_id, { poll: polls });
    expect(summary).toMatchObject({ total: 2, completed: 2, failed: 0 });
    const ids = { batch_id: accepted.job_id };
    for (const run of [
      () => quire.batchSchema({ ...ids, schema_config: { input_schema: { type: 'object', properties: { title: { type: 'string' } } } } }),
      () => quire.batchTables(ids),
      () => quire.batchSplit({ ...ids, split_config: { split_input: [{ name: 'report' }] } }),
    ]) {
      const child = await run();
      expect(await quire.waitForBatch(child.job_id, { poll: polls })).toMatchObject({ total: 2, completed: 2 });
    }
  }, 180_000);

  it('forms: detect from bytes, fill and clear by form_id chaining, PDFs downloaded', async () => {
    const form = await makeFillableForm();
    const detected = await quire.formDetect(form, {}, { filename: 'form.pdf' });
    expect(detected.form_fields.length).toBeGreaterThan(3);
    const filled = await quire.formFill({ form_id: detected.form_id }, 'Full name: Jane Doe', {}, { async: true });
    expect(filled.fields_filled).toBe(1);
    const pdfBytes = await quire.downloadPdf(filled.pdf_url);
    expect(Buffer.from(pdfBytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(Buffer.from(await quire.downloadPdf(filled.form_id)).equals(Buffer.from(pdfBytes))).toBe(true);
    const cleared = await quire.formClear({ form_id: filled.form_id });
    expect(cleared.fields_cleared).toBeGreaterThanOrEqual(1);
    const started = await quire.startForm('detect', { form_id: cleared.form_id });
    expect((await quire.waitForJob<{ form_id: string }>(started.job_id, { poll: polls })).form_id).toBe(started.job_id);
  }, 180_000);

  it('usage and the webhook portal link', async () => {
    const usage = await quire.usage({ granularity: 'month' });
    expect(usage.timeline.granularity).toBe('month');
    expect(usage.totals.pages).toBeGreaterThan(0);
    const portal = await quire.webhookPortal();
    expect(portal.link).toContain('/webhook-portal');
    expect(portal.expires_in).toBeGreaterThan(0);
  });

  it('errors are QuireError with the spec code, status and retryable', async () => {
    const anonymous = new Quire({ baseUrl: t.url, apiKey: 'qk_wrong' });
    const auth = await anonymous.usage().catch((e: unknown) => e);
    expect(auth).toBeInstanceOf(QuireError);
    expect(auth).toMatchObject({ code: 'AUTH_002', status: 401, retryable: false });
    const bad = await quire.extract(Buffer.from('%PDF-1.7 broken'), {}, { filename: 'broken.pdf' }).catch((e: unknown) => e);
    expect(bad).toMatchObject({ code: 'FILE_003', status: 400, retryable: false });
    const missing = await quire.getJob('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'JOB_001', status: 404 });
    const unreachable = new Quire({ baseUrl: 'http://127.0.0.1:9', apiKey: t.key, maxRetries: 1, retryBackoff: { initialMs: 1, maxMs: 2 } });
    expect(await unreachable.usage().catch((e: unknown) => e)).toMatchObject({ code: 'GENERAL_002', status: 0, retryable: true });
  });

  const waitUntilSettled = async (jobId: string) => {
    for (;;) {
      const job = await quire.getJob(jobId);
      if (['completed', 'failed', 'canceled', 'expired'].includes(job.status)) return job;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
});

describe('@quire/sdk: progress, cancellation and AbortSignal on a slow job', () => {
  let t: TestServer;
  let quire: Quire;
  const slow = defineJobHandler('extract', async (ctx) => {
    for (let i = 1; i <= 30; i++) {
      await new Promise((r) => setTimeout(r, 50));
      await ctx.checkpoint(i, 30);
    }
    return { result: { done: true }, credits: 1, pages: 1 };
  });
  beforeAll(async () => {
    t = await startTestServer({}, { handlers: { extract: slow } });
    quire = new Quire({ baseUrl: t.url, apiKey: t.key, poll: polls });
  }, 60_000);
  afterAll(() => t?.close());

  it('reports pages done as they advance (live events where served, else polling), then the result', async () => {
    const seen: JobProgress[] = [];
    const result = await quire.extract(Buffer.from(SAMPLE_HTML), {}, { filename: 'r.html', onProgress: (p) => seen.push(p) });
    expect(result).toEqual(expect.objectContaining({ done: true }));
    const counts = seen.map((p) => p.pages_done ?? 0);
    expect(counts.some((n) => n > 0 && n < 30)).toBe(true);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(seen.at(-1)).toMatchObject({ status: 'completed' });
  }, 60_000);

  it('cancelJob cancels; waiting on it then throws JOB_002', async () => {
    const accepted = await quire.startExtract(Buffer.from(SAMPLE_HTML), {}, { filename: 'r.html' });
    expect(await quire.cancelJob(accepted.job_id)).toMatchObject({ job_id: accepted.job_id, status: 'canceled' });
    await expect(quire.waitForJob(accepted.job_id)).rejects.toMatchObject({ code: 'JOB_002', jobId: accepted.job_id });
  }, 60_000);

  it('aborting the signal stops the wait and cancels the job it started', async () => {
    const controller = new AbortController();
    let jobId = '';
    const call = quire.extract(Buffer.from(SAMPLE_HTML), {}, {
      filename: 'r.html', signal: controller.signal,
      onProgress: (p) => { jobId = p.job_id; if ((p.pages_done ?? 0) > 0) controller.abort(new Error('stop')); },
    });
    await expect(call).rejects.toThrow('stop');
    expect((await quire.getJob(jobId)).status).toBe('canceled'); // the DELETE was sent before the call rejected
  }, 60_000);
});
