import { randomBytes } from 'node:crypto';
import { RedisJobEventBus } from './redis-job-event-bus.js';
import { describeJobEventBusConformance } from '../test/job-event-bus.conformance.js';
import { deleteRedisKeys as deleteKeys } from '../../../scripts/lib/fleet.mjs';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.log('RedisJobEventBus tests skipped: set REDIS_URL (e.g. redis://127.0.0.1:6379) to run them');
const maybe = REDIS_URL ? describe : describe.skip;

maybe('RedisJobEventBus', () => {
  const url = REDIS_URL as string;
  describeJobEventBusConformance('redis', async (maxEvents) => {
    const prefix = `quire-test-${randomBytes(6).toString('hex')}`;
    const make = () => new RedisJobEventBus({ redisUrl: url, prefix, maxEvents });
    return { bus: make(), peer: async () => make(), cleanup: () => deleteKeys(url, prefix) };
  });

  it('expires a job window and sequence after the ttl', async () => {
    const prefix = `quire-test-${randomBytes(6).toString('hex')}`;
    const bus = new RedisJobEventBus({ redisUrl: url, prefix, ttlMs: 150 });
    await bus.publish('j', { type: 'status', data: { job_id: 'j', status: 'queued' } });
    expect((await bus.history('j')).lastId).toBe(1);
    await new Promise((r) => setTimeout(r, 400));
    expect(await bus.history('j')).toEqual({ lastId: 0, events: [] });
    await bus.close();
    await deleteKeys(url, prefix);
  });

  it('keeps a finished job\'s window only for the terminal ttl', async () => {
    const prefix = `quire-test-${randomBytes(6).toString('hex')}`;
    const bus = new RedisJobEventBus({ redisUrl: url, prefix, ttlMs: 60_000, terminalTtlMs: 150 });
    await bus.publish('j', { type: 'status', data: { job_id: 'j', status: 'processing' } });
    await bus.publish('k', { type: 'status', data: { job_id: 'k', status: 'processing' } });
    await bus.publish('j', { type: 'status', data: { job_id: 'j', status: 'completed' } });
    await new Promise((r) => setTimeout(r, 400));
    expect(await bus.history('j')).toEqual({ lastId: 0, events: [] });
    expect((await bus.history('k')).lastId).toBe(1); // still running: the long ttl
    await bus.close();
    await deleteKeys(url, prefix);
  });
});
