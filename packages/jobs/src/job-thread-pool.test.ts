import type { OcrEngine } from '@quire/core';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { QuireError } from '@quire/core';
import { InProcessJobEventBus, InProcessJobQueue } from '@quire/queue';
import { FsBlobStore, MetadataStore, PgliteSqlClient, type JobRecord, type Organization } from '@quire/storage';
import { ensureBuilt } from '../../../scripts/lib/fleet.mjs';
import { migratedPgliteTemplate } from '../../../tests/support/pglite-template.js';
import { loadConfig, createLogger, Metrics, type Logger } from '@quire/runtime';
import { JobStoppedError, type ClaimedJobContext } from './job-handler.js';
import { JobRunner } from './job-runner.js';
import { JobThreadPool } from './job-thread-pool.js';
import type { ResultPlan, StoredJobOutcome } from './result-placement.js';

/**
 * A job thread that dies (process.exit in the thread, an error thrown outside any handler, an unhandled
 * rejection) must not take the pool or the jobs that come after it down: the jobs it held fail with an
 * ordinary error (which the runner retries as GENERAL_001, the spec's retryable internal error), a new
 * thread takes the next job, and nothing is left counted as running. A job told to stop that goes on
 * has its thread terminated and replaced. The thread module is tests/fixtures/job-threads/crash-entry.mjs
 * over the built runtime (threads run JavaScript).
 */
const ENTRY = pathToFileURL(path.resolve('tests/fixtures/job-threads/crash-entry.mjs'));
// the threads open their own blob store from the settings: a data directory of the tests' own
const DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-thread-pool-'));
const config = loadConfig({ QUIRE_LOG_LEVEL: 'silent', QUIRE_DATA_DIR: DATA_DIR });
const dataBlobs = new FsBlobStore({ root: path.join(DATA_DIR, 'blobs') });
afterAll(() => fs.rmSync(DATA_DIR, { recursive: true, force: true }));

function recordingLog(): Logger & { errors: unknown[] } {
  const errors: unknown[] = [];
  const base = createLogger('silent');
  return Object.assign(Object.create(base) as Logger, { errors, error: (...a: unknown[]) => { errors.push(a[0]); } });
}

const billing = { tier: 'test', credits: 10, pages: 5, pageLimit: null, periodEnd: '2030-01-31' };
const planFor = (key: string): ResultPlan => ({ billing, rowLimitBytes: 131_072, inlineLimitBytes: 5_242_880, async: false, blobKey: key });

let seq = 0;
interface Started { ctx: ClaimedJobContext; started: Promise<void> }
/** A job's context; `started` resolves at the handler's first checkpoint (every fixture handler makes one). */
const ctxFor = (input: Record<string, unknown>, over: Partial<ClaimedJobContext> = {}): Started => {
  const job = { id: `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`, kind: 'extract', input, org_id: 'o', request: {} } as unknown as JobRecord;
  let onStart!: () => void;
  const started = new Promise<void>((r) => { onStart = r; });
  const ctx: ClaimedJobContext = {
    job, org: { id: 'o' } as Organization, config, log: createLogger('silent'), blobPrefix: `o/${job.id}/`, services: { languageModel: {} as never },
    store: {} as never, blobs: {} as never, signal: new AbortController().signal, throwIfStopped: () => undefined,
    checkpoint: async () => { onStart(); },
    pagesReady: async () => undefined,
    ...over,
  };
  return { ctx, started };
};
/** The stored body: the job row's text, or the blob the thread wrote. */
async function body(o: Promise<StoredJobOutcome> | StoredJobOutcome): Promise<{ value: unknown; thread: number } & Record<string, unknown>> {
  const { placed } = await o;
  const text = 'row' in placed ? placed.row : Buffer.from(await dataBlobs.getBytes(placed.blob)).toString('utf8');
  return JSON.parse(text) as { value: unknown; thread: number };
}

beforeAll(async () => { await ensureBuilt(); }, 300_000);

