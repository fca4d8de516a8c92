import { QuireError, type JobStatus } from '@quire/core';
import { RetentionSweeper, defineJobHandler } from '@quire/jobs';
import { startTestServer, formWith, pollJob, SAMPLE_HTML, type TestServer } from '../support/embedded.js';

/** Ids of jobs whose slow handler has returned or thrown (a canceled one stops at its next checkpoint). */
const handlerDone = new Set<string>();

/** A controllable job: walks `pages` checkpoints slowly, so cancel and timeouts can land mid-flight. */
const slowHandler = (pages: number, stepMs: number) => defineJobHandler('extract', async (ctx) => {
  try {
    for (let i = 1; i <= pages; i++) {
      await new Promise((r) => setTimeout(r, stepMs));
      await ctx.checkpoint(i, pages);
    }
    return { result: { done: true, pages }, credits: pages, pages };
  } finally {
    handlerDone.add(ctx.job.id);
  }
});

/** Resolves once `cond` holds, checking every 20 ms (the test's timeout bounds the wait). */
async function until(cond: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await cond())) await new Promise((r) => setTimeout(r, 20));
}

describe('embedded: jobs through HTTP', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ QUIRE_INLINE_RESULT_LIMIT_BYTES: '200000', QUIRE_RESULT_ROW_LIMIT_BYTES: '20000', QUIRE_SYNC_WAIT_SECONDS: '20' });
  });
  afterAll(() => t.close());

  const extract = (fields: Record<string, string> = {}, key?: string) =>
    t.api('/extract', { method: 'POST', body: formWith({ bytes: SAMPLE_HTML, name: 'report.html', type: 'text/html' }, fields), key });

  it('sync extract returns the result with credits_used and plan_info', async () => {
    const res = await extract();
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, any>;
    expect(body.extraction_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.markdown).toContain('# Quarterly report');
    expect(body.markdown).toContain('North');
    expect(body.page_count).toBe(1);
    expect(body.credits_used).toBe(1);
    expect(body.plan_info).toEqual(expect.objectContaining({ tier: 'self-hosted', pages_used: expect.any(Number), total_credits_used: expect.any(Number) }));
  });

  it('async extract: 202 pending, then the Job shape with the same result; events written to the outbox', async () => {
    const res = await extract({ async: 'true' });
    expect(res.status).toBe(202);
    const acc = (await res.json()) as Record<string, any>;
    expect(acc).toEqual(expect.objectContaining({ job_id: expect.any(String), status: 'pending', message: expect.any(String), queuedAt: expect.any(String) }));
    expect(acc.extraction_id).toBe(acc.job_id);
    const job = await pollJob(t, acc.job_id) as Record<string, any>;
    expect(job.status).toBe('completed');
    expect(job.created_at).toEqual(expect.any(String));
    expect(job.completed_at).toEqual(expect.any(String));
    expect(job.result.extraction_id).toBe(acc.job_id);
    expect(job.result.markdown).toContain('Quarterly report');
    const events = await t.server.ctx.store.outbox.listForJob(acc.job_id);
    expect(events.map((e) => e.type)).toEqual(['job.created', 'job.processing', 'job.completed']);
    expect(events[2].payload).toEqual(expect.objectContaining({ type: 'job.completed', timestamp: expect.any(String), data: expect.objectContaining({ job_id: acc.job_id, status: 'completed', pages_processed: 1 }) }));
  });

  it('legacy POST /extract_async answers 202 with a message', async () => {
    const res = await t.api('/extract_async', { method: 'POST', body: formWith({ bytes: SAMPLE_HTML, name: 'r.html' }) });
    expect(res.status).toBe(202);
    expect(((await res.json()) as { message: string }).message).toMatch(/poll/i);
  });

  it('organization isolation: another organization sees neither the job nor its results', async () => {
    const acc = (await (await extract({ async: 'true' })).json()) as { job_id: string };
    await pollJob(t, acc.job_id);
    const org = await t.server.ctx.store.orgs.create({ name: 'intruder' });
    const { key } = await t.server.ctx.store.keys.create(org.id);
    const job = await t.api(`/job/${acc.job_id}`, { key });
    expect([job.status, ((await job.json()) as any).error.code]).toEqual([404, 'JOB_001']);
    const results = await t.api(`/results/${acc.job_id}`, { key });
    expect([results.status, ((await results.json()) as any).error.code]).toEqual([404, 'STORAGE_002']);
    const del = await t.api(`/job/${acc.job_id}`, { method: 'DELETE', key });
    expect(del.status).toBe(404);
  });

  it('a credit cap rejects the request before processing, and nothing is charged', async () => {
    const store = t.server.ctx.store;
    const org = await store.orgs.create({ name: 'capped' });
    const { key, record } = await store.keys.create(org.id, { creditCap: 0.5 });
    const res = await extract({}, key);
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).error.code).toBe('BILLING_004');
    const k = await store.keys.get(record.id);
    expect([k!.credits_used, k!.credits_reserved]).toEqual([0, 0]);
    expect(await store.ledger.totals(org.id)).toEqual({ credits: 0, pages: 0, documents: 0 });
    const jobs = await store.sql.query('SELECT id FROM jobs WHERE org_id = $1', [org.id]);
    expect(jobs.rows).toHaveLength(0);
  });

  it('a plan page limit answers BILLING_002', async () => {
    const store = t.server.ctx.store;
    const org = await store.orgs.create({ name: 'limited', page_limit: 0 });
    const { key } = await store.keys.create(org.id);
    const res = await extract({}, key);
    expect([res.status, ((await res.json()) as any).error.code]).toEqual([403, 'BILLING_002']);
  });

  it('a result of the inline limit or more becomes a single-use URL, served to its organization', async () => {
    const big = `<html><body>${'<p>' + 'lorem ipsum dolor sit amet '.repeat(400) + '</p>'.repeat(1)}`.repeat(30) + '</body></html>';
    const acc = (await (await t.api('/extract', { method: 'POST', body: formWith({ bytes: big, name: 'big.html' }, { async: 'true' }) })).json()) as { job_id: string };
    const job = (await pollJob(t, acc.job_id)) as any;
    expect(job.result.is_url).toBe(true);
    const url = new URL(job.result.url);
    const first = await t.api(url.pathname + url.search);
    expect(first.status).toBe(200);
    expect(((await first.json()) as any).markdown).toContain('lorem ipsum');
    const second = await t.api(url.pathname + url.search);
    expect([second.status, ((await second.json()) as any).error.code]).toEqual([404, 'STORAGE_002']);
    expect((await t.api(url.pathname)).status).toBe(200); // the organization can still fetch it with its key
  });

  it('a result over the row limit is kept in the blob store, out of the job row, and still delivered inline', async () => {
    const { store, blobs, log } = t.server.ctx;
    const medium = `<html><body>${'<p>' + 'lorem ipsum dolor sit amet '.repeat(200) + '</p>'}`.repeat(4) + '</body></html>';
    const sync = await t.api('/extract', { method: 'POST', body: formWith({ bytes: medium, name: 'medium.html' }) });
    expect(sync.status).toBe(200);
    expect(sync.headers.get('content-type')).toMatch(/^application\/json/);
    const syncBody = (await sync.json()) as any;
    expect(syncBody.markdown).toContain('lorem ipsum');
    expect(syncBody.credits_used).toBe(1);

    const acc = (await (await t.api('/extract', { method: 'POST', body: formWith({ bytes: medium, name: 'medium.html' }, { async: 'true' }) })).json()) as { job_id: string };
    const job = (await pollJob(t, acc.job_id)) as any;
    expect(job.result.is_url).toBeUndefined();
    expect(job.result.extraction_id).toBe(acc.job_id);
    expect(job.result.markdown).toBe(syncBody.markdown);
    expect(job.result.plan_info).toEqual(expect.objectContaining({ tier: 'self-hosted' }));
    expect(Object.keys(job).filter((k) => k !== 'progress')).toEqual(['job_id', 'status', 'kind', 'created_at', 'updated_at', 'completed_at', 'result']);
    const row = await store.jobs.get(acc.job_id);
    expect(row!.result).toBeNull();
    expect(row!.result_blob).toBeNull();
    const stored = Buffer.from(await blobs.getBytes(row!.result_inline_blob!));
    expect(stored.length).toBeGreaterThanOrEqual(20000);
    expect(stored.length).toBeLessThan(200000);
    expect(JSON.parse(stored.toString('utf8'))).toEqual(job.result);
    // served again (from the completed-job cache) and by GET /results with the organization's key
    expect(((await (await t.api(`/job/${acc.job_id}`)).json()) as any).result).toEqual(job.result);
    const results = await t.api(`/results/${acc.job_id}`);
    expect(results.status).toBe(200);
    expect(await results.json()).toEqual(job.result);

    // a small result stays in the row
    const small = (await (await extract({ async: 'true' })).json()) as { job_id: string };
    await pollJob(t, small.job_id);
    const smallRow = await store.jobs.get(small.job_id);
    expect(smallRow!.result_inline_blob).toBeNull();
    expect((smallRow!.result as any).extraction_id).toBe(small.job_id);

    // retention removes the stored result with the job's other blobs
    await new RetentionSweeper(store, blobs, log).expire(row!);
    expect(await blobs.head(row!.result_inline_blob!)).toBeNull();
    const after = await store.jobs.get(acc.job_id);
    expect([after!.status, after!.result_inline_blob]).toEqual(['expired', null]);
  });

  it('retention: a swept job is expired (JOB_003 410) and its artifacts are gone', async () => {
    const acc = (await (await extract({ async: 'true' })).json()) as { job_id: string };
    await pollJob(t, acc.job_id);
    const { store, blobs, log } = t.server.ctx;
    const sweeper = new RetentionSweeper(store, blobs, log);
    expect(await sweeper.sweepOnce(new Date(Date.now() + 49 * 3600_000))).toBeGreaterThanOrEqual(1);
    const res = await t.api(`/job/${acc.job_id}`);
    expect([res.status, ((await res.json()) as any).error.code]).toEqual([410, 'JOB_003']);
    const job = await store.jobs.get(acc.job_id);
    expect(await blobs.head(`${job!.org_id}/${acc.job_id}/source`)).toBeNull();
  });

  it('GET /usage reports totals and a timeline', async () => {
    const res = await t.api('/usage?granularity=day');
    expect(res.status).toBe(200);
    const u = (await res.json()) as any;
    expect(u.totals.credits).toBeGreaterThan(0);
    expect(u.timeline.granularity).toBe('day');
    expect(u.timeline.buckets.length).toBeGreaterThan(20);
    expect(u.billing_period).toEqual(expect.objectContaining({ start: expect.any(String), end: expect.any(String) }));
    expect((await t.api('/usage?granularity=year')).status).toBe(400);
  });

  it('operations endpoints: healthz, readyz, metrics, openapi, docs', async () => {
    expect((await t.api('/healthz', { key: null })).status).toBe(200);
    const ready = (await (await t.api('/readyz', { key: null })).json()) as any;
    expect(ready.checks).toEqual({ database: 'ok', queue: 'ok', blobs: 'ok' });
    const metrics = await (await t.api('/metrics', { key: null })).text();
    expect(metrics).toContain('quire_http_request_duration_seconds_bucket');
    expect(metrics).toContain('quire_queue_depth');
    const oas = (await (await t.api('/openapi.json', { key: null })).json()) as any;
    expect(oas.openapi).toBe('3.1.0');
    expect(oas.info.version).toBe('0.1.0');
    for (const p of ['/extract', '/schema', '/tables', '/form/fill', '/job/{jobId}', '/results/{jobId}/pdf', '/usage', '/cancel/{jobId}', '/convert', '/webhook', '/batch/extract', '/batch/schema', '/charts', '/webhook-portal/api/endpoints', '/webhook-portal/api/endpoints/{id}/deliveries']) expect(oas.paths[p]).toBeDefined();
    expect(oas.paths['/webhook-portal/api/endpoints'].post.security).toEqual([{ portalToken: [] }]);
    expect(oas.paths['/charts'].post.summary).not.toContain('not implemented');
    expect(await (await t.api('/docs', { key: null })).text()).toContain('/docs/assets/swagger-ui-bundle.js'); // renders /openapi.json (routes/docs.test.ts)
  });
});

