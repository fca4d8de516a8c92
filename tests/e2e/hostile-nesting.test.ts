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
    const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes: html, name: 'deep.html', type: 'text/html' }, { async: 'true' }) });
    expect(res.status).toBe(202);
    const { job_id } = (await res.json()) as { job_id: string };
    let job = await t.server.ctx.store.jobs.get(job_id);
    while (job && !['completed', 'failed'].includes(job.status)) {
      await new Promise((r) => setTimeout(r, 50));
      job = await t.server.ctx.store.jobs.get(job_id);
    }
    expect(job).toMatchObject({ status: 'failed', attempts: 1, error: expect.objectContaining({ code: 'FILE_003' }) });
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
  });
});
