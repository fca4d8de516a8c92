import { randomUUID } from 'node:crypto';
import { QuireError, assertCancelable, isTerminal } from '@quire/core';
import type { ApiKeyRecord, JobRecord, JobSummary, MetadataStore, Organization } from '@quire/storage';
import { JOB_CATALOG, type JobInput, type JobKind, type JobOptions, type JobQueue } from '@quire/queue';
import type { Logger } from '@quire/runtime';
import { settleBatchParent } from './batch.js';
import type { JobEventPublisher } from './job-event-publisher.js';

export interface SubmitJob<K extends JobKind = JobKind> {
  org: Organization;
  key: ApiKeyRecord | null;
  kind: K;
  /** Whether the caller waits for the result (false) or polls by id; stored as the request's `async`. */
  async: boolean;
  /** Normalized request options (what the handler needs besides the inputs), as the catalog gives them for K. */
  request: JobOptions<K>;
  /** Input references: blob keys, artifact ids. Never document bytes. */
  input: JobInput<K>;
  /** Credits reserved against the key's cap before any processing. */
  quoteCredits: number;
  /** Pages the quote is based on (checked against the plan's page limit). */
  quotePages: number;
  jobId?: string;
  parentId?: string;
}

/**
 * Accepting, canceling and awaiting jobs: the gateway side of the job machinery. Acceptance is one
 * transaction (reserve credits, check the plan, insert the job and its job.created event), then the
 * id is enqueued.
 */
export class JobService {
  constructor(
    private readonly store: MetadataStore, private readonly queue: JobQueue, private readonly retentionHours: number, private readonly log: Logger,
    /** Live events of the transitions made here (submit, cancel); the runner publishes the worker's. */
    readonly events: JobEventPublisher,
  ) {}

  async submit<K extends JobKind>(s: SubmitJob<K>): Promise<JobSummary> {
    const id = s.jobId ?? randomUUID();
    const retention = s.org.retention_hours ?? this.retentionHours;
    const job = await this.store.sql.transaction(async (tx) => {
      if (s.org.page_limit !== null && s.quotePages > 0) {
        const pagesUsed = await this.store.ledger.pagesSince(s.org.id, billingPeriod(new Date()).start, tx);
        if (pagesUsed + s.quotePages > s.org.page_limit) {
          throw new QuireError('BILLING_002', `Page limit exceeded: this request needs ${s.quotePages} pages and ${s.org.page_limit - pagesUsed} remain in this billing period`,
            { page_limit: s.org.page_limit, pages_used: pagesUsed, pages_requested: s.quotePages });
        }
      }
      if (s.key && s.quoteCredits > 0 && !(await this.store.keys.reserve(s.key.id, s.quoteCredits, tx))) {
        throw new QuireError('BILLING_004', `Credit cap reached: this request needs ${s.quoteCredits} credits and the API key's cap would be exceeded`,
          { credit_cap: s.key.credit_cap, credits_requested: s.quoteCredits });
      }
      return this.store.jobs.create({
        id, org_id: s.org.id, key_id: s.key?.id ?? null, kind: s.kind, request: { ...s.request, async: s.async }, input: s.input,
        credits_reserved: s.key ? s.quoteCredits : 0, expires_at: new Date(Date.now() + retention * 3600_000), parent_id: s.parentId,
      }, tx);
    });
    this.log.info({ orgId: s.org.id, jobId: id, kind: s.kind, async: s.async, quoteCredits: s.quoteCredits }, 'job accepted');
    await this.events.status(job);
    // With a broker the job is marked (and announced) queued before it is enqueued: a worker in another
    // process may claim it the moment it is in the queue, and its `processing` event must not reach a
    // listener before this `queued` one. Recovery treats pending and queued alike, so a gateway that dies
    // between the two loses nothing.
    const queued = this.queue.brokered ? await this.store.jobs.transition(id, 'queued') : undefined;
    if (queued) await this.events.status(queued);
    try {
      await this.queue.enqueue(JOB_CATALOG[s.kind].queue, { jobId: id, kind: s.kind });
    } catch (e) {
      this.log.error({ err: e, jobId: id }, 'enqueue failed; failing the job');
      await this.events.status(await this.store.jobs.endAndRelease(id, 'failed', { code: 'GENERAL_002', message: `Could not enqueue: ${(e as Error).message}` }));
      throw new QuireError('GENERAL_002', 'The job queue is unavailable; nothing was charged, please retry');
    }
    return queued ?? job;
  }

  /** DELETE /job/{id}: cancels pending/queued/processing work; the worker stops at its next page boundary. */
  async cancel(orgId: string, jobId: string): Promise<JobSummary> {
    const job = await this.store.jobs.getForOrg(orgId, jobId);
    if (!job) throw new QuireError('JOB_001', 'Job not found', { job_id: jobId });
    assertCancelable(job.status);
    const canceled = await this.store.jobs.endAndRelease(jobId, 'canceled');
    if (!canceled) {
      const now = await this.store.jobs.getForOrg(orgId, jobId);
      assertCancelable(now!.status); // raced to a terminal state: report that state's error
      throw new QuireError('JOB_004', 'Job is changing state; retry the cancel');
    }
    this.log.info({ orgId, jobId, from: job.status }, 'job canceled');
    await this.events.status(canceled);
    await this.queue.publishSettled(jobId).catch(() => undefined);
    // A batch parent takes its unfinished children with it; a canceled child may be the last one its parent waited for.
    for (const child of await this.store.jobs.listChildren(jobId)) {
      if (!isTerminal(child.status)) await this.cancel(orgId, child.id).catch(() => undefined);
    }
    const parent = canceled.parent_id ? await settleBatchParent(this.store, canceled.parent_id) : undefined;
    if (parent) {
      await this.events.status(parent);
      await this.queue.publishSettled(parent.id).catch(() => undefined);
    }
    return canceled;
  }

  /**
   * Waits until the job is terminal or `timeoutMs` passes. Listens for settled notifications and
   * also polls (slowly) so a lost notification only costs latency, never correctness.
   */
  async waitFor(jobId: string, timeoutMs: number): Promise<JobRecord | undefined> {
    const deadline = Date.now() + timeoutMs;
    let wake: () => void = () => undefined;
    const off = this.queue.onSettled((id) => { if (id === jobId) wake(); });
    try {
      for (;;) {
        const job = await this.store.jobs.get(jobId);
        if (job && isTerminal(job.status)) return job;
        const left = deadline - Date.now();
        if (left <= 0) return undefined;
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, Math.min(left, 1000));
          wake = () => { clearTimeout(t); resolve(); };
        });
      }
    } finally {
      off();
    }
  }
}

/** Billing periods are calendar months (UTC). */
export function billingPeriod(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}