describe('JobThreadPool when a thread dies', () => {
  let pool: JobThreadPool;
  let log: ReturnType<typeof recordingLog>;
  const counts: number[] = [];
  beforeEach(() => {
    log = recordingLog();
    counts.length = 0;
    pool = new JobThreadPool({ entry: ENTRY, size: 1, config, log, onThreadCount: (n) => counts.push(n) });
  });
  afterEach(() => pool.close());
  const run = (input: Record<string, unknown>) => pool.handler('extract').runAndStore(ctxFor(input).ctx, planFor(`o/${++seq}/result.json`));

  it.each([
    ['exits (process.exit in the thread)', { mode: 'exit', ms: 50 }, /job thread exited \(code 7\)/],
    ['throws outside any handler', { mode: 'throw-outside', ms: 50 }, /boom outside the handler/],
    ['has an unhandled rejection', { mode: 'stray-rejection' }, /nobody awaited this/],
  ])('%s: its jobs fail, a new thread runs the next job', async (_name, input, message) => {
    const first = await body(run({ value: 'before' }));
    expect(first.value).toBe('before');
    // the crashing job and a job sharing its thread (size 1) both fail with the thread's end
    const [crashed, neighbour] = await Promise.allSettled([run(input), run({ value: 'neighbour', ms: 2_000 })]);
    expect(crashed.status).toBe('rejected');
    expect((crashed as PromiseRejectedResult).reason.message).toMatch(message);
    expect(neighbour.status).toBe('rejected');
    expect(log.errors).toHaveLength(1);
    expect(pool.threadCount).toBe(0);
    // a later job gets a fresh thread and completes
    const after = await body(run({ value: 'after' }));
    expect(after.value).toBe('after');
    expect(after.thread).not.toBe(first.thread);
    expect(pool.threadCount).toBe(1);
    expect(counts).toEqual([1, 0, 1]);
  }, 60_000);

  it('a crash while other threads work leaves them alone', async () => {
    const two = new JobThreadPool({ entry: ENTRY, size: 2, config, log: createLogger('silent') });
    try {
      const slow = ctxFor({ value: 'slow', ms: 1_500 });
      const slowDone = two.handler('extract').runAndStore(slow.ctx, planFor('o/slow/result.json'));
      await slow.started; // the slow job holds thread 1; the crash gets thread 2
      await expect(two.handler('extract').runAndStore(ctxFor({ mode: 'exit' }).ctx, planFor('o/exit/result.json'))).rejects.toThrow(/exited/);
      expect((await body(slowDone)).value).toBe('slow');
      expect(two.threadCount).toBe(1);
    } finally {
      await two.close();
    }
  }, 60_000);
});

describe('JobThreadPool and memory', () => {
  it('a thread whose heap passes QUIRE_JOB_THREAD_MEMORY_MB is ended: its job fails with PROC_001 naming the setting, the next job gets a new thread', async () => {
    const small = loadConfig({ QUIRE_LOG_LEVEL: 'silent', QUIRE_DATA_DIR: DATA_DIR, QUIRE_JOB_THREAD_MEMORY_MB: '64' });
    const pool = new JobThreadPool({ entry: ENTRY, size: 1, config: small, log: createLogger('silent') });
    try {
      const e = await pool.handler('extract').runAndStore(ctxFor({ mode: 'hog' }, { config: small }).ctx, planFor('o/hog/result.json')).then(() => undefined, (err: unknown) => err);
      expect(e).toBeInstanceOf(QuireError);
      expect(e).toMatchObject({ code: 'PROC_001', retryable: true, details: { reason: 'out_of_memory', limitMb: 64 } });
      expect((e as Error).message).toContain('QUIRE_JOB_THREAD_MEMORY_MB=64');
      expect((await body(pool.handler('extract').runAndStore(ctxFor({ value: 'after' }, { config: small }).ctx, planFor('o/after/result.json')))).value).toBe('after');
    } finally {
      await pool.close();
    }
  }, 60_000);
});

