import { JOB_SUMMARY_COLUMNS, type BlobStore, type JobSummary, type MetadataStore } from '@quire/storage';
import type { Logger } from '../logger.js';

/**
 * Retention: jobs past their expiry (48 h by default, per organization) lose their stored result,
 * offloaded payloads and staged source copies, and become `expired`. Organizations that opted into
 * delete-after-retrieval lose them as soon as the completed result was read once.
 */
export class RetentionSweeper {
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  constructor(private readonly store: MetadataStore, private readonly blobs: BlobStore, private readonly log: Logger) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => { void this.sweepOnce().catch((e) => this.log.error({ err: e }, 'retention sweep failed')); }, intervalMs);
    this.timer.unref();
  }

  /** One pass; returns how many jobs expired. Overlapping calls share the pass in progress. */
  sweepOnce(now = new Date()): Promise<number> {
    this.running ??= this.sweep(now).finally(() => { this.running = undefined; });
    return this.running;
  }

  private async sweep(now: Date): Promise<number> {
    let count = 0;
    for (;;) {
      const batch = await this.store.jobs.listExpired(now);
      if (!batch.length) break;
      for (const job of batch) if (await this.expire(job)) count++;
      if (batch.length < 100) break;
    }
    const retrieved = await this.store.sql.query<JobSummary>(
      `SELECT ${JOB_SUMMARY_COLUMNS.map((c) => `j.${c}`).join(', ')} FROM jobs j JOIN organizations o ON o.id = j.org_id
       WHERE o.delete_after_retrieval AND j.status = 'completed' AND j.result_retrieved_at IS NOT NULL LIMIT 500`);
    for (const job of retrieved.rows) if (await this.expire(job)) count++;
    if (count) this.log.info({ count }, 'expired jobs swept');
    return count;
  }

  async expire(job: Pick<JobSummary, 'id' | 'org_id'>): Promise<boolean> {
    await this.blobs.deletePrefix(`${job.org_id}/${job.id}/`);
    await this.store.artifacts.markExpiredForJob(job.id);
    const done = await this.store.jobs.transition(job.id, 'expired', { result: null, result_blob: null, result_inline_blob: null, result_token: null });
    return Boolean(done);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
