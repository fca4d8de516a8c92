import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { ensureBuilt, type FleetService } from '../../scripts/lib/fleet.mjs';
import { SERVE_KEY, startServe } from '../support/serve-process.js';
import { formWith, SAMPLE_HTML } from '../support/embedded.js';

/**
 * What `quire serve` writes: JSON log lines only (the OCR engine's own output included, at debug level),
 * and every line about a job names its organization and the job, with the job's start and finish.
 */
describe('quire serve: job log lines', () => {
  let svc: FleetService;
  let url: string;
  let dataDir: string;
  beforeAll(async () => {
    await ensureBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-logs-'));
    ({ svc, url } = await startServe('logs', dataDir, { QUIRE_LOG_LEVEL: 'debug' }));
  }, 120_000);
  afterAll(async () => {
    await svc?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const lines = () => svc.output().split('\n').filter((l) => l.trim());
  const entries = () => lines().flatMap((l) => { try { return [JSON.parse(l) as Record<string, any>]; } catch { return []; } });
  async function until(cond: () => boolean): Promise<void> {
    while (!cond()) await new Promise((r) => setTimeout(r, 50));
  }

  it('logs acceptance, start and finish of a job with its org and job ids, and the request line names both', async () => {
    const res = await fetch(`${url}/extract`, { method: 'POST', headers: { 'x-api-key': SERVE_KEY }, body: formWith({ bytes: SAMPLE_HTML, name: 'r.html', type: 'text/html' }) });
    expect(res.status).toBe(200);
    const jobId = ((await res.json()) as { extraction_id: string }).extraction_id;
    await until(() => entries().some((e) => e.msg === 'request' && e.jobId === jobId));
    const about = entries().filter((e) => e.jobId === jobId);
    const byMsg = (m: string) => about.find((e) => e.msg === m);
    const orgId = byMsg('job accepted')?.orgId;
    expect(orgId).toEqual(expect.any(String));
    expect(byMsg('job started')).toEqual(expect.objectContaining({ orgId, jobId, kind: 'extract', attempt: 1 }));
    expect(byMsg('job finished')).toEqual(expect.objectContaining({ orgId, jobId, status: 'completed', pages: 1, credits: 1, ms: expect.any(Number) }));
    expect(byMsg('request')).toEqual(expect.objectContaining({ orgId, jobId, path: '/extract', status: 200 }));
  }, 120_000);

  it('writes nothing but JSON log lines while it works, the OCR engine included', async () => {
    const before = lines().length; // the start-up banner for people comes before
    const canvas = createCanvas(900, 300);
    const g = canvas.getContext('2d');
    g.fillStyle = '#fff';
    g.fillRect(0, 0, 900, 300);
    g.fillStyle = '#000';
    g.font = '32px sans-serif';
    g.fillText('Scanned résumé with naïve accents', 40, 120);
    g.fillText('A second line of text for the page', 40, 200);
    const res = await fetch(`${url}/extract`, { method: 'POST', headers: { 'x-api-key': SERVE_KEY }, body: formWith({ bytes: canvas.toBuffer('image/png'), name: 'scan.png', type: 'image/png' }) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { page_count: number }).page_count).toBe(1); // read by OCR (the image has no text layer)
    const notJson = lines().slice(before).filter((l) => { try { JSON.parse(l); return false; } catch { return true; } });
    expect(notJson).toEqual([]);
  }, 120_000);
});
