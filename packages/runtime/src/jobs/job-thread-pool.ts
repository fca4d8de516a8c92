import { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import { QuireError } from '@quire/core';
import { JOB_CATALOG, isJobKind } from '@quire/queue';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { ClaimedJobContext, RunnableJobHandler, SerializedJobOutcome } from './job-handler.js';
import type { PlacedResult } from './result-placement.js';
import { REMOTE_ROOTS, asBuffers, fromWire, toWire, type FromThread, type JobThreadData, type StreamRef, type ToThread } from './thread-protocol.js';

export interface JobThreadPoolOptions {
  /** The thread's module: it calls serveJobThread with the handlers of this build (built JS, not TypeScript source). */
  entry: URL;
  /** At most this many threads; each may hold several jobs (their I/O waits interleave). */
  size: number;
  config: Config;
  log: Logger;
  /** Shared services of this process that threads call remotely instead of making their own (e.g. the OCR pool). */
  remoteServices?: string[];
  /** Told the number of running threads whenever it changes (e.g. a metrics gauge). */
  onThreadCount?: (n: number) => void;
  /** A thread beyond the first without jobs for this long is stopped (its ~100 MB returned). Default 5 minutes. */
  idleMs?: number;
  /** How long a job of `kind` may hold its thread before the thread is deemed stuck and stopped. Default: the kind's JOB_CATALOG timeout. */
  timeoutMs?: (kind: string) => number;
}

interface Run { ctx: ClaimedJobContext; resolve: (o: SerializedJobOutcome) => void; reject: (e: Error) => void }

interface JobThread {
  worker: Worker;
  ready: Promise<void>;
  runs: Map<number, Run>;
  /** The thread's result streams being read here, by stream id. */
  streams: Map<number, Readable>;
  /** Result streams the thread is placing (see placeResult), by stream id. */
  placing: Map<number, { resolve: (p: PlacedResult) => void; reject: (e: Error) => void }>;
  idleTimer?: NodeJS.Timeout;
  /** Takes the thread out of the pool and rejects its jobs (once). */
  fail(e: Error): void;
}

/**
 * Runs job handlers on worker threads so that CPU-bound steps (layout of a long document, XLSX
 * parsing, table structure, form detection) never block this process's event loop: the gateway keeps
 * answering in embedded mode, and in every mode the queue's lock renewal, heartbeats and cancel checks
 * keep their timing. The JobRunner is unchanged: `handler(kind)` is a handler whose work happens on a
 * thread, and whose result comes back as JSON bytes. Jobs go to the least busy thread; threads start
 * when needed, up to `size` (loading the step code takes a thread one to a few seconds, so `warm()`
 * starts the first one ahead of the first job), and all but one stop when idle. A thread that dies fails the jobs it held (the
 * runner records GENERAL_001, a retryable code, and retries them) and the next job gets a new thread.
 * A thread still holding a job past that kind's time limit is stopped the same way: a handler stuck in
 * a synchronous loop can be interrupted no other way, and every job later sent to its thread would wait
 * behind it (the runner's own timeout answers PROC_002 for the job but cannot free the thread).
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

  /** A handler for `kind` that runs on a thread (the thread's module must know the kind); its result comes back serialized. */
  handler(kind: string): RunnableJobHandler {
    return (ctx) => this.run(kind, ctx);
  }

  private async run(kind: string, ctx: ClaimedJobContext): Promise<SerializedJobOutcome> {
    if (this.closed) throw new Error('job thread pool is closed');
    const t = this.pick();
    clearTimeout(t.idleTimer);
    t.worker.ref(); // a job in hand keeps the process alive, as it would on the main thread
    const runId = this.nextRunId++;
    const done = new Promise<SerializedJobOutcome>((resolve, reject) => t.runs.set(runId, { ctx, resolve, reject }));
    done.catch(() => undefined); // awaited below; a thread that fails to start rejects it first
    const limitMs = this.opts.timeoutMs?.(kind) ?? (isJobKind(kind) ? JOB_CATALOG[kind].timeoutMs : undefined);
    const timer = limitMs === undefined ? undefined : setTimeout(() => {
      const run = t.runs.get(runId);
      if (!run) return;
      run.reject(new QuireError('PROC_002', `Processing took longer than ${Math.round(limitMs / 1000)} s`));
      t.fail(new Error(`job thread stopped: a ${kind} job held it past its time limit`));
      void t.worker.terminate();
    }, limitMs);
    timer?.unref();
    try {
      await t.ready;
      this.post(t, { type: 'run', runId, kind, job: ctx.job, org: ctx.org, blobPrefix: ctx.blobPrefix });
      return await done;
    } finally {
      clearTimeout(timer);
      t.runs.delete(runId);
      this.scheduleIdleStop(t);
    }
  }

  /** The thread with the fewest jobs; a new one while every thread is busy and the pool is not full. */
  private pick(): JobThread {
    let best: JobThread | undefined;
    for (const t of this.threads) if (!best || t.runs.size < best.runs.size) best = t;
    if (best && (best.runs.size === 0 || this.threads.size >= this.opts.size)) return best;
    return this.start();
  }

  private start(): JobThread {
    const data: JobThreadData = { config: this.opts.config, remoteServices: this.opts.remoteServices ?? [] };
    const worker = new Worker(this.opts.entry, { workerData: data });
    worker.unref(); // an idle thread never keeps the process alive
    let onReady!: () => void, onFail!: (e: Error) => void;
    const ready = new Promise<void>((res, rej) => { onReady = res; onFail = rej; });
    ready.catch(() => undefined);
    const fail = (e: Error) => {
      if (!this.threads.delete(t)) return;
      this.counted();
      onFail(e);
      for (const r of t.runs.values()) r.reject(e);
      for (const r of [...t.streams.values()]) r.destroy(e);
      for (const p of t.placing.values()) p.reject(e);
      t.placing.clear();
      if (!this.closed) this.opts.log.error({ err: e, jobs: t.runs.size }, 'job thread died; its jobs failed');
    };
    const t: JobThread = { worker, ready, runs: new Map(), streams: new Map(), placing: new Map(), fail };
    this.threads.add(t);
    this.counted();
    worker.on('message', (m: FromThread) => {
      if (m.type === 'ready') onReady();
      else this.onMessage(t, m);
    });
    worker.on('error', (e) => fail(e instanceof Error ? e : new Error(String(e))));
    worker.on('exit', (code) => fail(new Error(`job thread exited (code ${code})`)));
    return t;
  }

  private onMessage(t: JobThread, m: Exclude<FromThread, { type: 'ready' }>): void {
    if (m.type === 'call') { void this.answer(t, m); return; }
    if (m.type === 'piece') { this.onPiece(t, m); return; }
    if (m.type === 'placed') {
      const p = t.placing.get(m.streamId);
      t.placing.delete(m.streamId);
      if (m.error) p?.reject(fromWire(m.error));
      else p?.resolve(m.placed!);
      return;
    }
    const run = t.runs.get(m.runId);
    if (!run) {
      if (m.type === 'done') this.importStream(t, m.outcome.resultJson).destroy(); // a run already given up: its result is let go
      return;
    }
    if (m.type === 'done') {
      const resultJson = this.importStream(t, m.outcome.resultJson);
      const streamId = m.outcome.resultJson.$quireStream;
      run.resolve({
        ...m.outcome,
        resultJson,
        // placed by the thread instead of read here: the stream is then the thread's to finish
        placeResult: (extra, placement) => new Promise<PlacedResult>((resolve, reject) => {
          if (!t.streams.delete(streamId)) { reject(new Error('the result stream was already read or let go')); return; }
          t.placing.set(streamId, { resolve, reject });
          this.post(t, { type: 'place-result', streamId, extra, placement });
        }),
      });
    }
    else if (m.type === 'failed') run.reject(fromWire(m.error));
  }

  /** A thread's call into the job's context: resolved here, where the connections live. */
  private async answer(t: JobThread, m: Extract<FromThread, { type: 'call' }>): Promise<void> {
    try {
      const run = t.runs.get(m.runId);
      if (!run) throw new Error('call for a job that is no longer running');
      if (!REMOTE_ROOTS.has(m.path[0])) throw new Error(`a job thread may not call ${m.path.join('.')}`);
      let owner: unknown;
      let target: unknown = run.ctx;
      for (const p of m.path) { owner = target; target = (target as Record<string, unknown> | undefined)?.[p]; }
      if (typeof target !== 'function') throw new Error(`${m.path.join('.')} is not a function of the job context`);
      const value = await (target as (...a: unknown[]) => unknown).apply(owner, m.args.map(asBuffers));
      this.post(t, { type: 'reply', callId: m.callId, value });
    } catch (e) {
      this.post(t, { type: 'reply', callId: m.callId, error: toWire(e) });
    }
  }

  /**
   * A stream left on thread `t` (see StreamRef), read here as a Readable: each read asks the thread for
   * one piece, so the thread writes the next piece only when this side wants it. Destroying it before
   * its end tells the thread to let the stream go.
   */
  private importStream(t: JobThread, ref: StreamRef): Readable {
    const streamId = ref.$quireStream;
    const readable = new Readable({
      read: () => { if (t.streams.has(streamId)) this.post(t, { type: 'pull', streamId }); },
      destroy: (err, cb) => {
        try {
          if (t.streams.delete(streamId)) this.post(t, { type: 'drop-stream', streamId });
        } catch { /* the thread is gone, and its stream with it */ }
        cb(err);
      },
    });
    // the thread's end destroys its streams with an error: one nobody is reading yet (a reader that comes
    // later still gets that error) must not take the process down as an unhandled 'error' event
    readable.on('error', () => undefined);
    t.streams.set(streamId, readable);
    return readable;
  }

  private onPiece(t: JobThread, m: Extract<FromThread, { type: 'piece' }>): void {
    const readable = t.streams.get(m.streamId);
    if (!readable) return;
    if (m.error) { t.streams.delete(m.streamId); readable.destroy(fromWire(m.error)); }
    else if (m.end) { t.streams.delete(m.streamId); readable.push(null); }
    else if (m.bytes) readable.push(Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength));
  }

  private post(t: JobThread, m: ToThread): void {
    try {
      t.worker.postMessage(m);
    } catch (e) {
      // an answer that cannot be cloned (a stream, a function) becomes an error for the caller
      if (m.type === 'reply' && m.value !== undefined) t.worker.postMessage({ type: 'reply', callId: m.callId, error: toWire(e) } satisfies ToThread);
      else throw e;
    }
  }

  private scheduleIdleStop(t: JobThread): void {
    if (t.runs.size > 0 || this.closed) return;
    t.worker.unref();
    clearTimeout(t.idleTimer);
    t.idleTimer = setTimeout(() => {
      if (t.runs.size === 0 && t.streams.size === 0 && t.placing.size === 0 && this.threads.size > 1 && this.threads.delete(t)) {
        this.counted();
        void t.worker.terminate();
      }
    }, this.opts.idleMs ?? 300_000);
    t.idleTimer.unref();
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
