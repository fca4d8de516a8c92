import { Worker } from 'node:worker_threads';
import { QuireError } from '@quire/core';
import type { Config, Logger } from '@quire/runtime';
import type { ClaimedJobContext, RemoteJobHandler } from './job-handler.js';
import type { ResultPlan, StoredJobOutcome } from './result-placement.js';
import { answerCall, fromWire, toWire, type FromThread, type JobThreadData, type ToThread } from './thread-protocol.js';

export interface JobThreadPoolOptions {
  /** The thread's module: it calls serveJobThread with the handlers of this build (built JS, not TypeScript source). */
  entry: URL;
  /** At most this many threads; each may hold several jobs (their I/O waits interleave). */
  size: number;
  config: Config;
  log: Logger;
  /** Handlers on the threads use the OCR engine of each job's context here (`services.ocr`), not one of their own. */
  sharedOcr?: boolean;
  /** Told the number of running threads whenever it changes (e.g. a metrics gauge). */
  onThreadCount?: (n: number) => void;
  /** A thread beyond the first without jobs for this long is stopped (its ~100 MB returned). Default 5 minutes. */
  idleMs?: number;
  /** How long a job may go on after its signal fired before its thread is terminated. Default 10 s. */
  abortGraceMs?: number;
}

const asError = (reason: unknown): Error => (reason instanceof Error ? reason : new Error(String(reason)));
const outOfMemory = (e: unknown) => (e as { code?: string } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';

interface Run { ctx: ClaimedJobContext; resolve: (o: StoredJobOutcome) => void; reject: (e: Error) => void }

interface JobThread {
  worker: Worker;
  ready: Promise<void>;
  runs: Map<number, Run>;
  idleTimer?: NodeJS.Timeout;
  /** Takes the thread out of the pool and rejects its jobs (once). */
  fail(e: Error): void;
}

/**
 * Runs job handlers on worker threads so that CPU-bound steps (layout of a long document, XLSX
 * parsing, table structure, form detection) never block this process's event loop: the gateway keeps
 * answering in embedded mode, and in every mode the queue's lock renewal, heartbeats and cancel checks
 * keep their timing. `handler(kind)` is a RemoteJobHandler for the JobRunner: the job runs on a thread,
 * which stores its result and answers where it went. Jobs go to the least busy thread; threads start
 * when needed, up to `size` (loading the step code takes a thread one to a few seconds, so `warm()`
 * starts the first one ahead of the first job), and all but one stop when idle. A thread that dies
 * fails the jobs it held (the runner records GENERAL_001, a retryable code, and retries them) and the
 * next job gets a new thread. A job whose signal fired (cancel, time-out) is told to stop; if it has not
 * within the grace period, its thread is terminated and replaced: a handler stuck in a synchronous loop
 * can be stopped no other way, and every job sent to its thread would wait behind it.
 */
export class JobThreadPool {
  private readonly threads = new Set<JobThread>();
  private nextRunId = 1;
  private closed = false;

  constructor(private readonly opts: JobThreadPoolOptions) {
    if (opts.size < 1) throw new Error('JobThreadPool needs at least one thread');
  }

  /** Starts the first thread now (in the background), so the first job does not wait for it to load. */
  warm(): void {
    if (!this.closed && this.threads.size === 0) this.start();
  }

  /** A handler for `kind` that runs on a thread (the thread's module must know the kind). */
  handler(kind: string): RemoteJobHandler {
    return { runAndStore: (ctx, plan) => this.run(kind, ctx, plan) };
  }

  private async run(kind: string, ctx: ClaimedJobContext, plan: ResultPlan): Promise<StoredJobOutcome> {
    if (this.closed) throw new Error('job thread pool is closed');
    ctx.signal.throwIfAborted();
    const t = this.pick();
    clearTimeout(t.idleTimer);
    t.worker.ref(); // a job in hand keeps the process alive, as it would on the main thread
    const runId = this.nextRunId++;
    const done = new Promise<StoredJobOutcome>((resolve, reject) => t.runs.set(runId, { ctx, resolve, reject }));
    done.catch(() => undefined); // awaited below; a thread that fails to start rejects it first
    let grace: NodeJS.Timeout | undefined;
    // read by the job's throwIfStopped on the thread: seen even while a synchronous loop keeps the thread from reading `abort`
    const stopFlag = new Int32Array(new SharedArrayBuffer(4));
    const stop = () => {
      Atomics.store(stopFlag, 0, 1);
      this.post(t, { type: 'abort', runId, reason: toWire(ctx.signal.reason) });
      const graceMs = this.opts.abortGraceMs ?? 10_000;
      grace = setTimeout(() => this.terminate(t, runId, kind, graceMs), graceMs);
      grace.unref();
    };
    try {
      await t.ready;
      ctx.signal.throwIfAborted();
      this.post(t, { type: 'run', runId, kind, job: ctx.job, org: ctx.org, blobPrefix: ctx.blobPrefix, plan, stopFlag });
      ctx.signal.addEventListener('abort', stop, { once: true });
      return await done;
    } finally {
      ctx.signal.removeEventListener('abort', stop);
      clearTimeout(grace);
      t.runs.delete(runId);
      this.scheduleIdleStop(t);
    }
  }

  /** A job that went on past its grace period: its thread is ended (failing the jobs beside it) and replaced. */
  private terminate(t: JobThread, runId: number, kind: string, graceMs: number): void {
    const run = t.runs.get(runId);
    if (!run) return;
    run.reject(asError(run.ctx.signal.reason));
    this.opts.log.warn({ jobId: run.ctx.job.id, kind, graceMs }, 'job thread terminated: a job went on after it was told to stop');
    t.fail(new Error(`job thread terminated: a ${kind} job went on after it was told to stop`));
    void t.worker.terminate();
    this.warm();
  }

  /** The thread with the fewest jobs; a new one while every thread is busy and the pool is not full. */
  private pick(): JobThread {
    let best: JobThread | undefined;
    for (const t of this.threads) if (!best || t.runs.size < best.runs.size) best = t;
    if (best && (best.runs.size === 0 || this.threads.size >= this.opts.size)) return best;
    return this.start();
  }

  private start(): JobThread {
    const data: JobThreadData = { config: this.opts.config, sharedOcr: this.opts.sharedOcr ?? false };
    const heapMb = this.opts.config.jobThreadMemoryMb;
    const worker = new Worker(this.opts.entry, { workerData: data, ...(heapMb > 0 ? { resourceLimits: { maxOldGenerationSizeMb: heapMb } } : {}) });
    worker.unref(); // an idle thread never keeps the process alive
    let onReady!: () => void, onFail!: (e: Error) => void;
    const ready = new Promise<void>((res, rej) => { onReady = res; onFail = rej; });
    ready.catch(() => undefined);
    const fail = (e: Error) => {
      if (!this.threads.delete(t)) return;
      this.counted();
      onFail(e);
      for (const r of t.runs.values()) r.reject(e);
      if (!this.closed) this.opts.log.error({ err: e, jobs: t.runs.size }, 'job thread ended; its jobs failed');
    };
    const t: JobThread = { worker, ready, runs: new Map(), fail };
    this.threads.add(t);
    this.counted();
    worker.on('message', (m: FromThread) => this.onMessage(t, m, onReady));
    worker.on('error', (e) => fail(outOfMemory(e) ? this.memoryError() : e instanceof Error ? e : new Error(String(e))));
    worker.on('exit', (code) => fail(new Error(`job thread exited (code ${code})`)));
    return t;
  }

  private onMessage(t: JobThread, m: FromThread, onReady: () => void): void {
    if (m.type === 'ready') { onReady(); return; }
    if (m.type === 'call') { void this.answer(t, m); return; }
    const run = t.runs.get(m.runId);
    if (m.type === 'done') run?.resolve(m.outcome);
    // a job that stopped because it was told to ends with its signal's reason (the thread may not have heard it yet)
    else if (run?.ctx.signal.aborted) run.reject(asError(run.ctx.signal.reason));
    else run?.reject(fromWire(m.error));
  }

  /** A thread's call into its job's context: answered here, where the connections live. */
  private async answer(t: JobThread, m: Extract<FromThread, { type: 'call' }>): Promise<void> {
    try {
      const run = t.runs.get(m.runId);
      if (!run) throw new Error('call for a job that is no longer running');
      this.post(t, { type: 'reply', callId: m.callId, value: await answerCall(run.ctx, m) });
    } catch (e) {
      this.post(t, { type: 'reply', callId: m.callId, error: toWire(e) });
    }
  }

  private post(t: JobThread, m: ToThread): void {
    try {
      t.worker.postMessage(m);
    } catch (e) {
      // an answer that cannot be cloned becomes an error for the caller
      if (m.type === 'reply' && m.value !== undefined) t.worker.postMessage({ type: 'reply', callId: m.callId, error: toWire(e) } satisfies ToThread);
      else throw e;
    }
  }

  private scheduleIdleStop(t: JobThread): void {
    if (t.runs.size > 0 || this.closed) return;
    t.worker.unref();
    clearTimeout(t.idleTimer);
    t.idleTimer = setTimeout(() => {
      if (t.runs.size === 0 && this.threads.size > 1 && this.threads.delete(t)) {
        this.counted();
        void t.worker.terminate();
      }
    }, this.opts.idleMs ?? 300_000);
    t.idleTimer.unref();
  }

  /** What the jobs of a thread that ran out of heap fail with (retryable, like any crash: a neighbour may have used the memory). */
  private memoryError(): QuireError {
    const limit = this.opts.config.jobThreadMemoryMb;
    return new QuireError('PROC_001', `Document processing failed: it needed more memory than a job thread may use (QUIRE_JOB_THREAD_MEMORY_MB=${limit})`, { reason: 'out_of_memory', limitMb: limit });
  }

  /** Threads started and not stopped. */
  get threadCount(): number {
    return this.threads.size;
  }

  private counted(): void {
    this.opts.onThreadCount?.(this.threads.size);
  }

  /** Stops every thread; jobs still running on one fail. Call after the runner has drained. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.threads];
    this.threads.clear();
    this.counted();
    await Promise.all(all.map(async (t) => {
      clearTimeout(t.idleTimer);
      for (const r of t.runs.values()) r.reject(new Error('job thread pool closed'));
      await t.worker.terminate();
    }));
  }
}