describe('embedded: the job state machine with a controllable job', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ QUIRE_SYNC_WAIT_SECONDS: '1' }, { handlers: { extract: slowHandler(40, 100) } });
  });
  afterAll(() => t.close());

  const submit = async (fields: Record<string, string>) =>
    t.api('/extract', { method: 'POST', body: formWith({ bytes: SAMPLE_HTML, name: 'r.html' }, fields) });

  it('cancel during processing: canceled stays canceled, progress stops, a second DELETE is JOB_002', async () => {
    const acc = (await (await submit({ async: 'true' })).json()) as { job_id: string };
    const store = t.server.ctx.store;
    const jobView = async () => (await (await t.api(`/job/${acc.job_id}`)).json()) as any;
    await until(async () => ((await jobView()).progress?.pages_done ?? 0) > 0);
    const view = await jobView();
    expect(view.status).toBe('processing');
    expect(view.progress.pages_done).toBeGreaterThan(0);
    const del = await t.api(`/job/${acc.job_id}`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect(((await del.json()) as any).status).toBe('canceled');
    await until(() => handlerDone.has(acc.job_id)); // the worker reaches its next checkpoint and stops
    const after = await store.jobs.get(acc.job_id);
    expect(after!.status).toBe('canceled' satisfies JobStatus);
    expect(after!.result).toBeNull();
    const again = await t.api(`/job/${acc.job_id}`, { method: 'DELETE' });
    expect([again.status, ((await again.json()) as any).error.code]).toEqual([409, 'JOB_002']);
    const legacy = await t.api(`/cancel/${acc.job_id}`, { method: 'POST' });
    expect(legacy.status).toBe(409);
    expect((await store.outbox.listForJob(acc.job_id)).map((e) => e.type)).toEqual(['job.created', 'job.processing', 'job.cancelled']);
  });

  it('a sync call past the wait limit is canceled and answered PROC_002', async () => {
    const res = await submit({});
    const body = (await res.json()) as any;
    expect([res.status, body.error.code]).toEqual([408, 'PROC_002']);
    const job = await t.server.ctx.store.jobs.get(body.error.details.job_id);
    expect(job!.status).toBe('canceled');
  });
});

