import { randomBytes } from 'node:crypto';
import { QuireError, isQuireError } from '@quire/core';
import type { BlobStore, JobRecord, MetadataStore } from '@quire/storage';
import { JOB_CATALOG, canRetry, isJobKind, retryDelayMs, type JobEventBus, type JobQueue, type QueueMessage, type QueueName } from '@quire/queue';
import type { Config, Logger, Metrics } from '@quire/runtime';
import { JobStoppedError, servicesForJob, type ClaimedJobContext, type JobServices, type RunnableJobHandler } from './job-handler.js';
import { billingSnapshot } from './plan-info.js';
import { classifyCrash } from './crash-error.js';
import { storeResult, type ResultPlan, type StoredJobOutcome } from './result-placement.js';
import { settleBatchParent } from './batch.js';
import { JobEventPublisher } from './job-event-publisher.js';

export interface RunnerDeps {
  store: MetadataStore;
  blobs: BlobStore;
  queue: JobQueue;
  /** Where the runner's transitions, page progress and page results are published live. */
  events: JobEventBus;
  config: Config;
  log: Logger;
  metrics: Metrics;
  services: JobServices;
}

/**
 * The worker side of the job machinery: claim (compare-and-set), run the handler, then complete,
 * retry or fail in one place. A canceled job's late result is discarded; only the spec's retryable
 * codes are retried, with exponential backoff and jitter.
 */
