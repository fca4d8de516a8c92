import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QuireError, isQuireError } from '@quire/core';
import { InProcessJobQueue } from '@quire/queue';
import { FsBlobStore, MetadataStore, PgliteSqlClient, migrate } from '@quire/storage';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { Metrics } from '../metrics.js';
import { JobStoppedError, type RunnableJobHandler } from './job-handler.js';
import { JobRunner } from './job-runner.js';
import { asBuffers, fromWire, toWire } from './thread-protocol.js';

describe('errors across threads', () => {
  it('keep their code, details and type', () => {
    const q = fromWire(toWire(new QuireError('FILE_003', 'The PDF could not be read', { reason: 'bad xref' })));
    expect(isQuireError(q) && q instanceof QuireError).toBe(true);
    expect(q).toMatchObject({ code: 'FILE_003', message: 'The PDF could not be read', details: { reason: 'bad xref' }, status: 400 });
    const stopped = fromWire(toWire(new JobStoppedError('canceled')));
    expect(stopped).toBeInstanceOf(JobStoppedError);
    expect((stopped as JobStoppedError).status).toBe('canceled');
    const other = fromWire(toWire(new TypeError('x is not a function')));
    expect(isQuireError(other)).toBe(false);
    expect(other).toMatchObject({ name: 'TypeError', message: 'x is not a function' });
    expect(fromWire(toWire('a thrown string')).message).toBe('a thrown string');
  });

  it('drop details that cannot be cloned rather than failing to report', () => {
    const w = toWire(new QuireError('PROC_001', 'failed', { at: 3, fn: () => 1 } as Record<string, unknown>));
    expect(w).toEqual({ kind: 'quire', code: 'PROC_001', message: 'failed', details: { at: 3 } });
  });
});

test('byte arrays arriving from another thread become Buffers (a view, not a copy)', () => {
  const u8 = new Uint8Array([104, 105, 33]);
  const b = asBuffers(u8);
  expect(Buffer.isBuffer(b) && b.toString('utf8')).toBe('hi!');
  expect(b.buffer).toBe(u8.buffer);
  expect(asBuffers({ a: 1 })).toEqual({ a: 1 });
});

describe('JobRunner with results serialized on a job thread', () => {
  let store: MetadataStore;
  let dir: string;
  beforeAll(async () => {
    const sql = await PgliteSqlClient.open();
    await migrate(sql);
    store = new MetadataStore(sql);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-serialized-'));
  });
  afterAll(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function runWith(handler: RunnableJobHandler, env: Record<string, string> = {}) {
    const org = await store.orgs.create({ name: 'serialized' });
    const id = crypto.randomUUID();
    await store.sql.transaction((tx) => store.jobs.create(tx, { id, org_id: org.id, key_id: null, kind: 'extract', request: {}, input: {}, credits_reserved: 0, expires_at: new Date(Date.now() + 3_600_000) }));
    const blobs = new FsBlobStore({ root: dir });
    const queue = new InProcessJobQueue();
    const runner = new JobRunner({ store, blobs, queue, config: loadConfig(env), log: createLogger('silent'), metrics: new Metrics(), services: { languageModel: {} as never } }, { extract: handler });
    await runner.handle({ jobId: id, kind: 'extract' });
    await queue.close();
    return { job: (await store.jobs.get(id))!, blobs };
  }
  const serialized = (result: unknown): RunnableJobHandler => async () => ({ resultJson: Buffer.from(JSON.stringify(result)), credits: 2, pages: 1 });

  it('stores the same body as an in-process result: the result plus credits_used and plan_info', async () => {
    const { job } = await runWith(serialized({ markdown: '# Title', chunks: [{ content: 'é' }] }));
    expect(job.status).toBe('completed');
    expect(job.result).toMatchObject({ markdown: '# Title', chunks: [{ content: 'é' }], credits_used: 2, plan_info: { tier: expect.any(String) } });
    const empty = await runWith(serialized({}));
    expect(Object.keys(empty.job.result as object).sort()).toEqual(['credits_used', 'plan_info']);
  });

  it('a streamed result: small ones go to the job row, large ones to the blob store, both with the runner\'s members', async () => {
    const streamed = (text: string, pieceSize: number): RunnableJobHandler => async () => ({
      resultJson: (async function* () { for (let i = 0; i < text.length; i += pieceSize) yield Buffer.from(text.slice(i, i + pieceSize)); })(),
      credits: 2, pages: 1,
    });
    const small = await runWith(streamed(JSON.stringify({ a: 'b' }), 3));
    expect(small.job.result).toMatchObject({ a: 'b', credits_used: 2 });
    const big = { text: 'y'.repeat(300_000), list: Array.from({ length: 1000 }, (_, i) => i) };
    // the closing brace alone in the last piece, and pieces across the row limit
    const { job, blobs } = await runWith(streamed(JSON.stringify(big), 4096));
    expect([job.result, job.result_blob]).toEqual([null, null]); // over the row limit, under the URL limit
    const body = JSON.parse(Buffer.from(await blobs.getBytes(job.result_inline_blob!)).toString('utf8'));
    expect(body).toMatchObject({ ...big, credits_used: 2 });
    const empty = await runWith(streamed('{}', 1));
    expect(Object.keys(empty.job.result as object).sort()).toEqual(['credits_used', 'plan_info']);
  });

  it('writes a large serialized result to the blob store as it came', async () => {
    const { job, blobs } = await runWith(serialized({ text: 'x'.repeat(5000) }), { QUIRE_INLINE_RESULT_LIMIT_BYTES: '1000' });
    expect(job.result).toBeNull();
    const body = JSON.parse(Buffer.from(await blobs.getBytes(job.result_blob!)).toString('utf8'));
    expect(body).toMatchObject({ text: 'x'.repeat(5000), credits_used: 2 });
  });
});
