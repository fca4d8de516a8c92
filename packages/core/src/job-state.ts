import { QuireError } from './errors.js';

/** The spec's job states. `queued` only appears where a queue sits between acceptance and dispatch. */
const JOB_STATUSES = ['pending', 'queued', 'processing', 'completed', 'failed', 'canceled', 'expired'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

const TERMINAL_STATUSES: ReadonlySet<JobStatus> = new Set(['completed', 'failed', 'canceled', 'expired']);
export const isTerminal = (s: JobStatus) => TERMINAL_STATUSES.has(s);

/**
 * Allowed transitions, the one place they are enforced. The stores use `fromStatusesFor(to)` in
 * their compare-and-set UPDATEs (`WHERE status = ANY($from)`), so a canceled job can never become
 * completed, whatever order the gateway and a worker act in.
 */
const TRANSITIONS: Record<JobStatus, readonly JobStatus[]> = {
  pending: ['queued', 'processing', 'canceled', 'failed'],
  queued: ['processing', 'canceled', 'failed', 'pending'],
  // processing → pending: a worker hands the job back (graceful shutdown, retry after a retryable error).
  processing: ['completed', 'failed', 'canceled', 'pending'],
  completed: ['expired'],
  failed: ['expired'],
  canceled: ['expired'],
  expired: [],
};

export const canTransition = (from: JobStatus, to: JobStatus) => TRANSITIONS[from].includes(to);

/** Statuses from which `to` may be reached: the WHERE clause of a compare-and-set. */
export function fromStatusesFor(to: JobStatus): JobStatus[] {
  return JOB_STATUSES.filter((s) => TRANSITIONS[s].includes(to));
}

/** Throws the spec's error for a cancel request on a job in `status`. */
export function assertCancelable(status: JobStatus): void {
  if (status === 'canceled') throw new QuireError('JOB_002', 'Job already cancelled');
  if (status === 'expired') throw new QuireError('JOB_003', 'Job expired');
  if (status === 'completed' || status === 'failed') {
    throw new QuireError('REQ_003', `Job is already ${status} and can no longer be canceled`, { status });
  }
}

/** The webhook event name for entering a status (the spec spells the event "cancelled"). */
export function eventTypeFor(status: JobStatus): string | undefined {
  switch (status) {
    case 'pending': return 'job.created';
    case 'processing': return 'job.processing';
    case 'completed': return 'job.completed';
    case 'failed': return 'job.failed';
    case 'canceled': return 'job.cancelled';
    default: return undefined;
  }
}