describe('embedded: cancel reaches a job between checkpoints', () => {
  let t: TestServer;
  let onStart!: (jobId: string) => void;
  const started = new Promise<string>((r) => { onStart = r; });
  let onStop!: (reason: unknown) => void;
  const stopped = new Promise<unknown>((r) => { onStop = r; });
  // a job that makes no checkpoint: only its signal can tell it to stop
  const waitsForSignal = defineJobHandler('extract', async (ctx) => {
    onStart(ctx.job.id);
    if (!ctx.signal.aborted) await new Promise((r) => ctx.signal.addEventListener('abort', r, { once: true }));
    onStop(ctx.signal.reason);
    throw ctx.signal.reason;
  });
  beforeAll(async () => { t = await startTestServer({}, { handlers: { extract: waitsForSignal } }); });
  afterAll(() => t.close());

  it('DELETE /job fires the job\'s signal with a canceled stop, and the job stays canceled', async () => {
    const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes: SAMPLE_HTML, name: 'r.html' }, { async: 'true' }) });
    const { job_id: jobId } = (await res.json()) as { job_id: string };
    expect(await started).toBe(jobId);
    const del = await t.api(`/job/${jobId}`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect(await stopped).toMatchObject({ name: 'JobStoppedError', status: 'canceled' });
    expect((await pollJob(t, jobId)).status).toBe('canceled');
  });
});

