import { QuireError } from '@quire/core';
import type { OcrWorkerOptions, OcrPass, OcrWorker, OcrWorkerFactory, TessResult } from './ocr-worker.js';

interface Job {
  image: Uint8Array;
  pass?: OcrPass;
  attempts: number;
  resolve: (r: TessResult) => void;
  reject: (e: unknown) => void;
}

export interface WorkerPoolOptions {
  size: number;
  factory: OcrWorkerFactory;
  languages: string;
  onEngineOutput?: OcrWorkerOptions['onEngineOutput'];
  psm: number;
  tessdataDir?: string;
  /** A recognition running longer than this is treated as a hung worker (killed, replaced, retried once). */
  jobTimeoutMs: number;
}

/**
 * A fixed-size set of OCR worker threads with a FIFO queue. Workers start lazily (the first at
 * creation, the others when jobs wait). A worker whose job fails, hangs or whose thread dies is
 * killed and replaced, and the job is retried once on another worker; a second failure is the
 * job's error. The pool itself stays usable.
 */
export class WorkerPool {
  private readonly idle: OcrWorker[] = [];
  private readonly live = new Set<OcrWorker>();
  private starting = 0;
  private readonly queue: Job[] = [];
  private closed = false;
  private lastSpawnError: unknown = null;
  private spawnFailures = 0;

  constructor(private readonly opts: WorkerPoolOptions) {}

  get size(): number { return this.opts.size; }

  /** Workers currently alive (for tests and metrics). */
  get liveCount(): number { return this.live.size; }

  /** Starts one worker and waits for it, so a broken install fails at pool creation, not on page 1. */
  async warmUp(): Promise<void> {
    const w = await this.opts.factory(this.workerOptions());
    this.adopt(w);
  }

  private workerOptions() {
    return { languages: this.opts.languages, psm: this.opts.psm, tessdataDir: this.opts.tessdataDir, onEngineOutput: this.opts.onEngineOutput };
  }

  recognize(image: Uint8Array, pass?: OcrPass): Promise<TessResult> {
    if (this.closed) return Promise.reject(new QuireError('PROC_003', 'OCR pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ image, pass, attempts: 0, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new QuireError('PROC_003', 'OCR pool is closed'));
    const workers = [...this.live];
    this.live.clear();
    this.idle.length = 0;
    await Promise.all(workers.map((w) => w.terminate().catch(() => w.kill())));
  }

  private adopt(w: OcrWorker): void {
    if (this.closed) { void w.terminate(); return; }
    this.live.add(w);
    this.idle.push(w);
    // A thread that dies while idle is dropped; one that dies mid-job is handled by that job's failure path.
    w.onDeath(() => this.retire(w));
    this.dispatch();
  }

  /** Removes a worker for good (idempotent) and kills its thread. */
  private retire(w: OcrWorker): void {
    if (!this.live.delete(w)) return;
    const i = this.idle.indexOf(w);
    if (i >= 0) this.idle.splice(i, 1);
    w.kill();
    this.dispatch();
  }

  private dispatch(): void {
    if (this.closed) return;
    while (this.queue.length > 0 && this.idle.length > 0) {
      const job = this.queue.shift()!;
      const worker = this.idle.shift()!;
      void this.execute(worker, job);
    }
    // Three failed starts in a row mean the install is broken: stop trying instead of spinning.
    const canSpawn = this.spawnFailures < 3;
    const wanted = canSpawn ? Math.min(this.queue.length, this.opts.size - this.live.size - this.starting) : 0;
    for (let i = 0; i < wanted; i++) this.spawn();
    if (this.queue.length > 0 && this.live.size === 0 && this.starting === 0) {
      const err = new QuireError('PROC_003', 'OCR workers could not be started', { cause: String(this.lastSpawnError) });
      for (const job of this.queue.splice(0)) job.reject(err);
    }
  }

  private spawn(): void {
    this.starting++;
    this.opts.factory(this.workerOptions()).then(
      (w) => { this.starting--; this.spawnFailures = 0; this.adopt(w); },
      (e: unknown) => { this.starting--; this.spawnFailures++; this.lastSpawnError = e; this.dispatch(); },
    );
  }

  private async execute(worker: OcrWorker, job: Job): Promise<void> {
    job.attempts++;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`OCR job exceeded ${this.opts.jobTimeoutMs} ms`)), this.opts.jobTimeoutMs);
    });
    try {
      const result = await Promise.race([worker.recognize(job.image, job.pass), timeout]);
      clearTimeout(timer);
      if (this.live.has(worker)) { this.idle.push(worker); }
      job.resolve(result);
      this.dispatch();
    } catch (e) {
      clearTimeout(timer);
      // Whatever went wrong, this worker's state is suspect: replace it rather than reuse it.
      this.retire(worker);
      if (!this.closed && job.attempts < 2) {
        this.queue.unshift(job);
        this.dispatch();
      } else {
        job.reject(this.closed ? new QuireError('PROC_003', 'OCR pool is closed')
          : new QuireError('PROC_001', `OCR failed: ${e instanceof Error ? e.message : String(e)}`));
      }
    }
  }
}
