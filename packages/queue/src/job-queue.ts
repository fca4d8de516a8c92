/**
 * The queue port. Payloads carry ids only; the job row in the metadata store is the truth, so a
 * queue adapter only has to deliver messages at least once, with an optional delay. Retry policy,
 * claiming (compare-and-set) and cancellation live in the runtime's job runner, not here.
 * Adapters: in-process-job-queue (embedded) and bullmq-job-queue (fleet); both pass job-queue.conformance.ts.
 */

/** One queue per worker service. */
export const QUEUE_NAMES = ['extract', 'schema', 'tables', 'forms', 'charts'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export interface QueueMessage {
  jobId: string;
  /** The job's kind (e.g. 'extract', 'form_fill'); the runner looks up its handler by this. */
  kind: string;
}

export type MessageHandler = (msg: QueueMessage) => Promise<void>;

export interface WorkOptions {
  concurrency: number;
}

export interface JobQueue {
  readonly kind: 'in-process' | 'bullmq';
  /** True when accepted jobs wait in a broker before dispatch (the spec's `queued` status applies). */
  readonly brokered: boolean;
  enqueue(queue: QueueName, msg: QueueMessage, opts?: { delayMs?: number }): Promise<void>;
  /** Starts consuming `queue`. A handler that throws has its message redelivered (at least once). */
  work(queue: QueueName, handler: MessageHandler, opts: WorkOptions): void;
  /** Messages waiting (not yet taken) per queue, for /metrics. */
  depth(): Promise<Record<QueueName, number>>;
  /** Tells every process that a job reached a terminal state (sync waits listen for this). */
  publishSettled(jobId: string): Promise<void>;
  onSettled(listener: (jobId: string) => void): () => void;
  ping(): Promise<void>;
  /** Stops taking new messages, waits for handlers in flight, closes connections. Idempotent. */
  close(): Promise<void>;
}
