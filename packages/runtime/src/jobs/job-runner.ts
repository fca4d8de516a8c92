import { randomBytes } from 'node:crypto';
import { QuireError, isQuireError } from '@quire/core';
import type { BlobStore, JobRecord, MetadataStore } from '@quire/storage';
import { JOB_CATALOG, canRetry, isJobKind, retryDelayMs, type JobQueue, type QueueMessage, type QueueName } from '@quire/queue';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Metrics } from '../metrics.js';
import { JobStoppedError, type JobContext, type JobOutcome, type RunnableJobHandler, type SerializedJobOutcome } from './job-handler.js';
import { planInfo } from './plan-info.js';
import { placeResult, resultBody, type ResultPlacement } from './result-placement.js';
import { settleBatchParent } from './batch.js';

export interface RunnerDeps {
  store: MetadataStore;
  blobs: BlobStore;
  queue: JobQueue;
  config: Config;
  log: Logger;
  metrics: Metrics;
  services: Record<string, unknown>;
}

/**
 * The worker side of the job machinery: claim (compare-and-set), run the handler, then complete,
 * retry or fail in one place. A canceled job's late result is discarded; only the spec's retryable
 * codes are retried, with exponential backoff and jitter.
 */
export class JobRunner {
  private readonly inFlight = new Set<Promise<void>>();
  constructor(private readonly deps: RunnerDeps, private readonly handlers: Partial<Record<string, RunnableJobHandler>>) {}

  start(queues: readonly QueueName[]): void {
    for (const q of queues) this.deps.queue.work(q, (msg) => this.track(this.handle(msg)), { concurrency: this.deps.config.workerConcurrency });
  }

  private track(p: Promise<void>): Promise<void> {
    this.inFlight.add(p);
    return p.finally(() => this.inFlight.delete(p));
  }

  async handle(msg: QueueMessage): Promise<void> {
    const { store, config, log } = this.deps;
    const handler = this.handlers[msg.kind];
    if (!handler || !isJobKind(msg.kind)) {
      log.error({ msg }, 'no handler for job kind');
      await store.sql.transaction(async (tx) => {
        const failed = await store.jobs.transition(msg.jobId, 'failed', { error: { code: 'GENERAL_005', message: `No worker handles ${msg.kind} jobs` } }, tx);
        if (failed?.key_id) await store.keys.settle(tx, failed.key_id, Number(failed.credits_reserved), 0);
      });
      return;
    }
    const job = await store.jobs.claim(msg.jobId, config.jobLeaseMs);
    if (!job) return; // canceled, finished, or another worker holds a live lease: acknowledge and stop
    const started = Date.now();
    const org = await store.orgs.get(job.org_id);
    const ctx: JobContext = {
      job, org: org!, store, blobs: this.deps.blobs, config, log: log.child({ jobId: job.id, kind: job.kind }),
      blobPrefix: `${job.org_id}/${job.id}/`, services: this.deps.services,
      checkpoint: async (done, total) => {
        const status = await store.jobs.heartbeat(job.id, config.jobLeaseMs, { pages_done: done, pages_total: total });
        if (status !== 'processing') throw new JobStoppedError(status);
      },
    };
    try {
      const outcome = await withTimeout(handler(ctx), JOB_CATALOG[msg.kind].timeoutMs);
      await this.complete(job, outcome);
      this.deps.metrics.jobDuration.observe({ kind: job.kind, status: 'completed' }, (Date.now() - started) / 1000);
      this.deps.metrics.pagesProcessed.inc({ kind: job.kind }, outcome.pages);
    } catch (e) {
      this.deps.metrics.jobDuration.observe({ kind: job.kind, status: e instanceof JobStoppedError ? 'canceled' : 'failed' }, (Date.now() - started) / 1000);
      if (e instanceof JobStoppedError) { await this.discard(job); return; }
      await this.failOrRetry(job, e, msg);
    }
    await this.deps.queue.publishSettled(job.id).catch(() => undefined);
    if (job.parent_id) await this.settleParent(job.parent_id);
  }

  private async settleParent(parentId: string): Promise<void> {
    try {
      if (await settleBatchParent(this.deps.store, parentId)) await this.deps.queue.publishSettled(parentId).catch(() => undefined);
    } catch (e) {
      this.deps.log.warn({ err: e, parentId }, 'could not settle the batch parent');
    }
  }

