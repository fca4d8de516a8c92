import type { QueueName } from './job-queue.js';

/**
 * Every job kind Quire runs: which queue (worker service) takes it, how many attempts it gets in all
 * (the first run included), the backoff between attempts, and how long one attempt may run. Retries
 * apply only to the spec's retryable codes; the runtime's job runner reads this table.
 */
export interface JobSpec {
  queue: QueueName;
  attempts: number;
  backoff: { baseMs: number; maxMs: number };
  timeoutMs: number;
}

const MIN = 60_000;

export const JOB_CATALOG = {
  extract: { queue: 'extract', attempts: 3, backoff: { baseMs: 2_000, maxMs: 60_000 }, timeoutMs: 30 * MIN },
  classify: { queue: 'extract', attempts: 3, backoff: { baseMs: 2_000, maxMs: 60_000 }, timeoutMs: 10 * MIN },
  schema: { queue: 'schema', attempts: 3, backoff: { baseMs: 2_000, maxMs: 60_000 }, timeoutMs: 15 * MIN },
  split: { queue: 'schema', attempts: 3, backoff: { baseMs: 2_000, maxMs: 60_000 }, timeoutMs: 15 * MIN },
  tables: { queue: 'tables', attempts: 3, backoff: { baseMs: 2_000, maxMs: 60_000 }, timeoutMs: 15 * MIN },
  charts: { queue: 'charts', attempts: 3, backoff: { baseMs: 2_000, maxMs: 60_000 }, timeoutMs: 15 * MIN },
  form_detect: { queue: 'forms', attempts: 3, backoff: { baseMs: 1_000, maxMs: 30_000 }, timeoutMs: 10 * MIN },
  form_fill: { queue: 'forms', attempts: 3, backoff: { baseMs: 1_000, maxMs: 30_000 }, timeoutMs: 5 * MIN },
  form_clear: { queue: 'forms', attempts: 3, backoff: { baseMs: 1_000, maxMs: 30_000 }, timeoutMs: 5 * MIN },
} as const satisfies Record<string, JobSpec>;

export type JobKind = keyof typeof JOB_CATALOG;
export const JOB_KINDS = Object.keys(JOB_CATALOG) as JobKind[];

export const isJobKind = (k: unknown): k is JobKind =>
  typeof k === 'string' && Object.prototype.hasOwnProperty.call(JOB_CATALOG, k);

/** True when a job whose `attemptsMade` attempts all failed (retryably) may run again. */
export const canRetry = (kind: JobKind, attemptsMade: number): boolean => attemptsMade < JOB_CATALOG[kind].attempts;

/**
 * Delay before retry number `attempt` (1 = the first retry): exponential backoff with full jitter,
 * uniform in [0, min(maxMs, baseMs·2^(attempt−1))). Full jitter spreads a burst of failures (say,
 * a store that went away for a moment) instead of retrying them in lock-step.
 */
export function retryDelayMs(kind: JobKind, attempt: number, random: () => number = Math.random): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be an integer ≥ 1, got ${attempt}`);
  const { baseMs, maxMs } = JOB_CATALOG[kind].backoff;
  // 2^(attempt−1) overflows to Infinity for huge attempts; min() caps it either way.
  const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  const r = Math.min(Math.max(random(), 0), 1 - Number.EPSILON);
  return Math.floor(r * ceiling);
}
