import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { ensureBuilt, spawnService, type FleetService } from '../../scripts/lib/fleet.mjs';
import { makeXlsx } from '../fixtures/office/make-xlsx.js';
import { makeFillableForm } from '../fixtures/forms/make-forms.js';

/**
 * Embedded mode as shipped: `quire serve` from the built code in a child process, where job handlers
 * run on worker threads (QUIRE_JOB_THREADS). The servers the other e2e tests start inside jest run the
 * TypeScript source, which has no thread module to start, so their handlers run on the main thread.
 * Every answer here is compared with the same request to a second server whose handlers run on the
 * main thread (QUIRE_JOB_THREADS=0): the store, checkpoint and OCR calls a thread makes into its owning
 * process, and the result it stores itself, must give the same results, errors and cancellation.
 */
const KEY = 'qk_test_job_threads_0123456789abcdef';

interface Server { url: string; svc: FleetService; dataDir: string; api(p: string, init?: RequestInit): Promise<Response> }

async function serve(env: Record<string, string>): Promise<Server> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-threads-'));
  const svc = spawnService('serve', 'apps/cli/dist/main.js', {
    QUIRE_MODE: 'embedded', QUIRE_DATA_DIR: dataDir, QUIRE_HOST: '127.0.0.1', QUIRE_PORT: '0', QUIRE_BOOTSTRAP_API_KEY: KEY,
    QUIRE_LOG_LEVEL: 'warn', QUIRE_WORKER_CONCURRENCY: '2', QUIRE_OCR_WORKERS: '1', ...env,
  }, { args: ['serve'] });
  const { port } = await svc.ready;
  const url = `http://127.0.0.1:${port}`;
  return { url, svc, dataDir, api: (p, init = {}) => fetch(url + p, { ...init, headers: { 'x-api-key': KEY, ...(init.headers ?? {}) } }) };
}

async function textPdf(pages: number, linesPerPage = 12): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  for (let p = 1; p <= pages; p++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`Chapter ${p}`, { x: 72, y: 720, size: 20, font: bold });
    for (let i = 0; i < linesPerPage; i++) page.drawText(`Line ${i + 1} of page ${p}: threads keep the gateway answering.`, { x: 72, y: 680 - i * 16, size: 11, font });
  }
  return doc.save();
}

const upload = (bytes: Uint8Array, name: string, type: string, fields: Record<string, string> = {}) => {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  fd.append('file', new Blob([Buffer.from(bytes)], { type }), name);
  return fd;
};
const PDF = 'application/pdf';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A body with what differs between two servers by construction (job ids, their URLs, billing totals) taken out. */
function comparable(body: Record<string, unknown>): unknown {
  const ids = new Set(['extraction_id', 'tables_id', 'charts_id', 'form_id', 'job_id']);
  const idValues = Object.entries(body).filter(([k]) => ids.has(k)).map(([, v]) => String(v));
  let text = JSON.stringify(body, (k, v) => (k === 'plan_info' || ids.has(k) ? undefined : v));
  for (const id of idValues) text = text.split(id).join('<id>');
  return JSON.parse(text.replace(/http:\/\/127\.0\.0\.1:\d+/g, '<server>'));
}

