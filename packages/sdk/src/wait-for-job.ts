import { backoffDelay, sleep, type BackoffOptions } from './backoff.js';
import { QuireError, statusOf } from './errors.js';
import { EventsUnavailableError, jobEvents, type JobEvent, type JobPageResult } from './events.js';
import type { Transport } from './transport.js';
import type { Job, JobStatus, ResultPointer } from './types.js';

export interface JobProgress { job_id: string; status: JobStatus; pages_done?: number; pages_total?: number }

export interface WaitOptions {
  signal?: AbortSignal;
  /** Called on every status change and page count (from live events, or from each poll). */
  onProgress?: (p: JobProgress) => void;
  /**
   * Called with each page's result as soon as it is done, in page order (live events with partial results; extract
   * only). A job retried after a worker failed reads its pages again: a page number seen before comes again, and the
   * later result replaces the earlier one (key pages by `page`).
   */
  onPage?: (page: JobPageResult) => void;
  /** Use GET /job/{id}/events when the service has it (default true); polling otherwise. */
  events?: boolean;
  /** Polling backoff (default 500 ms growing ×1.5 up to 5 s, with jitter). */
  poll?: BackoffOptions;
  /** Cancel the job (DELETE /job/{id}) when `signal` aborts (default false; true for calls that submitted it). */
  cancelOnAbort?: boolean;
}

export const TERMINAL: ReadonlySet<JobStatus> = new Set(['completed', 'failed', 'canceled', 'expired']);

/**
 * Waits for a job to settle and returns its result (a large result's URL is followed). Live events when the
 * service offers them, else polling with exponential backoff and jitter. A failed, canceled or expired job throws
 * QuireError with the job's code.
 */
export async function waitForJob<R>(t: Transport, jobId: string, o: WaitOptions = {}): Promise<R> {
  o = { ...o, onProgress: o.onProgress && keepPageCounts(o.onProgress) };
  try {
    if (o.events !== false) {
      try {
        await followEvents(t, jobId, o);
      } catch (e) {
        if (!(e instanceof EventsUnavailableError)) throw e;
      }
    }
    // After live events ended this is one read of the settled job; without them it is the polling loop.
    return await resultOf<R>(t, await pollUntilSettled(t, jobId, o), o.signal);
  } catch (e) {
    // Cancel before rethrowing, so a caller that exits right after (a CLI on Ctrl-C) has sent it.
    if (o.cancelOnAbort && o.signal?.aborted) {
      await t.request('DELETE', `/job/${encodeURIComponent(jobId)}`, { noRetry: true, signal: AbortSignal.timeout(5000) }).catch(() => undefined);
    }
    throw e;
  }
}

/**
 * Status events and job views may omit page counts: report the last known ones instead of none. Repeats (the
 * settled job read after the events ended) are reported once.
 */
function keepPageCounts(onProgress: (p: JobProgress) => void): (p: JobProgress) => void {
  let done: number | undefined;
  let total: number | undefined;
  let last = '';
  return (p) => {
    done = p.pages_done ?? done;
    total = p.pages_total ?? total;
    const key = `${p.status}:${done}/${total}`;
    if (key === last) return;
    last = key;
    onProgress({ ...p, pages_done: done, pages_total: total });
  };
}

async function followEvents(t: Transport, jobId: string, o: WaitOptions): Promise<void> {
  // pages asked for: from the job's first event (the service replays what it retains), so pages done before
  // the stream opened are not missed
  const fromStart = o.onPage ? { partial: true, lastEventId: 0 } : {};
  for await (const ev of jobEvents(t, jobId, { signal: o.signal, ...fromStart })) report(ev, o);
}

function report(ev: JobEvent, o: WaitOptions): void {
  if (ev.type === 'status' || ev.type === 'progress') {
    o.onProgress?.({ job_id: ev.data.job_id, status: ev.type === 'status' ? ev.data.status : 'processing', pages_done: ev.data.pages_done, pages_total: ev.data.pages_total });
  } else if (ev.type === 'page') {
    const { job_id: _job, ...page } = ev.data;
    o.onPage?.({ ...page, elements: page.elements ?? [], provisional: page.provisional ?? false }); // a server from before #22 sent markdown only
  }
}

/** Polls GET /job/{id} until a terminal status. */
async function pollUntilSettled(t: Transport, jobId: string, o: WaitOptions): Promise<Job> {
  const poll = o.poll ?? { initialMs: 500, maxMs: 5000, factor: 1.5 };
  for (let attempt = 0; ; attempt++) {
    const job = await t.json<Job>('GET', `/job/${encodeURIComponent(jobId)}`, { signal: o.signal });
    o.onProgress?.({ job_id: job.job_id, status: job.status, pages_done: job.progress?.pages_done, pages_total: job.progress?.pages_total });
    if (TERMINAL.has(job.status)) return job;
    await sleep(backoffDelay(attempt, poll), o.signal);
  }
}

const isPointer = (r: unknown): r is ResultPointer => typeof r === 'object' && r !== null && (r as ResultPointer).is_url === true && typeof (r as ResultPointer).url === 'string';

/** A settled job's result, or its failure as QuireError. */
export async function resultOf<R>(t: Transport, job: Job, signal?: AbortSignal): Promise<R> {
  switch (job.status) {
    case 'completed':
      if (isPointer(job.result)) return t.json<R>('GET', job.result.url, { signal });
      if (job.result !== undefined) return job.result as R;
      return t.json<R>('GET', `/results/${encodeURIComponent(job.job_id)}`, { signal });
    case 'failed':
      throw new QuireError(job.error_code ?? 'JOB_005', job.error ?? 'Job failed', statusOf(job.error_code ?? 'JOB_005'), { job_id: job.job_id }, job.job_id);
    case 'canceled':
      throw new QuireError('JOB_002', 'Job was canceled', 409, { job_id: job.job_id }, job.job_id);
    case 'expired':
      throw new QuireError('JOB_003', 'Job expired: its results were removed by the retention policy', 410, { job_id: job.job_id }, job.job_id);
    default:
      throw new QuireError('JOB_004', `Job still ${job.status}`, 409, { job_id: job.job_id }, job.job_id);
  }
}