describe('JobThreadPool and a job\'s signal', () => {
  it('a job that stops when told ends with the signal\'s reason, and its thread takes the next job', async () => {
    const pool = new JobThreadPool({ entry: ENTRY, size: 1, config, log: createLogger('silent') });
    try {
      const warm = await body(pool.handler('extract').runAndStore(ctxFor({ value: 'warm' }).ctx, planFor('o/w1/result.json')));
      const stop = new AbortController();
      const { ctx, started } = ctxFor({ mode: 'until-aborted' }, { signal: stop.signal });
      const stopped = pool.handler('extract').runAndStore(ctx, planFor('o/stopped/result.json'));
      await started;
      stop.abort(new JobStoppedError('canceled'));
      await expect(stopped).rejects.toEqual(new JobStoppedError('canceled'));
      const next = await body(pool.handler('extract').runAndStore(ctxFor({ value: 'next' }).ctx, planFor('o/w2/result.json')));
      expect(next.thread).toBe(warm.thread);
      expect(await dataBlobs.head('o/stopped/result.json')).toBeNull();
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('a synchronous loop that checks throwIfStopped stops when told, though its thread never reads the message: no thread is terminated', async () => {
    const counts: number[] = [];
    const pool = new JobThreadPool({ entry: ENTRY, size: 1, config, log: createLogger('silent'), abortGraceMs: 20_000, onThreadCount: (n) => counts.push(n) });
    try {
      const run = (s: Started, key: string) => pool.handler('extract').runAndStore(s.ctx, planFor(key));
      const warm = await body(run(ctxFor({ value: 'warm' }), 'o/sync-warm/result.json'));
      const stop = new AbortController();
      const busy = ctxFor({ mode: 'busy-until-stopped' }, { signal: stop.signal });
      const stopped = run(busy, 'o/sync-stopped/result.json');
      const behind = run(ctxFor({ value: 'behind' }), 'o/sync-behind/result.json'); // waits for the loop on the one thread
      await busy.started;
      const toldAt = Date.now();
      stop.abort(new QuireError('PROC_002', 'Processing took longer than 1 s'));
      await expect(stopped).rejects.toMatchObject({ code: 'PROC_002' });
      const after = await body(behind);
      // well before the 20 s grace period and the loop's own 30 s: the flag stopped it, not a termination
      expect(Date.now() - toldAt).toBeLessThan(10_000);
      expect(after.value).toBe('behind');
      expect(after.thread).toBe(warm.thread);
      expect(counts).toEqual([1]);
      expect(await dataBlobs.head('o/sync-stopped/result.json')).toBeNull();
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('a job that ignores its signal is terminated after the grace period: its thread is replaced, jobs behind it are freed', async () => {
    const counts: number[] = [];
    const pool = new JobThreadPool({ entry: ENTRY, size: 1, config, log: createLogger('silent'), abortGraceMs: 200, onThreadCount: (n) => counts.push(n) });
    try {
      const run = (s: Started, key: string) => pool.handler('extract').runAndStore(s.ctx, planFor(key));
      const warm = await body(run(ctxFor({ value: 'warm' }), 'o/warm/result.json'));
      const stop = new AbortController();
      const spinning = ctxFor({ mode: 'spin' }, { signal: stop.signal });
      const stuck = run(spinning, 'o/stuck/result.json');
      const behind = run(ctxFor({ value: 'behind' }), 'o/behind/result.json'); // same thread (size 1): would wait forever behind the loop
      await spinning.started;
      stop.abort(new QuireError('PROC_002', 'Processing took longer than 1 s'));
      await expect(stuck).rejects.toMatchObject({ code: 'PROC_002' });
      await expect(behind).rejects.toThrow(/terminated/);
      expect(counts).toEqual([1, 0, 1]); // replaced at once, not on the next job
      const later = await body(run(ctxFor({ value: 'later' }), 'o/later/result.json'));
      expect(later.value).toBe('later');
      expect(later.thread).not.toBe(warm.thread);
    } finally {
      await pool.close();
    }
  }, 60_000);
});

describe('JobThreadPool results and calls', () => {
  let pool: JobThreadPool;
  beforeEach(() => { pool = new JobThreadPool({ entry: ENTRY, size: 1, config, log: createLogger('silent'), sharedOcr: true }); });
  afterEach(() => pool.close());
  const run = (input: Record<string, unknown>, key: string, over: Partial<ClaimedJobContext> = {}) => pool.handler('extract').runAndStore(ctxFor(input, over).ctx, planFor(key));

  it('the thread stores the result once, with credits_used and plan_info: small ones for the job row, large ones in the blob store', async () => {
    const small = await run({ value: 'small' }, 'o/small/result.json');
    expect(small).toMatchObject({ credits: 1, pages: 1, placed: { row: expect.stringContaining('"value":"small"') } });
    expect(JSON.parse((small.placed as { row: string }).row)).toMatchObject({ credits_used: 1, plan_info: { tier: 'test', total_credits_used: 11, pages_used: 6 } });
    const big = await run({ mode: 'pages', value: 'big', pages: 40, perPage: 2_000 }, 'o/big/result.json');
    expect(big.placed).toMatchObject({ blob: 'o/big/result.json', asUrl: false });
    const stored = await body(big) as unknown as { value: string; words: { content: string }[]; credits_used: number; plan_info: { pages_used: number } };
    expect([stored.value, stored.words.length, stored.words[79_999].content, stored.credits_used, stored.plan_info.pages_used]).toEqual(['big', 80_000, 'w40-1999', 1, 45]);
    expect((big.placed as { bytes: number }).bytes).toBe((await dataBlobs.head('o/big/result.json'))!.size);
  }, 60_000);

  it('a thread that dies while storing a result fails the job and leaves no object', async () => {
    await expect(run({ mode: 'pages', value: 'v', pages: 40, perPage: 2_000, exitAt: 20 }, 'o/dies/result.json')).rejects.toThrow(/job thread exited \(code 9\)/);
    expect(await dataBlobs.head('o/dies/result.json')).toBeNull();
    expect((await body(run({ value: 'after' }, 'o/after/result.json'))).value).toBe('after');
  }, 60_000);

  it('a thread writes blobs to its own client of the blob store (what the owning thread reads back)', async () => {
    const out = await body(run({ mode: 'put-stream', value: 'p', pieces: 500 }, 'o/p/result.json'));
    const text = Array.from({ length: 500 }, (_, i) => `piece ${i};`).join('');
    expect(out).toMatchObject({ value: 'p', info: { size: text.length } });
    expect(Buffer.from(await dataBlobs.getBytes('streamed')).toString('utf8')).toBe(text);
  }, 60_000);

  it('the store, checkpoint and OCR calls of a handler are answered from the job\'s context here', async () => {
    const seen: unknown[] = [];
    const store = {
      artifacts: {
        getForOrg: async (...a: unknown[]) => { seen.push(['getForOrg', ...a]); return { id: 'f1', data: { when: new Date(0) } }; },
        nextSchemaVersion: async (...a: unknown[]) => { seen.push(['nextSchemaVersion', ...a]); return 4; },
      },
      jobs: { get: async (...a: unknown[]) => { seen.push(['get', ...a]); return undefined; } },
    } as unknown as ClaimedJobContext['store'];
    const ocr = { recognize: async (image: Uint8Array, page: unknown) => { seen.push(['ocr', Buffer.isBuffer(image) && [...image], page]); return { words: [] }; } } as unknown as OcrEngine;
    const out = await run({ mode: 'owner-calls' }, 'o/calls/result.json', { store, services: { ocr, languageModel: {} as never } });
    expect(out).toMatchObject({ credits: 2, pages: 3, artifacts: [{ id: 'a1', type: 'form', data: { n: 1 } }] });
    const result = await body(out);
    expect(result).toMatchObject({ artifact: { id: 'f1', data: { when: new Date(0).toISOString() } }, version: 4, page: { words: [] } });
    expect(seen).toEqual([['getForOrg', 'o', 'form', 'f1'], ['nextSchemaVersion', 'o', 'k'], ['get', 'j1'], ['ocr', [1, 2, 3], { number: 1, widthPt: 10, heightPt: 20 }]]);
  }, 60_000);
});

describe('JobRunner over a thread that dies', () => {
  let store: MetadataStore;
  let org: Organization;
  beforeAll(async () => {
    const sql = await PgliteSqlClient.open(undefined, await migratedPgliteTemplate());
    store = new MetadataStore(sql);
    org = await store.orgs.create({ name: 'threads' });
  });
  afterAll(async () => {
    await store.close();
  });

  it('retries the job that was on it (nothing accepted is lost), fails it after its attempts, and runs later jobs', async () => {
    const { record } = await store.keys.create(org.id, { creditCap: 100 });
    const submit = async (input: Record<string, unknown>) => {
      const id = crypto.randomUUID();
      await store.sql.transaction(async (tx) => {
        await store.keys.reserve(record.id, 1, tx);
        await store.jobs.create({ id, org_id: org.id, key_id: record.id, kind: 'extract', request: {}, input, credits_reserved: 1, expires_at: new Date(Date.now() + 3_600_000) }, tx);
      });
      return id;
    };
    const pool = new JobThreadPool({ entry: ENTRY, size: 1, config, log: createLogger('silent') });
    const queue = new InProcessJobQueue();
    const retried: unknown[] = [];
    const enqueue = queue.enqueue.bind(queue);
    queue.enqueue = async (q, msg, opts) => { retried.push({ msg, delayMs: opts?.delayMs }); return enqueue(q, msg, { delayMs: 0 }); };
    const runner = new JobRunner({ store, blobs: dataBlobs, queue, events: new InProcessJobEventBus(), config, log: createLogger('silent'), metrics: new Metrics(), services: { languageModel: {} as never } }, { extract: pool.handler('extract') });
    try {
      // a job whose thread dies every time: retried (GENERAL_001 is retryable) until its attempts are used, then failed
      const doomed = await submit({ mode: 'exit' });
      await runner.handle({ jobId: doomed, kind: 'extract' });
      let job = await store.jobs.get(doomed);
      expect(job!.status).toBe('pending');
      expect(job!.error).toEqual({ code: 'GENERAL_001', message: 'Processing failed unexpectedly' });
      expect(retried).toHaveLength(1);
      for (let i = 0; i < 2; i++) await runner.handle({ jobId: doomed, kind: 'extract' });
      job = await store.jobs.get(doomed);
      expect([job!.status, job!.attempts, job!.error?.code]).toEqual(['failed', 3, 'GENERAL_001']);
      // its reservation was released and nothing charged
      const k = await store.keys.get(record.id);
      expect([Number(k!.credits_reserved), Number(k!.credits_used)]).toEqual([0, 0]);
      // a job after it runs on a new thread and completes
      const fine = await submit({ value: 'fine' });
      await runner.handle({ jobId: fine, kind: 'extract' });
      job = await store.jobs.get(fine);
      expect(job!.status).toBe('completed');
      expect(job!.result).toMatchObject({ value: 'fine', credits_used: 1, plan_info: { tier: org.tier } });
      expect(pool.threadCount).toBe(1);
      // a large result is written by the thread where the runner says (blob, inline delivery), with its members
      const big = await submit({ mode: 'pages', value: 'big', pages: 20, perPage: 2_000 });
      await runner.handle({ jobId: big, kind: 'extract' });
      job = await store.jobs.get(big);
      expect([job!.status, job!.result, job!.result_blob, job!.result_inline_blob]).toEqual(['completed', null, null, `${org.id}/${big}/result.json`]);
      const stored = JSON.parse(Buffer.from(await dataBlobs.getBytes(job!.result_inline_blob!)).toString('utf8')) as { words: unknown[]; credits_used: number };
      expect([stored.words.length, stored.credits_used]).toEqual([40_000, 1]);
    } finally {
      await queue.close();
      await pool.close();
    }
  }, 120_000);
});
