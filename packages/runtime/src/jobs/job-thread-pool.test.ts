import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { InProcessJobQueue } from '@quire/queue';
import { FsBlobStore, MetadataStore, PgliteSqlClient, migrate, type JobRecord, type Organization } from '@quire/storage';
import { ensureBuilt } from '../../../../scripts/lib/fleet.mjs';
import { loadConfig } from '../config.js';
import { createLogger, type Logger } from '../logger.js';
import { Metrics } from '../metrics.js';
import type { ClaimedJobContext, SerializedJobOutcome } from './job-handler.js';
import { JobRunner } from './job-runner.js';
import { JobThreadPool } from './job-thread-pool.js';

/**
 * A job thread that dies (process.exit in the thread, an error thrown outside any handler, an unhandled
 * rejection) must not take the pool or the jobs that come after it down: the jobs it held fail with an
 * ordinary error (which the runner retries as GENERAL_001, the spec's retryable internal error), a new
 * thread takes the next job, and nothing is left counted as running. The thread module is
 * tests/fixtures/job-threads/crash-entry.mjs over the built runtime (threads run JavaScript).
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

let seq = 0;
const ctxFor = (input: Record<string, unknown>): ClaimedJobContext => {
  const job = { id: `00000000-0000-4000-8000-${String(++seq).padStart(12, '0')}`, kind: 'extract', input, org_id: 'o' } as unknown as JobRecord;
  return {
    job, org: { id: 'o' } as Organization, config, log: createLogger('silent'), blobPrefix: `o/${job.id}/`, services: { languageModel: {} as never },
    store: {} as never, blobs: {} as never, checkpoint: async () => undefined,
  };
};
async function bytesOf(source: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<Buffer> {
  if (source instanceof Uint8Array) return Buffer.from(source);
  const all: Uint8Array[] = [];
  for await (const b of source) all.push(b);
  return Buffer.concat(all);
}
const parse = async (o: Promise<SerializedJobOutcome> | SerializedJobOutcome) => JSON.parse((await bytesOf((await o).resultJson)).toString('utf8')) as { value: unknown; thread: number };

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
  const run = (input: Record<string, unknown>) => pool.handler('extract')(ctxFor(input)) as Promise<SerializedJobOutcome>;

  it.each([
    ['exits (process.exit in the thread)', { mode: 'exit', ms: 50 }, /job thread exited \(code 7\)/],
    ['throws outside any handler', { mode: 'throw-outside', ms: 50 }, /boom outside the handler/],
    ['has an unhandled rejection', { mode: 'stray-rejection' }, /nobody awaited this/],
  ])('%s: its jobs fail, a new thread runs the next job', async (_name, input, message) => {
    const first = await parse(run({ value: 'before' }));
    expect(first.value).toBe('before');
    // the crashing job and a job sharing its thread (size 1) both fail with the thread's end
    const [crashed, neighbour] = await Promise.allSettled([run(input), run({ value: 'neighbour', ms: 2_000 })]);
    expect(crashed.status).toBe('rejected');
    expect((crashed as PromiseRejectedResult).reason.message).toMatch(message);
    expect(neighbour.status).toBe('rejected');
    expect(log.errors).toHaveLength(1);
    expect(pool.threadCount).toBe(0);
    // a later job gets a fresh thread and completes
    const after = await parse(run({ value: 'after' }));
    expect(after.value).toBe('after');
    expect(after.thread).not.toBe(first.thread);
    expect(pool.threadCount).toBe(1);
    expect(counts).toEqual([1, 0, 1]);
  }, 60_000);

  it('a thread stuck past the time limit is stopped: its job times out (PROC_002), jobs behind it are freed', async () => {
    const limited = new JobThreadPool({ entry: ENTRY, size: 1, config, log: createLogger('silent'), timeoutMs: () => 1_500 });
    try {
      const run1 = (input: Record<string, unknown>) => limited.handler('extract')(ctxFor(input));
      await run1({ value: 'warm' }); // the thread is loaded, so the limit below measures only the jobs
      const stuck = run1({ mode: 'spin' });
      const behind = run1({ value: 'behind' }); // same thread (size 1): would wait forever behind the loop
      await expect(stuck).rejects.toMatchObject({ code: 'PROC_002' });
      await expect(behind).rejects.toThrow(/time limit/);
      expect((await parse(run1({ value: 'later' }) as Promise<SerializedJobOutcome>)).value).toBe('later');
    } finally {
      await limited.close();
    }
  }, 60_000);

  it('a crash while other threads work leaves them alone', async () => {
    const two = new JobThreadPool({ entry: ENTRY, size: 2, config, log: createLogger('silent') });
    try {
      const slow = two.handler('extract')(ctxFor({ value: 'slow', ms: 1_500 })) as Promise<SerializedJobOutcome>;
      await new Promise((r) => setTimeout(r, 200)); // the slow job holds thread 1; the crash gets thread 2
      await expect(two.handler('extract')(ctxFor({ mode: 'exit' }))).rejects.toThrow(/exited/);
      expect((await parse(slow)).value).toBe('slow');
      expect(two.threadCount).toBe(1);
    } finally {
      await two.close();
    }
  }, 60_000);
});

describe('JobThreadPool streams', () => {
  let pool: JobThreadPool;
  beforeEach(() => { pool = new JobThreadPool({ entry: ENTRY, size: 1, config, log: createLogger('silent') }); });
  afterEach(() => pool.close());
  const run = (input: Record<string, unknown>, ctx?: Partial<ClaimedJobContext>) => pool.handler('extract')({ ...ctxFor(input), ...ctx }) as Promise<SerializedJobOutcome>;

  it('a result comes back as a stream written on the thread as it is read, the same JSON as the objects', async () => {
    const outcome = await run({ mode: 'pages', value: 'v', pages: 40, perPage: 2_000 });
    const pieces: Buffer[] = [];
    for await (const b of outcome.resultJson as AsyncIterable<Buffer>) pieces.push(b);
    expect(pieces.length).toBeGreaterThan(20); // page by page, not one message
    const body = JSON.parse(Buffer.concat(pieces).toString('utf8')) as { value: string; words: { content: string; page_number: number }[] };
    expect(body.value).toBe('v');
    expect(body.words).toHaveLength(80_000);
    expect(body.words[79_999]).toEqual({ content: 'w40-1999', page_number: 40 });
  }, 60_000);

  it('a result left unread is let go on the thread, which goes on taking jobs', async () => {
    const outcome = await run({ mode: 'pages', value: 'v', pages: 40, perPage: 2_000 });
    const it = (outcome.resultJson as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    expect((await it.next()).done).toBe(false);
    await it.return!(); // destroys the stream here; the thread drops its writer
    expect((await parse(run({ value: 'next' }))).value).toBe('next');
    expect(pool.threadCount).toBe(1);
  }, 60_000);

  it('a thread that dies while its result is read fails the read with the thread\'s end', async () => {
    const outcome = await run({ mode: 'pages', value: 'v', pages: 40, perPage: 2_000, exitAt: 20 });
    await expect(bytesOf(outcome.resultJson)).rejects.toThrow(/job thread exited \(code 9\)/);
    expect((await parse(run({ value: 'after' }))).value).toBe('after');
  }, 60_000);

  it('a thread writes blobs to its own client of the blob store (what the owning thread reads back)', async () => {
    const body = await parse(run({ mode: 'put-stream', value: 'p', pieces: 500 }));
    const text = Array.from({ length: 500 }, (_, i) => `piece ${i};`).join('');
    expect(body).toMatchObject({ value: 'p', info: { size: text.length } });
    expect(Buffer.from(await dataBlobs.getBytes('streamed')).toString('utf8')).toBe(text);
  }, 60_000);

  it('a result placed by the thread: small ones come back for the job row, large ones are written to the blob store there', async () => {
    const extra = { credits_used: 3, plan_info: { tier: 'test' } };
    const placement = (key: string) => ({ rowLimitBytes: 131_072, inlineLimitBytes: 5_242_880, wantsUrl: false, blobKey: key });
    const small = await run({ value: 'small' });
    expect(await small.placeResult!(extra, placement('o/small/result.json'))).toEqual({ row: expect.stringContaining('"value":"small"') });
    const big = await run({ mode: 'pages', value: 'big', pages: 40, perPage: 2_000 });
    const placed = await big.placeResult!(extra, placement('o/big/result.json'));
    expect(placed).toMatchObject({ blob: 'o/big/result.json', asUrl: false });
    const stored = JSON.parse(Buffer.from(await dataBlobs.getBytes('o/big/result.json')).toString('utf8')) as { value: string; words: unknown[]; credits_used: number; plan_info: unknown };
    expect([stored.value, stored.words.length, stored.credits_used, stored.plan_info]).toEqual(['big', 80_000, 3, { tier: 'test' }]);
    expect((placed as { bytes: number }).bytes).toBe((await dataBlobs.head('o/big/result.json'))!.size);
    // placed once: the stream is the thread's to finish, not read again here
    await expect(big.placeResult!(extra, placement('o/again/result.json'))).rejects.toThrow(/already read or let go/);
  }, 60_000);

  it('a thread that dies while placing a result fails the placing', async () => {
    const outcome = await run({ mode: 'pages', value: 'v', pages: 40, perPage: 2_000, exitAt: 20 });
    await expect(outcome.placeResult!({ credits_used: 1, plan_info: {} }, { rowLimitBytes: 1000, inlineLimitBytes: 1e9, wantsUrl: false, blobKey: 'o/dies/result.json' })).rejects.toThrow(/job thread exited \(code 9\)/);
    expect(await dataBlobs.head('o/dies/result.json')).toBeNull(); // a failed stream leaves no object
    expect((await parse(run({ value: 'after' }))).value).toBe('after');
  }, 60_000);
});

describe('JobRunner over a thread that dies', () => {
  let store: MetadataStore;
  let dir: string;
  let org: Organization;
  beforeAll(async () => {
    const sql = await PgliteSqlClient.open();
    await migrate(sql);
    store = new MetadataStore(sql);
    org = await store.orgs.create({ name: 'threads' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-thread-crash-'));
  });
  afterAll(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('retries the job that was on it (nothing accepted is lost), fails it after its attempts, and runs later jobs', async () => {
    const { key, record } = await store.keys.create(org.id, { creditCap: 100 });
    void key;
    const submit = async (input: Record<string, unknown>) => {
      const id = crypto.randomUUID();
      await store.sql.transaction(async (tx) => {
        await store.keys.reserve(tx, record.id, 1);
        await store.jobs.create(tx, { id, org_id: org.id, key_id: record.id, kind: 'extract', request: {}, input, credits_reserved: 1, expires_at: new Date(Date.now() + 3_600_000) });
      });
      return id;
    };
    const pool = new JobThreadPool({ entry: ENTRY, size: 1, config, log: createLogger('silent') });
    const queue = new InProcessJobQueue();
    const retried: unknown[] = [];
    const enqueue = queue.enqueue.bind(queue);
    queue.enqueue = async (q, msg, opts) => { retried.push({ msg, delayMs: opts?.delayMs }); return enqueue(q, msg, { delayMs: 0 }); };
    const runner = new JobRunner({ store, blobs: dataBlobs, queue, config, log: createLogger('silent'), metrics: new Metrics(), services: { languageModel: {} as never } }, { extract: pool.handler('extract') });
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
      expect((job!.result as { value: string }).value).toBe('fine');
      expect(pool.threadCount).toBe(1);
      // a large result is written by the thread where the runner says (blob, inline delivery), with its members
      const big = await submit({ mode: 'pages', value: 'big', pages: 20, perPage: 2_000 });
      await runner.handle({ jobId: big, kind: 'extract' });
      job = await store.jobs.get(big);
      expect([job!.status, job!.result, job!.result_blob, job!.result_inline_blob]).toEqual(['completed', null, null, `${org.id}/${big}/result.json`]);
      const body = JSON.parse(Buffer.from(await dataBlobs.getBytes(job!.result_inline_blob!)).toString('utf8')) as { words: unknown[]; credits_used: number };
      expect([body.words.length, body.credits_used]).toEqual([40_000, 1]);
    } finally {
      await queue.close();
      await pool.close();
    }
  }, 120_000);
});
