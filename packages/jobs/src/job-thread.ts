import v8 from 'node:v8';
import vm from 'node:vm';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { QuireError, type OcrEngine } from '@quire/core';
import { createLogger, blobStoreFor, type Config } from '@quire/runtime';
import { storeResult } from './result-placement.js';
import { JobStoppedError, servicesForJob, type CheckedJobHandler, type ClaimedJobContext, type JobServices, type JobStore } from './job-handler.js';
import { fromWire, toWire, type FromThread, type JobThreadData, type OwnerCallName, type OwnerCalls, type ToThread } from './thread-protocol.js';

export interface JobThreadSetup {
  /** Job kind → handler, as the process would run them. */
  handlers: Partial<Record<string, CheckedJobHandler>>;
  /** Services this thread makes for itself (e.g. a language model client); the OCR engine is the owning process's. */
  services(config: Config): JobServices;
}

/**
 * The job thread's side of JobThreadPool: runs the handlers it is sent with a JobContext whose store,
 * checkpoint and OCR engine call the owning process (OwnerCalls, one message per call), and stores
 * each result itself (storeResult, as the run's plan says) before it answers.
 */
const IDLE_GC_DELAY_MS = 2_000;

/** V8's full collection, made reachable in this thread (the flag only exposes `gc` to contexts made after it). */
const fullGc = (() => {
  try {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
})();

export function serveJobThread(setup: JobThreadSetup): void {
  const port = parentPort!;
  if (!parentPort) throw new Error('serveJobThread runs on a worker thread (see JobThreadPool)');
  const { config, sharedOcr } = workerData as JobThreadData;
  const log = createLogger(config.logLevel, { role: 'job-thread', thread: threadId });
  const local = setup.services(config);
  // The thread's own client of the blob store (the adapters are stateless clients): sources are read and
  // outputs and results written from here, so no document or result crosses to the owning thread.
  const blobs = blobStoreFor(config);
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const aborts = new Map<number, AbortController>();
  let nextCallId = 1;
  const send = (m: FromThread) => port.postMessage(m);

  const callerFor = (runId: number) => <K extends OwnerCallName>(op: K, ...args: Parameters<OwnerCalls[K]>) =>
    new Promise<Awaited<ReturnType<OwnerCalls[K]>>>((resolve, reject) => {
      const callId = nextCallId++;
      waiting.set(callId, { resolve: resolve as (v: unknown) => void, reject });
      try {
        send({ type: 'call', runId, callId, op, args } as FromThread);
      } catch (e) { // an argument that cannot be cloned
        waiting.delete(callId);
        reject(e as Error);
      }
    });

  async function run(m: Extract<ToThread, { type: 'run' }>): Promise<void> {
    const call = callerFor(m.runId);
    const abort = new AbortController();
    aborts.set(m.runId, abort);
    try {
      const handler = setup.handlers[m.kind];
      if (!handler) throw new QuireError('GENERAL_005', `No worker handles ${m.kind} jobs`);
      const store: JobStore = {
        artifacts: {
          getForOrg: (...a) => call('getArtifact', ...a),
          nextSchemaVersion: (...a) => call('nextSchemaVersion', ...a),
        },
        jobs: { get: (...a) => call('getJob', ...a) },
      };
      const ocr: OcrEngine | undefined = sharedOcr ? { recognize: (...a) => call('ocr', ...a) } : undefined;
      const ctx: ClaimedJobContext = {
        job: m.job, org: m.org, config, blobPrefix: m.blobPrefix, store, blobs, signal: abort.signal,
        throwIfStopped: () => {
          abort.signal.throwIfAborted();
          // told to stop while this thread was too busy to read the message: the reason comes with that message
          if (Atomics.load(m.stopFlag, 0) !== 0) throw new JobStoppedError(undefined);
        },
        services: servicesForJob({ ...local, ...(ocr ? { ocr } : {}) }, abort.signal),
        log: log.child({ jobId: m.job.id, kind: m.job.kind }),
        checkpoint: async (done, total) => {
          abort.signal.throwIfAborted(); // told to stop: no need to ask the owning process
          await call('checkpoint', done, total);
        },
        pagesReady: (pages) => call('pagesReady', pages),
      };
      const outcome = await handler(ctx);
      abort.signal.throwIfAborted(); // stopped while finishing: its result is not stored
      send({ type: 'done', runId: m.runId, outcome: await storeResult(outcome, m.plan, blobs) });
    } catch (e) {
      send({ type: 'failed', runId: m.runId, error: toWire(e) });
    } finally {
      aborts.delete(m.runId);
      if (aborts.size === 0) collectWhenIdle();
    }
  }

  // A thread's heap grows to what its largest job needed and V8, sized for a heap of gigabytes, is in
  // no hurry to give it back: after a soak each idle thread held hundreds of MB of garbage. Once the
  // thread has had no job for a moment, one full collection returns it (~10–100 ms, on this thread).
  let idleTimer: NodeJS.Timeout | undefined;
  function collectWhenIdle(): void {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => { if (aborts.size === 0) fullGc?.(); }, IDLE_GC_DELAY_MS);
    idleTimer.unref();
  }

  port.on('message', (m: ToThread) => {
    if (m.type === 'run') { void run(m); return; }
    if (m.type === 'abort') { aborts.get(m.runId)?.abort(fromWire(m.reason)); return; }
    const w = waiting.get(m.callId);
    if (!w) return;
    waiting.delete(m.callId);
    if (m.error) w.reject(fromWire(m.error));
    else w.resolve(m.value);
  });
  send({ type: 'ready' });
}