  private async complete(job: JobRecord, outcome: JobOutcome | SerializedJobOutcome): Promise<void> {
    const { store, blobs, config } = this.deps;
    const info = await planInfo(store, job.org_id, outcome.credits, outcome.pages);
    const extra = { credits_used: outcome.credits, plan_info: info };
    const placement: ResultPlacement = {
      rowLimitBytes: config.resultRowLimitBytes, inlineLimitBytes: config.inlineResultLimitBytes,
      wantsUrl: outcome.preferUrlDelivery === true && job.request.async === true,
      blobKey: `${job.org_id}/${job.id}/result.json`,
    };
    // A job thread's result is placed by the thread itself (written from where it is serialized, so its
    // pieces never cross to this thread); any other is written from here. Either way it is written as it
    // is read (placeResult).
    const placed = 'placeResult' in outcome && outcome.placeResult
      ? await outcome.placeResult(extra, placement)
      : await placeResult(resultBody(outcome, extra)[Symbol.asyncIterator](), blobs, placement);
    const stored = 'blob' in placed ? placed.blob : null;
    const asUrl = 'blob' in placed && placed.asUrl;
    const token = asUrl ? randomBytes(18).toString('base64url') : null;
    const done = await store.sql.transaction(async (tx) => {
      const j = await store.jobs.transition(job.id, 'completed', {
        ...('row' in placed ? { result_json: placed.row } : { result: null }),
        result_blob: asUrl ? stored : null, result_inline_blob: asUrl ? null : stored, result_token: token,
        credits_used: outcome.credits, pages: outcome.pages,
      }, tx);
      if (!j) return undefined; // canceled while we worked: the result is discarded below
      for (const a of outcome.artifacts ?? []) {
        await store.artifacts.create({ id: a.id, org_id: job.org_id, job_id: job.id, type: a.type, parent_id: a.parentId ?? null, data: a.data, expires_at: j.expires_at }, tx);
      }
      if (job.key_id) await store.keys.settle(tx, job.key_id, Number(job.credits_reserved), outcome.credits);
      await store.ledger.record(tx, { org_id: job.org_id, key_id: job.key_id, job_id: job.id, kind: job.kind, credits: outcome.credits, pages: outcome.pages, documents: outcome.documents ?? 1 });
      return j;
    });
    if (!done) await this.discard(job);
  }

  /** A canceled job's artifacts are removed; its reservation was released by the cancel. */
  private async discard(job: JobRecord): Promise<void> {
    await this.deps.blobs.deletePrefix(`${job.org_id}/${job.id}/out/`).catch(() => undefined);
    await this.deps.blobs.delete(`${job.org_id}/${job.id}/result.json`).catch(() => undefined);
  }

  private async failOrRetry(job: JobRecord, e: unknown, msg: QueueMessage): Promise<void> {
    const { store, queue, log } = this.deps;
    const err = isQuireError(e) ? e : new QuireError('GENERAL_001', 'Processing failed unexpectedly');
    if (!isQuireError(e)) log.error({ err: e, jobId: job.id }, 'job handler crashed');
    const kind = msg.kind as keyof typeof JOB_CATALOG;
    if (err.retryable && canRetry(kind, job.attempts)) {
      const back = await store.jobs.transition(job.id, 'pending', { error: { code: err.code, message: err.message } });
      if (back) {
        const delay = retryDelayMs(kind, job.attempts);
        log.warn({ jobId: job.id, code: err.code, attempt: job.attempts, delay }, 'retrying job');
        await queue.enqueue(JOB_CATALOG[kind].queue, msg, { delayMs: delay });
        return;
      }
    }
    await store.sql.transaction(async (tx) => {
      const failed = await store.jobs.transition(job.id, 'failed', { error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } }, tx);
      if (failed?.key_id) await store.keys.settle(tx, failed.key_id, Number(failed.credits_reserved), 0);
    });
  }

  /** Stops taking work and waits for jobs in flight (the queue's close does the former). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let t: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(t)),
    new Promise<T>((_, reject) => { t = setTimeout(() => reject(new QuireError('PROC_002', `Processing took longer than ${Math.round(ms / 1000)} s`)), ms); }),
  ]);
}
