import type { SequencedJobEvent } from '@quire/contracts';
import { replayAfter, type JobEventBus } from '../src/job-event-bus.js';
import { waitFor } from './job-queue.conformance.js';

/**
 * The behaviour every JobEventBus adapter must share. `make(maxEvents)` returns a fresh bus in its own
 * namespace retaining `maxEvents` per job, plus `peer()`: another bus on that namespace (another
 * process in the fleet; for the in-process bus, the same instance).
 */
export interface JobEventBusHarness {
  bus: JobEventBus;
  peer(): Promise<JobEventBus>;
  cleanup(): Promise<void>;
}

const status = (jobId: string, s: 'queued' | 'processing' | 'completed') => ({ type: 'status' as const, data: { job_id: jobId, status: s } });
const progress = (jobId: string, done: number) => ({ type: 'progress' as const, data: { job_id: jobId, pages_done: done, pages_total: 9 } });

export function describeJobEventBusConformance(name: string, make: (maxEvents: number) => Promise<JobEventBusHarness>): void {
  describe(`JobEventBus conformance: ${name}`, () => {
    let h: JobEventBusHarness;
    const peers: JobEventBus[] = [];
    beforeEach(async () => { h = await make(4); });
    afterEach(async () => {
      await h.bus.close();
      for (const p of peers.splice(0)) await p.close();
      await h.cleanup();
    });
    const peer = async () => { const p = await h.peer(); if (p !== h.bus) peers.push(p); return p; };

    it('numbers events per job from 1, delivers them in order to subscribers (also from a peer), not to other jobs', async () => {
      const got: SequencedJobEvent[] = [];
      const other: SequencedJobEvent[] = [];
      const off = await h.bus.subscribe('job-a', (e) => got.push(e));
      const offOther = await h.bus.subscribe('job-b', (e) => other.push(e));
      const publisher = await peer();
      expect(await publisher.publish('job-a', status('job-a', 'processing'))).toBe(1);
      for (let i = 1; i <= 3; i++) await publisher.publish('job-a', progress('job-a', i));
      expect(await publisher.publish('job-a', status('job-a', 'completed'))).toBe(5);
      await waitFor(() => got.length === 5, 5_000, 'five events');
      expect(got.map((e) => e.id)).toEqual([1, 2, 3, 4, 5]);
      expect(got.map((e) => e.type)).toEqual(['status', 'progress', 'progress', 'progress', 'status']);
      expect(got[2]).toEqual({ id: 3, type: 'progress', data: { job_id: 'job-a', pages_done: 2, pages_total: 9 } });
      expect(other).toEqual([]);
      off();
      offOther();
    });

    it('keeps a bounded window per job for replay, with the last id given out', async () => {
      for (let i = 1; i <= 6; i++) await h.bus.publish('job-w', progress('job-w', i));
      const hist = await h.bus.history('job-w');
      expect(hist.lastId).toBe(6);
      expect(hist.events.map((e) => e.id)).toEqual([3, 4, 5, 6]);
      expect(replayAfter(hist, 4)!.map((e) => e.id)).toEqual([5, 6]);
      expect(replayAfter(hist, 6)).toEqual([]);
      expect(replayAfter(hist, 1)).toBeUndefined(); // 2 is no longer retained
      expect(replayAfter(hist, 9)).toBeUndefined();
      expect(await h.bus.history('never-published')).toEqual({ lastId: 0, events: [] });
      const fromPeer = await (await peer()).history('job-w');
      expect(fromPeer).toEqual(hist);
    });

    it('stops delivering to an unsubscribed listener and counts listeners back to zero', async () => {
      const a: number[] = [];
      const b: number[] = [];
      const offA = await h.bus.subscribe('job-l', (e) => a.push(e.id));
      const offB = await h.bus.subscribe('job-l', (e) => b.push(e.id));
      expect(h.bus.listenerCount('job-l')).toBe(2);
      await h.bus.publish('job-l', status('job-l', 'queued'));
      await waitFor(() => a.length === 1 && b.length === 1, 5_000, 'both listeners');
      offA();
      offA(); // twice is harmless
      expect(h.bus.listenerCount('job-l')).toBe(1);
      await h.bus.publish('job-l', status('job-l', 'processing'));
      await waitFor(() => b.length === 2, 5_000, 'the remaining listener');
      expect(a).toEqual([1]);
      offB();
      expect(h.bus.listenerCount('job-l')).toBe(0);
      expect(h.bus.listenerCount()).toBe(0);
    });

    it('keeps delivering to the others when one listener throws', async () => {
      const got: number[] = [];
      const offBad = await h.bus.subscribe('job-t', () => { throw new Error('listener bug'); });
      const off = await h.bus.subscribe('job-t', (e) => got.push(e.id));
      await h.bus.publish('job-t', status('job-t', 'processing'));
      await waitFor(() => got.length === 1, 5_000, 'delivery past a throwing listener');
      offBad();
      off();
    });
  });
}