export class JobRunner {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly events: JobEventPublisher;
  constructor(private readonly deps: RunnerDeps, private readonly handlers: Partial<Record<string, RunnableJobHandler>>) {
    this.events = new JobEventPublisher(deps.events, deps.log);
  }

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
      await this.events.status(await store.jobs.endAndRelease(msg.jobId, 'failed', { code: 'GENERAL_005', message: `No worker handles ${msg.kind} jobs` }));
      return;
    }
    const job = await store.jobs.claim(msg.jobId, config.jobLeaseMs);
    if (!job) return; // canceled, finished, or another worker holds a live lease: acknowledge and stop
    await this.events.status(job);
    const started = Date.now();
    // every line about this job, the handler's included, names its organization and the job
    const jobLog = log.child({ orgId: job.org_id, jobId: job.id, kind: job.kind });
    jobLog.info({ attempt: job.attempts }, 'job started');
    const org = await store.orgs.get(job.org_id);
    const stopping = new AbortController();
    const ctx: ClaimedJobContext = {
      job, org: org!, store, blobs: this.deps.blobs, config, log: jobLog,
      blobPrefix: `${job.org_id}/${job.id}/`, services: servicesForJob(this.deps.services, stopping.signal), signal: stopping.signal,
      // on this thread nothing can fire the signal while synchronous work runs: it is seen at the next check after
      throwIfStopped: () => stopping.signal.throwIfAborted(),
      checkpoint: async (done, total) => {
        stopping.signal.throwIfAborted(); // a job past its time limit stops at its next page, as a canceled one does
        const status = await store.jobs.heartbeat(job.id, config.jobLeaseMs, { pages_done: done, pages_total: total });
        if (status !== 'processing') {
          const stopped = new JobStoppedError(status);
          stopping.abort(stopped);
          throw stopped;
        }
        await this.events.progress(job.id, done, total);
      },
      pagesReady: (pages) => this.events.pages(job.id, pages),
    };
    const limitMs = JOB_CATALOG[msg.kind].timeoutMs;
    const timer = setTimeout(() => stopping.abort(new QuireError('PROC_002', `Processing took longer than ${Math.round(limitMs / 1000)} s`)), limitMs);
    // a cancel (DELETE /job) settles the job wherever it was asked: this process hears of it here
    const offSettled = this.deps.queue.onSettled((id) => { if (id === job.id) void this.stopIfNotProcessing(job.id, stopping); });
    try {
      const stored = await untilAborted(this.run(handler, ctx, await this.resultPlan(job)), stopping.signal);
      const status = await this.complete(job, stored);
      this.deps.metrics.jobDuration.observe({ kind: job.kind, status: 'completed' }, (Date.now() - started) / 1000);
      this.deps.metrics.pagesProcessed.inc({ kind: job.kind }, stored.pages);
      jobLog.info({ status, ms: Date.now() - started, pages: stored.pages, credits: stored.credits }, 'job finished');
    } catch (e) {
      this.deps.metrics.jobDuration.observe({ kind: job.kind, status: e instanceof JobStoppedError ? 'canceled' : 'failed' }, (Date.now() - started) / 1000);
      if (e instanceof JobStoppedError) {
        await this.discard(job);
        jobLog.info({ status: e.status ?? 'stopped', ms: Date.now() - started }, 'job finished');
      } else {
        const outcome = await this.failOrRetry(job, e, msg);
        jobLog.info({ status: outcome.status, code: outcome.code, ms: Date.now() - started }, outcome.status === 'pending' ? 'job attempt failed; retrying' : 'job finished');
      }
    } finally {
      clearTimeout(timer);
      offSettled();
      // whatever ended the job, work still going on for it stops (a job thread past its grace is terminated)
      stopping.abort(new JobStoppedError(undefined));
    }
    await this.deps.queue.publishSettled(job.id).catch(() => undefined);
    if (job.parent_id) await this.settleParent(job.parent_id);
  }

  /** Runs the handler and stores its result: here, or on a job thread that stores it there. */
  private async run(handler: RunnableJobHandler, ctx: ClaimedJobContext, plan: ResultPlan): Promise<StoredJobOutcome> {
    if (typeof handler !== 'function') return handler.runAndStore(ctx, plan);
    const outcome = await handler(ctx);
    ctx.signal.throwIfAborted(); // stopped while finishing: its result is not stored
    return storeResult(outcome, plan, this.deps.blobs);
  }

  /** What storing the result needs, known before the job runs (so a job thread stores it once, itself). */
  private async resultPlan(job: JobRecord): Promise<ResultPlan> {
    const { config } = this.deps;
    return {
      billing: await billingSnapshot(this.deps.store, job.org_id),
      rowLimitBytes: config.resultRowLimitBytes, inlineLimitBytes: config.inlineResultLimitBytes,
      async: job.request.async === true,
      blobKey: `${job.org_id}/${job.id}/result.json`,
    };
  }

  private async stopIfNotProcessing(jobId: string, stopping: AbortController): Promise<void> {
    const status = (await this.deps.store.jobs.get(jobId).catch(() => undefined))?.status;
    if (status !== 'processing') stopping.abort(new JobStoppedError(status));
  }

  private async settleParent(parentId: string): Promise<void> {
    try {
      const parent = await settleBatchParent(this.deps.store, parentId);
      if (parent) {
        await this.events.status(parent);
        await this.deps.queue.publishSettled(parentId).catch(() => undefined);
      }
    } catch (e) {
      this.deps.log.warn({ err: e, parentId }, 'could not settle the batch parent');
    }
  }

  /** Completes the job; 'canceled' when it was canceled meanwhile (its outputs are then discarded). */
  private async complete(job: JobRecord, outcome: StoredJobOutcome): Promise<'completed' | 'canceled'> {
    const { store } = this.deps;
    const { placed } = outcome;
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
      if (job.key_id) await store.keys.settle(job.key_id, job.credits_reserved, outcome.credits, tx);
      await store.ledger.record({ org_id: job.org_id, key_id: job.key_id, job_id: job.id, kind: job.kind, credits: outcome.credits, pages: outcome.pages, documents: outcome.documents ?? 1 }, tx);
      return j;
    });
    if (!done) {
      await this.discard(job);
      return 'canceled';
    }
    await this.events.status(done);
    return 'completed';
  }

  /** A canceled job's artifacts are removed; its reservation was released by the cancel. */
  private async discard(job: JobRecord): Promise<void> {
    await this.deps.blobs.deletePrefix(`${job.org_id}/${job.id}/out/`).catch(() => undefined);
    await this.deps.blobs.delete(`${job.org_id}/${job.id}/result.json`).catch(() => undefined);
  }

  private async failOrRetry(job: JobRecord, e: unknown, msg: QueueMessage): Promise<{ status: 'pending' | 'failed'; code: string }> {
    const { store, queue, log } = this.deps;
    const kind = msg.kind as keyof typeof JOB_CATALOG;
    const { error: err, retry } = isQuireError(e) ? { error: e, retry: e.retryable } : classifyCrash(e, kind);
    if (!isQuireError(e)) log.error({ err: e, orgId: job.org_id, jobId: job.id, code: err.code, retry }, 'job handler crashed');
    if (retry && canRetry(kind, job.attempts)) {
      const back = await store.jobs.transition(job.id, 'pending', { error: { code: err.code, message: err.message } });
      if (back) {
        await this.events.status(back);
        const delay = retryDelayMs(kind, job.attempts);
        log.warn({ orgId: job.org_id, jobId: job.id, code: err.code, attempt: job.attempts, delay }, 'retrying job');
        await queue.enqueue(JOB_CATALOG[kind].queue, msg, { delayMs: delay });
        return { status: 'pending', code: err.code };
      }
    }
    await this.events.status(await store.jobs.endAndRelease(job.id, 'failed', { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) }));
    return { status: 'failed', code: err.code };
  }

  /** Stops taking work and waits for jobs in flight (the queue's close does the former). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }
}

/** `p`, or the signal's reason as soon as it fires (the work itself is told to stop by the same signal). */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => { onAbort = () => reject(signal.reason); });
  signal.addEventListener('abort', onAbort, { once: true });
  p.catch(() => undefined); // an answer after the abort is let go
  return Promise.race([p, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}