describe('embedded mode with job handlers on worker threads (built code)', () => {
  let threads: Server;
  let main: Server;
  beforeAll(async () => {
    await ensureBuilt();
    [threads, main] = await Promise.all([serve({ QUIRE_JOB_THREADS: '2' }), serve({ QUIRE_JOB_THREADS: '0' })]);
  }, 120_000);
  afterAll(async () => {
    for (const s of [threads, main]) {
      if (!s) continue;
      await s.svc.stop();
      fs.rmSync(s.dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  /** The same request to both servers: status and comparable body must match. */
  async function both(p: string, init: () => RequestInit): Promise<[Record<string, any>, Record<string, any>]> {
    const [a, b] = await Promise.all([threads.api(p, init()), main.api(p, init())]);
    const [ja, jb] = await Promise.all([a.json(), b.json()]) as [Record<string, any>, Record<string, any>];
    expect({ status: a.status, body: comparable(ja) }).toEqual({ status: b.status, body: comparable(jb) });
    return [ja, jb];
  }

  it('extracts a PDF and chains /tables on it with the same results as on the main thread', async () => {
    const pdf = await textPdf(3);
    const [ta, tb] = await both('/extract', () => ({ method: 'POST', body: upload(pdf, 'doc.pdf', PDF) }));
    expect(ta.markdown).toContain('Line 12 of page 3');
    const [xa, xb] = await Promise.all([
      threads.api('/tables', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ extraction_id: ta.extraction_id }) }),
      main.api('/tables', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ extraction_id: tb.extraction_id }) }),
    ]);
    expect(xa.status).toBe(200);
    expect(comparable(await xa.json() as Record<string, unknown>)).toEqual(comparable(await xb.json() as Record<string, unknown>));
  }, 120_000);

  it('extracts an XLSX (tables, charts, pictures) and reconstructs its charts the same way', async () => {
    const xlsx = await makeXlsx();
    const [a, b] = await both('/extract', () => ({ method: 'POST', body: upload(xlsx, 'book.xlsx', XLSX) }));
    expect(a.markdown).toContain('Sales Report');
    const [ca, cb] = await Promise.all([
      threads.api('/charts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ extraction_id: a.extraction_id }) }),
      main.api('/charts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ extraction_id: b.extraction_id }) }),
    ]);
    const charts = await ca.json() as Record<string, any>;
    expect(ca.status).toBe(200);
    expect(charts.charts.length).toBeGreaterThan(0);
    expect(comparable(charts)).toEqual(comparable(await cb.json() as Record<string, unknown>));
  }, 120_000);

  it('detects form fields (the result PDF written by the thread\'s own blob store client) the same way', async () => {
    const form = await makeFillableForm();
    const [a] = await both('/form/detect', () => ({ method: 'POST', body: upload(form, 'form.pdf', PDF) }));
    expect(a.form_fields.length).toBeGreaterThan(0);
    const pdf = await threads.api(`/results/${a.form_id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
  }, 120_000);

  it('fails a job with the same error code when the handler throws on the thread', async () => {
    // a spreadsheet whose workbook part is not XML: the gateway accepts it (zip entries), the reader fails
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>');
    zip.file('xl/workbook.xml', 'this is not < xml');
    zip.file('xl/worksheets/sheet1.xml', 'nor <is this');
    const broken = await zip.generateAsync({ type: 'uint8array' });
    const [a] = await both('/extract', () => ({ method: 'POST', body: upload(broken, 'broken.xlsx', XLSX) }));
    expect(a.error?.code).toMatch(/^(FILE|PROC)_/);
  }, 120_000);

  it('cancels a job that is processing on a thread at its next page', async () => {
    const pdf = await textPdf(150, 40);
    const res = await threads.api('/extract', { method: 'POST', body: upload(pdf, 'long.pdf', PDF, { async: 'true' }) });
    expect(res.status).toBe(202);
    const { job_id: id } = await res.json() as { job_id: string };
    let job: Record<string, any> = {};
    for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
      job = await (await threads.api(`/job/${id}`)).json() as Record<string, any>;
      if (job.status !== 'pending' && job.status !== 'queued' && (job.status !== 'processing' || job.progress?.pages_done >= 1)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(job.status).toBe('processing');
    expect((await threads.api(`/job/${id}`, { method: 'DELETE' })).status).toBe(200);
    // the thread reaches a page boundary and its handler stops with JobStoppedError, counted as canceled
    // (a run that finished would count as completed, and this wait would run into the test's timeout)
    const stopped = /^quire_job_duration_seconds_count{kind="extract",status="canceled"} 1$/m;
    while (!stopped.test(await (await fetch(`${threads.url}/metrics`)).text())) await new Promise((r) => setTimeout(r, 50));
    const after = await (await threads.api(`/job/${id}`)).json() as Record<string, any>;
    expect(after.status).toBe('canceled');
    expect(after.result).toBeUndefined();
    expect(after.progress.pages_done).toBeLessThan(150);
  }, 120_000);

  it('reports its job threads in /metrics', async () => {
    const metric = async (s: Server) => Number(/^quire_job_threads (\d+)$/m.exec(await (await fetch(`${s.url}/metrics`)).text())?.[1]);
    expect(await metric(threads)).toBeGreaterThanOrEqual(1);
    expect(await metric(main)).toBe(0);
  });
});
