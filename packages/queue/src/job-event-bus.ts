import type { JobEvent, SequencedJobEvent } from '@quire/contracts';

export type { JobEvent, JobEventType, JobPageResult, JobStatusEventData, SequencedJobEvent } from '@quire/contracts';

/**
 * The live-progress port: job status changes, page progress and per-page results, numbered per job
 * and fanned out to whoever follows the job (GET /job/{id}/events). Events are a courtesy on top of
 * the job row, which stays the truth: a lost event costs a client latency, never a wrong answer.
 * Each job keeps a bounded window of its latest events so a reconnecting client can be replayed what
 * it missed. Adapters: in-process-job-event-bus (embedded) and redis-job-event-bus (fleet: workers
 * publish, gateways subscribe); both pass job-event-bus.conformance.ts.
 */
export interface JobEventBus {
  readonly kind: 'in-process' | 'redis';
  /** Numbers the event (one increasing sequence per job, across processes), retains it and delivers it. Returns its id. */
  publish(jobId: string, event: JobEvent): Promise<number>;
  /**
   * Delivers the job's events published from now on, in id order. Resolves once delivery is live (an
   * event published after that is delivered); the returned function stops it.
   */
  subscribe(jobId: string, listener: (event: SequencedJobEvent) => void): Promise<() => void>;
  /** The retained window (oldest first) and the last id given out for the job (0: none yet). */
  history(jobId: string): Promise<JobEventHistory>;
  /** Local listeners of a job, or of every job: what a client disconnect must bring back down. */
  listenerCount(jobId?: string): number;
  /** Stops delivery and closes connections. Idempotent. */
  close(): Promise<void>;
}

export interface JobEventHistory {
  lastId: number;
  events: SequencedJobEvent[];
}

export interface JobEventRetention {
  /** Events kept per job for replay (default 256). */
  maxEvents?: number;
  /** How long a job's window and sequence outlive its last event while the job runs (default 24 h). */
  ttlMs?: number;
  /**
   * How long they outlive a terminal status event (default 15 min): no event follows it, and the job row
   * answers from then on; the window only serves a client reconnecting just after the end.
   */
  terminalTtlMs?: number;
}

export const DEFAULT_EVENT_RETENTION = { maxEvents: 256, ttlMs: 24 * 3600_000, terminalTtlMs: 15 * 60_000 } as const;

const TERMINAL = new Set(['completed', 'failed', 'canceled']);

/** The window's time to live after `event`: shorter once the job has reached a terminal status. */
export function ttlAfter(event: JobEvent, ttlMs: number, terminalTtlMs: number): number {
  const status = event.type === 'status' ? (event.data as { status?: string }).status : undefined;
  return status !== undefined && TERMINAL.has(status) ? Math.min(ttlMs, terminalTtlMs) : ttlMs;
}

/** The retained events after `lastSeen`, or undefined when the window no longer reaches back that far. */
export function replayAfter(history: JobEventHistory, lastSeen: number): SequencedJobEvent[] | undefined {
  if (lastSeen > history.lastId) return undefined; // an id this sequence never gave out (state lost): start over
  if (lastSeen === history.lastId) return [];
  const oldest = history.events[0]?.id;
  if (oldest === undefined || oldest > lastSeen + 1) return undefined;
  return history.events.filter((e) => e.id > lastSeen);
}
