import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { BullMqJobQueue } from './bullmq-job-queue.js';
import { describeJobQueueConformance, waitFor } from '../test/job-queue.conformance.js';
import { deleteRedisKeys as deleteKeys } from '../../../scripts/lib/fleet.mjs';

const REDIS_URL = process.env.REDIS_URL;

const testPrefix = () => `quire-test-${randomBytes(6).toString('hex')}`;

if (!REDIS_URL) {
  console.log('BullMqJobQueue tests skipped: set REDIS_URL (e.g. redis://127.0.0.1:6379) to run them');
}
const maybe = REDIS_URL ? describe : describe.skip;

maybe('BullMqJobQueue', () => {
  const url = REDIS_URL as string;
  const make = (prefix: string) => new BullMqJobQueue({ redisUrl: url, prefix, backoffDelayMs: 50 });

  describeJobQueueConformance('bullmq', async () => {
    const prefix = testPrefix();
    return { queue: make(prefix), peer: async () => make(prefix), cleanup: () => deleteKeys(url, prefix) };
  });

  it('is brokered and namespaces its keys under the prefix', async () => {
    const prefix = testPrefix();
    const q = make(prefix);
    expect(q.brokered).toBe(true);
    await q.enqueue('extract', { jobId: 'job:with:colons', kind: 'extract' });
    const r = new Redis(url);
    const keys = await r.keys(`${prefix}:*`);
    await r.quit();
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => k.startsWith(`${prefix}:extract:`))).toBe(true);
    await q.close();
    await deleteKeys(url, prefix);
  });

  it('fails fast with GENERAL_002 when Redis is unreachable', async () => {
    const q = new BullMqJobQueue({ redisUrl: 'redis://127.0.0.1:1', prefix: testPrefix(), readyTimeoutMs: 500 });
    await expect(q.ping()).rejects.toMatchObject({ code: 'GENERAL_002' });
    await expect(q.enqueue('extract', { jobId: 'x', kind: 'extract' })).rejects.toMatchObject({ code: 'GENERAL_002' });
    await q.close();
  });

  it('gives a message up after its attempts and reports the failures', async () => {
    const prefix = testPrefix();
    const errors: string[] = [];
    const q = new BullMqJobQueue({
      redisUrl: url, prefix, attempts: 2, backoffDelayMs: 20, onError: (_e, where) => errors.push(where),
    });
    let calls = 0;
    q.work('charts', async () => { calls++; throw new Error('always'); }, { concurrency: 1 });
    await q.enqueue('charts', { jobId: 'doomed', kind: 'charts' });
    await waitFor(() => errors.filter((w) => w.startsWith('handler:')).length === 2, 10_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(calls).toBe(2);
    await q.close();
    await deleteKeys(url, prefix);
  });
});