describe('embedded: retries only for retryable codes', () => {
  let t: TestServer;
  const calls = new Map<string, number>();
  // "flaky.html" fails once with a retryable code; "broken.html" always fails with a non-retryable one.
  const handler = defineJobHandler('extract', async (ctx) => {
    const name = String(ctx.job.input.filename);
    calls.set(name, (calls.get(name) ?? 0) + 1);
    if (name === 'broken.html') throw new QuireError('FILE_003', 'bad file');
    if (calls.get(name) === 1) throw new QuireError('PROC_003', 'temporarily unavailable');
    return { result: { ok: true }, credits: 1, pages: 1 };
  });
  beforeAll(async () => { t = await startTestServer({}, { handlers: { extract: handler } }); });
  afterAll(() => t.close());

  const submit = async (name: string) => {
    const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes: SAMPLE_HTML, name }, { async: 'true' }) });
    return pollJob(t, ((await res.json()) as any).job_id) as Promise<any>;
  };

  it('retries a retryable failure and then completes', async () => {
    const job = await submit('flaky.html');
    expect(job.status).toBe('completed');
    expect(calls.get('flaky.html')).toBe(2);
  });

  it('fails a non-retryable error at once, with its code, and charges nothing', async () => {
    const job = await submit('broken.html');
    expect([job.status, job.error_code]).toEqual(['failed', 'FILE_003']);
    expect(calls.get('broken.html')).toBe(1);
    const row = await t.server.ctx.store.jobs.get(job.job_id);
    expect(Number(row!.credits_used)).toBe(0);
    const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes: SAMPLE_HTML, name: 'broken.html' }) });
    expect([res.status, ((await res.json()) as any).error.code]).toEqual([400, 'FILE_003']);
  });
});
