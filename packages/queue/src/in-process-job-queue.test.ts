import { InProcessJobQueue } from './in-process-job-queue.js';
import { describeJobQueueConformance, waitFor } from '../test/job-queue.conformance.js';

describeJobQueueConformance('in-process', async () => {
  const queue = new InProcessJobQueue({ redeliveryDelayMs: 20 });
  return { queue, peer: async () => queue, cleanup: async () => undefined };
});

describe('InProcessJobQueue specifics', () => {
  it('is not brokered', () => {
    expect(new InProcessJobQueue().brokered).toBe(false);
  });

  it('gives up after maxDeliveries and reports the drop', async () => {
    const errors: { delivery: number; dropped: boolean }[] = [];
    const q = new InProcessJobQueue({ redeliveryDelayMs: 5, maxDeliveries: 3, onError: (_e, c) => errors.push(c) });
    let calls = 0;
    q.work('extract', async () => { calls++; throw new Error('always'); }, { concurrency: 1 });
    await q.enqueue('extract', { jobId: 'x', kind: 'extract' });
    await waitFor(() => errors.length === 3);
    expect((await q.depth()).extract).toBe(0); // nothing left to deliver: no fourth call can come
    expect(calls).toBe(3);
    expect(errors.map((e) => [e.delivery, e.dropped])).toEqual([[1, false], [2, false], [3, true]]);
    await q.close();
  });

  it('refuses a second consumer for one queue and a bad concurrency', () => {
    const q = new InProcessJobQueue();
    q.work('extract', async () => undefined, { concurrency: 1 });
    expect(() => q.work('extract', async () => undefined, { concurrency: 1 })).toThrow(/already has a consumer/);
    expect(() => q.work('forms', async () => undefined, { concurrency: 0 })).toThrow(RangeError);
  });

  it('drops pending delays on close (they must not fire later)', async () => {
    const { jest } = import.meta;
    jest.useFakeTimers();
    try {
      const q = new InProcessJobQueue();
      const seen: string[] = [];
      q.work('extract', async (m) => { seen.push(m.jobId); }, { concurrency: 1 });
      await q.enqueue('extract', { jobId: 'later', kind: 'extract' }, { delayMs: 50 });
      await q.close();
      await jest.advanceTimersByTimeAsync(1_000); // well past the delay
      expect(seen).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  });
});
