import { PDFDocument, StandardFonts } from 'pdf-lib';
import { HOSTILE_RSS_GROWTH_LIMIT, measured } from '../support/bounds.js';
import { formWith, startTestServer, type TestServer } from '../support/embedded.js';

/**
 * Deeply nested input is invalid input: a 4xx on the first attempt, not a stack overflow answered 500
 * after the job's retries.
 */
describe('embedded: deep nesting is refused, not retried', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer(); });
  afterAll(() => t.close());

  it('HTML with 200,000 nested elements: the job fails with FILE_003 on its first attempt, and the server keeps serving', async () => {
    const html = `<html><body>${'<div>'.repeat(200_000)}deep${'</div>'.repeat(200_000)}</body></html>`;
    const { value: job, ms, rssGrowth } = await measured(async () => {
      const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes: html, name: 'deep.html', type: 'text/html' }, { async: 'true' }) });
      expect(res.status).toBe(202);
      const { job_id } = (await res.json()) as { job_id: string };
      let job = await t.server.ctx.store.jobs.get(job_id);
      while (job && !['completed', 'failed'].includes(job.status)) {
        await new Promise((r) => setTimeout(r, 50));
        job = await t.server.ctx.store.jobs.get(job_id);
      }
      return job;
    });
    expect(ms).toBeLessThan(30_000);
    expect(rssGrowth).toBeLessThan(HOSTILE_RSS_GROWTH_LIMIT);
    expect(job).toMatchObject({ status: 'failed', attempts: 1, error: expect.objectContaining({ code: 'FILE_003' }) });
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
  });

  it('a PDF with 200,000 nested graphics-state saves (q): a synchronous request answers FILE_003, and the server keeps serving', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    page.drawText('Outer', { x: 50, y: 700, size: 12, font: await doc.embedFont(StandardFonts.Helvetica) });
    const content = `${'q '.repeat(200_000)}BT /F1 12 Tf 50 600 Td (Inner) Tj ET ${'Q '.repeat(200_000)}`;
    page.node.addContentStream(doc.context.register(doc.context.flateStream(Buffer.from(content, 'latin1'))));
    const bytes = await doc.save();
    const { value: [res, body], ms, rssGrowth } = await measured(async () => {
      const r = await t.api('/extract', { method: 'POST', body: formWith({ bytes, name: 'nested.pdf', type: 'application/pdf' }) });
      return [r, (await r.json()) as { error: { code: string; message: string } }] as const;
    });
    expect(ms).toBeLessThan(20_000);
    expect(rssGrowth).toBeLessThan(HOSTILE_RSS_GROWTH_LIMIT);
    expect({ status: res.status, code: body.error.code }).toEqual({ status: 400, code: 'FILE_003' });
    expect(body.error.message).toMatch(/nests graphics states \(q\) 200000 deep, over the limit of 1000/);
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
  }, 120_000);
});
