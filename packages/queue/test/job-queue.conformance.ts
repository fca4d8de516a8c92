import type { JobQueue, QueueMessage } from '../src/job-queue.js';

/**
 * The behaviour every JobQueue adapter must share. `make()` returns a fresh queue in its own
 * namespace, plus `peer()` — another instance that shares that namespace (another process in the
 * fleet; for the in-process queue, the same instance) — and `cleanup()`. Adapters configure their
 * redelivery delay to a few tens of milliseconds so the suite stays quick.
 */
export interface JobQueueHarness {
  queue: JobQueue;
  peer(): Promise<JobQueue>;
  cleanup(): Promise<void>;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function waitFor(cond: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

export function describeJobQueueConformance(name: string, make: () => Promise<JobQueueHarness>): void {
  describe(`JobQueue conformance: ${name}`, () => {
    let h: JobQueueHarness;
    const peers: JobQueue[] = [];
    beforeEach(async () => { h = await make(); });
    afterEach(async () => {
      await h.queue.close();
      for (const p of peers.splice(0)) await p.close();
      await h.cleanup();
    });

    it('delivers each message once, ids only, in FIFO order', async () => {
      const got: QueueMessage[] = [];
      for (let i = 1; i <= 5; i++) {
        await h.queue.enqueue('extract', Object.assign({ jobId: `job-${i}`, kind: 'extract' }, { secret: 'never sent' }));
      }
      h.queue.work('extract', async (m) => { got.push(m); }, { concurrency: 1 });
      await waitFor(() => got.length === 5, 5_000, 'five deliveries');
      await sleep(100);
      expect(got).toEqual([1, 2, 3, 4, 5].map((i) => ({ jobId: `job-${i}`, kind: 'extract' })));
    });

    it('keeps queues apart', async () => {
      const extract: string[] = [];
      const forms: string[] = [];
      h.queue.work('extract', async (m) => { extract.push(m.jobId); }, { concurrency: 2 });
      h.queue.work('forms', async (m) => { forms.push(m.jobId); }, { concurrency: 2 });
      await h.queue.enqueue('forms', { jobId: 'f1', kind: 'form_fill' });
      await h.queue.enqueue('extract', { jobId: 'e1', kind: 'extract' });
      await waitFor(() => extract.length === 1 && forms.length === 1);
      expect(extract).toEqual(['e1']);
      expect(forms).toEqual(['f1']);
    });

    it('never runs more handlers at once than the concurrency', async () => {
      let running = 0;
      let peak = 0;
      let done = 0;
      h.queue.work('tables', async () => {
        running++;
        peak = Math.max(peak, running);
        await sleep(80);
        running--;
        done++;
      }, { concurrency: 3 });
      for (let i = 0; i < 9; i++) await h.queue.enqueue('tables', { jobId: `t${i}`, kind: 'tables' });
      await waitFor(() => done === 9, 10_000, 'nine handlers');
      expect(peak).toBe(3);
    });

    it('counts waiting and delayed messages in depth()', async () => {
      await h.queue.enqueue('extract', { jobId: 'a', kind: 'extract' });
      await h.queue.enqueue('extract', { jobId: 'b', kind: 'extract' });
      await h.queue.enqueue('schema', { jobId: 'c', kind: 'schema' }, { delayMs: 60_000 });
      expect(await h.queue.depth()).toEqual({ extract: 2, schema: 1, tables: 0, forms: 0, charts: 0 });
      const seen: string[] = [];
      h.queue.work('extract', async (m) => { seen.push(m.jobId); }, { concurrency: 1 });
      await waitFor(() => seen.length === 2);
      await sleep(50);
      expect((await h.queue.depth()).extract).toBe(0);
    });

    it('delivers a delayed message after its delay, not before', async () => {
      const at: Record<string, number> = {};
      h.queue.work('charts', async (m) => { at[m.jobId] = Date.now(); }, { concurrency: 2 });
      const t0 = Date.now();
      await h.queue.enqueue('charts', { jobId: 'later', kind: 'charts' }, { delayMs: 700 });
      await h.queue.enqueue('charts', { jobId: 'now', kind: 'charts' });
      await waitFor(() => at.later !== undefined, 5_000, 'the delayed message');
      expect(at.now - t0).toBeLessThan(600);
      expect(at.later - t0).toBeGreaterThanOrEqual(650);
      expect(at.now).toBeLessThan(at.later);
    });

    it('redelivers a message whose handler threw', async () => {
      const deliveries: string[] = [];
      h.queue.work('schema', async (m) => {
        deliveries.push(m.jobId);
        if (deliveries.filter((j) => j === m.jobId).length === 1) throw new Error('transient');
      }, { concurrency: 1 });
      await h.queue.enqueue('schema', { jobId: 'flaky', kind: 'schema' });
      await waitFor(() => deliveries.length >= 2, 10_000, 'a redelivery');
      await sleep(300);
      expect(deliveries).toEqual(['flaky', 'flaky']); // and not a third time once it succeeded
    });

    it('re-enqueueing the same job id delivers it again (no silent dedupe)', async () => {
      const seen: string[] = [];
      h.queue.work('extract', async (m) => { seen.push(m.jobId); }, { concurrency: 1 });
      await h.queue.enqueue('extract', { jobId: 'same', kind: 'extract' });
      await waitFor(() => seen.length === 1);
      await h.queue.enqueue('extract', { jobId: 'same', kind: 'extract' });
      await waitFor(() => seen.length === 2, 5_000, 'the second delivery');
    });

    it('tells every instance that a job settled', async () => {
      const peer = await h.peer();
      if (peer !== h.queue) peers.push(peer);
      const heard: string[] = [];
      const heardLocally: string[] = [];
      const off = peer.onSettled((id) => heard.push(id));
      h.queue.onSettled((id) => heardLocally.push(id));
      peer.onSettled(() => { throw new Error('a broken listener must not matter'); });
      await peer.ping(); // subscription live
      await h.queue.ping();
      await h.queue.publishSettled('job-42');
      await waitFor(() => heard.length === 1 && heardLocally.length === 1, 5_000, 'settled notifications');
      expect(heard).toEqual(['job-42']);
      off();
      await h.queue.publishSettled('job-43');
      await waitFor(() => heardLocally.length === 2);
      await sleep(100);
      expect(heard).toEqual(['job-42']);
    });

    it('close() waits for the handler in flight and stops further deliveries', async () => {
      const started: string[] = [];
      const finished: string[] = [];
      h.queue.work('forms', async (m) => {
        started.push(m.jobId);
        await sleep(400);
        finished.push(m.jobId);
      }, { concurrency: 1 });
      for (const id of ['f1', 'f2', 'f3']) await h.queue.enqueue('forms', { jobId: id, kind: 'form_detect' });
      await waitFor(() => started.length === 1);
      await h.queue.close();
      expect(finished).toEqual(['f1']); // close resolved only after the handler finished
      await sleep(300);
      expect(started).toEqual(['f1']);
      await expect(h.queue.enqueue('forms', { jobId: 'f4', kind: 'form_detect' })).rejects.toMatchObject({ code: 'GENERAL_002' });
      await expect(h.queue.close()).resolves.toBeUndefined(); // idempotent
    });

    it('ping() succeeds while open', async () => {
      await expect(h.queue.ping()).resolves.toBeUndefined();
    });
  });
}
