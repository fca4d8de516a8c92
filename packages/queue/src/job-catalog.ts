import type { QueueName } from './job-queue.js';

/**
 * The job catalog: the single source of truth for which queue a job kind runs on, how often it is
 * attempted, its backoff and its time limit. Both enqueue and work take their routing from here.
 */
export const JOB_CATALOG = {
  extract: { queue: 'extract', attempts: 3, backoff: { baseMs: 1000, maxMs: 30_000 }, timeoutMs: 30 * 60_000 },
  classify: { queue: 'extract', attempts: 3, backoff: { baseMs: 1000, maxMs: 30_000 }, timeoutMs: 10 * 60_000 },
  schema: { queue: 'schema', attempts: 3, backoff: { baseMs: 2000, maxMs: 60_000 }, timeoutMs: 15 * 60_000 },
  split: { queue: 'schema', attempts: 3, backoff: { baseMs: 2000, maxMs: 60_000 }, timeoutMs: 15 * 60_000 },
  tables: { queue: 'tables', attempts: 3, backoff: { baseMs: 1000, maxMs: 30_000 }, timeoutMs: 15 * 60_000 },
  charts: { queue: 'charts', attempts: 3, backoff: { baseMs: 1000, maxMs: 30_000 }, timeoutMs: 15 * 60_000 },
  form_detect: { queue: 'forms', attempts: 3, backoff: { baseMs: 1000, maxMs: 30_000 }, timeoutMs: 10 * 60_000 },
  form_fill: { queue: 'forms', attempts: 3, backoff: { baseMs: 1000, maxMs: 30_000 }, timeoutMs: 10 * 60_000 },
  form_clear: { queue: 'forms', attempts: 3, backoff: { baseMs: 1000, maxMs: 30_000 }, timeoutMs: 10 * 60_000 },
} as const satisfies Record<string, { queue: QueueName; attempts: number; backoff: { baseMs: number; maxMs: number }; timeoutMs: number }>;

export type JobKind = keyof typeof JOB_CATALOG;
export const isJobKind = (k: string): k is JobKind => Object.prototype.hasOwnProperty.call(JOB_CATALOG, k);

/** Exponential backoff with full jitter: a random delay in [0, min(max, base·2^(attempt−1))]. */
export function retryDelayMs(kind: JobKind, attempt: number, random: () => number = Math.random): number {
  const { baseMs, maxMs } = JOB_CATALOG[kind].backoff;
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}
