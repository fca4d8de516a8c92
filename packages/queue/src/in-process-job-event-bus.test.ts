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
});
