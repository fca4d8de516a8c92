import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InProcessJobEventBus, InProcessJobQueue, JOB_CATALOG } from '@quire/queue';
import { FsBlobStore, MetadataStore, PgliteSqlClient } from '@quire/storage';
import { loadConfig, createLogger, Metrics } from '@quire/runtime';
import { JobStoppedError, type ClaimedJobContext, type JobOutcome } from './job-handler.js';

/** The runner's side of a handler: the claimed job as stored (defineJobHandler would check its payload). */
type JobHandler = (ctx: ClaimedJobContext) => Promise<JobOutcome>;
import { JobRunner } from './job-runner.js';
import { migratedPgliteTemplate } from '../../../tests/support/pglite-template.js';

describe('JobRunner', () => {
  let store: MetadataStore;
  let dir: string;
  beforeAll(async () => {
    const sql = await PgliteSqlClient.open(undefined, await migratedPgliteTemplate());
    store = new MetadataStore(sql);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-runner-'));
  });
  afterAll(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function setUp(handler: JobHandler, env: Record<string, string> = {}, request: Record<string, unknown> = {}) {
    const org = await store.orgs.create({ name: 'runner' });
    const id = crypto.randomUUID();
    await store.jobs.create({ id, org_id: org.id, key_id: null, kind: 'extract', request, input: {}, credits_reserved: 0, expires_at: new Date(Date.now() + 3_600_000) });
    const blobs = new FsBlobStore({ root: dir });
    const queue = new InProcessJobQueue();
    const runner = new JobRunner({ store, blobs, queue, events: new InProcessJobEventBus(), config: loadConfig(env), log: createLogger('silent'), metrics: new Metrics(), services: { languageModel: {} as never } }, { extract: handler });
    return { id, blobs, queue, handled: () => runner.handle({ jobId: id, kind: 'extract' }).finally(() => queue.close()) };
  }
  async function runWith(handler: JobHandler, env: Record<string, string> = {}, request: Record<string, unknown> = {}) {
    const { id, blobs, handled } = await setUp(handler, env, request);
    await handled();
    return { job: (await store.jobs.get(id))!, blobs };
  }
  const returning = (result: Record<string, unknown>, more: { preferUrlDelivery?: boolean } = {}): JobHandler => async () => ({ result, credits: 2, pages: 1, ...more });

  describe('errors that are not Quire errors', () => {
    const overflow = (): number => 1 + overflow();
    it('a stack overflow (input nested too deep) fails at once as FILE_003, without retries', async () => {
      const { job } = await runWith(async () => { overflow(); throw new Error('unreachable'); });
      expect(job.status).toBe('failed');
      expect(job.attempts).toBe(1);
      expect(job.error).toMatchObject({ code: 'FILE_003', details: { reason: 'too_deep' } });
    });
    it('a TypeError (the same input fails the same way) fails at once as GENERAL_001', async () => {
      const { job } = await runWith(async () => { (undefined as unknown as { x: () => void }).x(); throw new Error('unreachable'); });
      expect({ status: job.status, attempts: job.attempts, code: job.error?.code }).toEqual({ status: 'failed', attempts: 1, code: 'GENERAL_001' });
    });
    it('any other crash may pass on another attempt: GENERAL_001, retried', async () => {
      const { job } = await runWith(async () => { throw new Error('job thread exited (code 1)'); });
      expect({ status: job.status, code: job.error?.code }).toEqual({ status: 'pending', code: 'GENERAL_001' });
    });
  });

  it('stores the result with credits_used and plan_info', async () => {
    const { job } = await runWith(returning({ markdown: '# Title', chunks: [{ content: 'é' }] }));
    expect(job.status).toBe('completed');
    expect(job.result).toMatchObject({ markdown: '# Title', chunks: [{ content: 'é' }], credits_used: 2, plan_info: { tier: expect.any(String), total_credits_used: 2, pages_used: 1 } });
    const empty = await runWith(returning({}));
    expect(Object.keys(empty.job.result as object).sort()).toEqual(['credits_used', 'plan_info']);
  });

  it('puts a large result in the blob store (inline delivery), a larger one or an async request that prefers it behind a URL', async () => {
    const big = { text: 'y'.repeat(300_000) };
    const inline = await runWith(returning(big));
    expect([inline.job.result, inline.job.result_blob]).toEqual([null, null]); // over the row limit, under the URL limit
    expect(JSON.parse(Buffer.from(await inline.blobs.getBytes(inline.job.result_inline_blob!)).toString('utf8'))).toMatchObject({ ...big, credits_used: 2 });
    const url = await runWith(returning({ text: 'x'.repeat(5000) }), { QUIRE_INLINE_RESULT_LIMIT_BYTES: '1000' });
    expect([url.job.result, url.job.result_inline_blob, typeof url.job.result_token]).toEqual([null, null, 'string']);
    expect(JSON.parse(Buffer.from(await url.blobs.getBytes(url.job.result_blob!)).toString('utf8'))).toMatchObject({ text: 'x'.repeat(5000), credits_used: 2 });
    const asked = await runWith(returning({ small: true }, { preferUrlDelivery: true }), {}, { async: true });
    expect(asked.job.result_blob).toBe(`${asked.job.org_id}/${asked.job.id}/result.json`);
    const syncAsked = await runWith(returning({ small: true }, { preferUrlDelivery: true }));
    expect(syncAsked.job.result).toMatchObject({ small: true });
  });

  /** A handler that waits for its signal and ends with its reason; `started` resolves when it runs. */
  function waitingForSignal() {
    let onStart!: (ctx: ClaimedJobContext) => void;
    const started = new Promise<ClaimedJobContext>((r) => { onStart = r; });
    const handler: JobHandler = async (ctx) => {
      onStart(ctx);
      if (!ctx.signal.aborted) await new Promise((r) => ctx.signal.addEventListener('abort', r, { once: true }));
      throw ctx.signal.reason;
    };
    return { handler, started };
  }

  it('a cancel fires the running job\'s signal: the job stops, stays canceled, and nothing is stored', async () => {
    const { handler, started } = waitingForSignal();
    const { id, queue, blobs, handled } = await setUp(handler);
    const done = handled();
    const ctx = await started;
    // what JobService.cancel does: the canceled state, then the settled notification every process hears
    await store.jobs.transition(id, 'canceled');
    await queue.publishSettled(id);
    await done;
    expect(ctx.signal.reason).toEqual(new JobStoppedError('canceled'));
    expect((await store.jobs.get(id))!.status).toBe('canceled');
    expect(await blobs.head(`${ctx.job.org_id}/${id}/result.json`)).toBeNull();
  });

  it('a job past its time limit (the catalog\'s, its only one) has its signal fired with PROC_002 and ends with that code', async () => {
    const spec = JOB_CATALOG.extract as { timeoutMs: number };
    const catalogLimit = spec.timeoutMs;
    spec.timeoutMs = 300;
    try {
      const { handler, started } = waitingForSignal();
      const { id, handled } = await setUp(handler);
      await handled();
      expect((await started).signal.reason).toMatchObject({ code: 'PROC_002' });
      expect((await store.jobs.get(id))!.error).toMatchObject({ code: 'PROC_002' });
    } finally {
      spec.timeoutMs = catalogLimit;
    }
  });

  it('a checkpoint that finds the job canceled fires its signal', async () => {
    let seen: AbortSignal | undefined;
    const { id, handled } = await setUp(async (ctx) => {
      seen = ctx.signal;
      await store.jobs.transition(ctx.job.id, 'canceled');
      await ctx.checkpoint(1, 2);
      return { result: {}, credits: 1, pages: 1 };
    });
    await handled();
    expect(seen!.reason).toEqual(new JobStoppedError('canceled'));
    expect((await store.jobs.get(id))!.status).toBe('canceled');
  });
});
