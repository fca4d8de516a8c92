import type { BlobStore, JobSummary, MetadataStore } from '@quire/storage';
import type { Logger } from '@quire/runtime';
import type { JobEventPublisher } from './job-event-publisher.js';

/** The advisory lock of a sweep round (migrate.ts's lock is 727274). */
export const RETENTION_LOCK_KEY = 727275;

/**
 * Retention: jobs past their expiry (48 h by default, per organization) lose their stored result,
 * offloaded payloads and staged source copies, and become `expired`. Organizations that opted into
 * delete-after-retrieval lose them as soon as the completed result was read once.
 *
 * Every gateway of a fleet runs one (embedded mode: the one process). A round runs under an advisory
 * lock taken without waiting (`SqlClient.withTryLock`): the replica that gets it sweeps, the others skip
 * that round. Not for correctness: expiring a job is already safe to run twice at once (the blob
 * deletions and the artifact update are idempotent, and the status change is a compare-and-set that
 * only one caller wins, so the job is counted and its event written once). The lock stops every replica
 * from walking the same oldest batch in step and repeating each S3 listing and deletion N times, which
 * matters most for a backlog (docs/decisions.md, "Platform").
 */
export class RetentionSweeper {
  private timer?: NodeJS.Timeout;
  private running?: Promise<number | null>;
  private stopping = false;
  constructor(
    private readonly store: MetadataStore, private readonly blobs: BlobStore, private readonly log: Logger,
    /** Where `expired` is published live (a job followed that long is rare, but its followers learn it). */
    private readonly events?: JobEventPublisher,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => { void this.sweepOnce().catch((e) => this.log.error({ err: e }, 'retention sweep failed')); }, intervalMs);
    this.timer.unref();
  }

  /**
   * One round; returns how many jobs this round expired, or null when another sweeper (another process
   * on the same database) was running a round and this one skipped. Overlapping calls share the round in progress.
   */
  sweepOnce(now = new Date()): Promise<number | null> {
    this.running ??= this.round(now).finally(() => { this.running = undefined; });
    return this.running;
  }

  private async round(now: Date): Promise<number | null> {
    const r = await this.store.sql.withTryLock(RETENTION_LOCK_KEY, () => this.sweep(now));
    if (!r.acquired) {
      this.log.debug('retention sweep skipped: another process is sweeping');
      return null;
    }
    return r.value;
  }

  private async sweep(now: Date): Promise<number> {
    let count = 0;
    for (;;) {
      const batch = await this.store.jobs.listExpired(now);
      if (!batch.length) break;
      for (const job of batch) {
        if (this.stopping) return this.done(count);
        if (await this.expire(job)) count++;
      }
      if (batch.length < 100) break;
    }
    for (const job of await this.store.jobs.listRetrievedToDelete()) {
      if (this.stopping) break;
      if (await this.expire(job)) count++;
    }
    return this.done(count);
  }

  private done(count: number): number {
    if (count) this.log.info({ count }, 'expired jobs swept');
    return count;
  }

  /**
   * Blobs first, status last: a process that dies in between leaves the job in a terminal status, so
   * the next round lists it and finishes. True when this call made the job `expired` (the compare-and-set
   * transition; false when it was already expired, e.g. by another sweeper).
   */
  async expire(job: Pick<JobSummary, 'id' | 'org_id'>): Promise<boolean> {
    await this.blobs.deletePrefix(`${job.org_id}/${job.id}/`);
    await this.store.artifacts.markExpiredForJob(job.id);
    const done = await this.store.jobs.transition(job.id, 'expired', { result: null, result_blob: null, result_inline_blob: null, result_token: null });
    await this.events?.status(done);
    return Boolean(done);
  }

  /**
   * No more rounds; a round in progress stops after the job in hand (the rest wait for the next start:
   * they stay listed). Resolves when it has, so the caller can close the stores under it.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }
}
