import { InProcessJobEventBus } from './in-process-job-event-bus.js';
import { describeJobEventBusConformance } from '../test/job-event-bus.conformance.js';

describeJobEventBusConformance('in-process', async (maxEvents) => {
  const bus = new InProcessJobEventBus({ maxEvents });
  return { bus, peer: async () => bus, cleanup: async () => undefined };
});

describe('InProcessJobEventBus specifics', () => {
  it('forgets a job after its ttl and the oldest jobs past maxJobs, but not a job someone follows', async () => {
    let now = 0;
    const bus = new InProcessJobEventBus({ maxJobs: 2, ttlMs: 1_000, now: () => now });
    const ev = (id: string) => ({ type: 'status' as const, data: { job_id: id, status: 'queued' as const } });
    const off = await bus.subscribe('followed', () => undefined);
    await bus.publish('followed', ev('followed'));
    await bus.publish('a', ev('a'));
    await bus.publish('b', ev('b'));
    expect((await bus.history('followed')).lastId).toBe(1);
    expect((await bus.history('a')).lastId).toBe(0); // the oldest unfollowed job went
    expect((await bus.history('b')).lastId).toBe(1);
    now = 5_000;
    expect(await bus.history('b')).toEqual({ lastId: 0, events: [] });
    off();
    await bus.close();
  });

  it('keeps a finished job\'s window only for the terminal ttl', async () => {
    let now = 0;
    const bus = new InProcessJobEventBus({ ttlMs: 60_000, terminalTtlMs: 1_000, now: () => now });
    await bus.publish('done', { type: 'status', data: { job_id: 'done', status: 'processing' } });
    await bus.publish('running', { type: 'status', data: { job_id: 'running', status: 'processing' } });
    await bus.publish('done', { type: 'status', data: { job_id: 'done', status: 'failed' } });
    now = 500;
    expect((await bus.history('done')).lastId).toBe(2); // a client reconnecting just after the end is replayed
    now = 2_000;
    expect(await bus.history('done')).toEqual({ lastId: 0, events: [] });
    expect((await bus.history('running')).lastId).toBe(1);
    await bus.close();
  });

  it('bounds the bytes kept: per job its oldest events go, over the total the least recent jobs go', async () => {
    const bus = new InProcessJobEventBus({ maxJobBytes: 1_000, maxBytes: 2_500 });
    const page = (id: string, n: number) => ({ type: 'page' as const, data: { job_id: id, page: n, markdown: 'x'.repeat(400), elements: [], provisional: false } });
    for (let n = 1; n <= 5; n++) await bus.publish('big', page('big', n));
    const big = await bus.history('big');
    expect(big.lastId).toBe(5);
    expect(big.events.map((e) => e.id)).toEqual([4, 5]); // two pages fit in 1,000 bytes
    for (let n = 1; n <= 2; n++) await bus.publish('next', page('next', n));
    for (let n = 1; n <= 2; n++) await bus.publish('last', page('last', n));
    expect((await bus.history('big')).lastId).toBe(0); // the least recently published job went
    expect((await bus.history('last')).events).toHaveLength(2);
    await bus.close();
  });
});
