import { isTerminal } from '@quire/core';
import type { JobEventBus, JobPageResult, JobStatusEventData } from '@quire/queue';
import type { JobProgress, JobSummary } from '@quire/storage';
import type { Logger } from '@quire/runtime';

/** What a status event is made from: a job row as a transition returned it. */
export type JobStatusSource = Pick<JobSummary, 'id' | 'status' | 'error'> & { progress?: JobProgress | null };

/**
 * Publishes a job's live events after the change they report was committed: its status on every
 * transition (and `end` after a terminal one), pages done as they finish, page results. Best effort by design: the job row is the
 * truth and the events route re-reads it, so a failed publish is logged, never thrown into the job.
 */
export class JobEventPublisher {
  constructor(private readonly bus: JobEventBus, private readonly log: Logger) {}

  async status(job: JobStatusSource | undefined): Promise<void> {
    if (!job) return;
    await this.send(job.id, { type: 'status', data: statusEventData(job) });
    // a terminal status is the last word: `end` tells followers to close (its id lets a reconnect see it too)
    if (isTerminal(job.status)) await this.send(job.id, { type: 'end', data: { job_id: job.id, status: job.status } });
  }

  async progress(jobId: string, done: number, total: number): Promise<void> {
    await this.send(jobId, { type: 'progress', data: { job_id: jobId, pages_done: done, pages_total: total } });
  }

  async pages(jobId: string, pages: readonly JobPageResult[]): Promise<void> {
    for (const p of pages) {
      const data = { job_id: jobId, page: p.page, markdown: p.markdown, elements: p.elements, provisional: p.provisional, ...(p.error ? { error: p.error } : {}) };
      await this.send(jobId, { type: 'page', data });
    }
  }

  private async send(jobId: string, event: Parameters<JobEventBus['publish']>[1]): Promise<void> {
    try {
      await this.bus.publish(jobId, event);
    } catch (e) {
      this.log.warn({ err: e, jobId, event: event.type }, 'could not publish a job event');
    }
  }
}

/** The `status` event's data for a job row: the snapshot a client gets on connect, and every change. */
export function statusEventData(job: JobStatusSource): JobStatusEventData {
  return {
    job_id: job.id,
    status: job.status,
    ...(job.progress ? { pages_done: job.progress.pages_done, pages_total: job.progress.pages_total } : {}),
    ...(job.error && (job.status === 'failed' || job.status === 'canceled' || job.status === 'pending')
      ? { error: { code: job.error.code, message: job.error.message } } : {}),
  };
}
