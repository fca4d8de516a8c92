import sharp from 'sharp';
import { admin, fleetEnvAvailable, fleetSkipMessage, startFleet, type Fleet } from '../../scripts/lib/fleet.mjs';
import { makeReportPdf } from '../fixtures/playground/report-pdf.js';

/**
 * Distributed mode: the gateway process (built dist/) serves the playground and draws page images
 * from the source document in S3 on its render thread, for a job worker-extract completed.
 */
if (!fleetEnvAvailable()) console.log(fleetSkipMessage('the distributed playground test'));
const maybe = fleetEnvAvailable() ? describe : describe.skip;

maybe('fleet: the gateway serves the playground and page images', () => {
  let fleet: Fleet;
  beforeAll(async () => { fleet = await startFleet({ workers: ['worker-extract'] }); }, 60_000);
  afterAll(async () => { await fleet?.close(); }, 60_000);

  it('serves the page and its bundle without a key, with a same-origin content policy', async () => {
    const page = await fetch(`${fleet.url}/playground`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(await page.text()).toContain('<script type="module" src="/playground/app.js">');
    const js = await fetch(`${fleet.url}/playground/app.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await js.text()).length).toBeGreaterThan(10_000);
    expect((await fetch(`${fleet.url}/playground/app.css`)).status).toBe(200);
    expect((await fetch(`${fleet.url}/playground/other.js`)).status).toBe(404);
  });

  it('draws page n of a job the worker completed, for the owning organization only', async () => {
    const body = new FormData();
    body.append('async', 'true');
    body.append('file', new Blob([Buffer.from(await makeReportPdf(2))], { type: 'application/pdf' }), 'report.pdf');
    const accepted = (await (await fleet.api('/extract', { method: 'POST', body })).json()) as { job_id: string };
    const deadline = Date.now() + 60_000;
    for (;;) {
      const job = (await (await fleet.api(`/job/${accepted.job_id}`)).json()) as { status: string };
      if (job.status === 'completed') break;
      if (['failed', 'canceled'].includes(job.status) || Date.now() > deadline) throw new Error(`job ${job.status}\n${fleet.gateway.output().slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const res = await fleet.api(`/results/${accepted.job_id}/pages/2.png?dpi=72`);
    expect(res.status).toBe(200);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 792, 612]);
    expect(res.headers.get('x-page-count')).toBe('2');
    const past = await fleet.api(`/results/${accepted.job_id}/pages/3.png`);
    expect(past.status).toBe(400);
    expect(((await past.json()) as any).error.code).toBe('REQ_006');
    const other = admin(fleet.env, 'org', 'create', 'playground-other');
    const { key } = admin(fleet.env, 'key', 'create', other.id);
    expect((await fleet.api(`/results/${accepted.job_id}/pages/1.png`, { key })).status).toBe(404);
  }, 120_000);
});
