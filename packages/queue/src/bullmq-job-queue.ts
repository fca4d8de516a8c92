import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Queue, Worker } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import { QuireError } from '@quire/core';
import { QUEUE_NAMES, type JobQueue, type MessageHandler, type QueueMessage, type QueueName, type WorkOptions } from './job-queue.js';

export interface BullMqJobQueueOptions {
  redisUrl: string;
  /** Key namespace: every key is `${prefix}:${queue}:…`; settled events go on `${prefix}:settled`. Default 'quire'. */
  prefix?: string;
  /** Deliveries per message when handlers throw (default 5). */
  attempts?: number;
  /** First redelivery delay; exponential with 50 % jitter after that (default 1000 ms). */
  backoffDelayMs?: number;
  /**
   * How long a worker's lock on a message lasts without renewal (default 120 s, renewed every half).
   * Handlers run CPU work on worker threads, but a generous lock keeps a briefly starved event loop
   * from being mistaken for a dead worker and the message from running twice.
   */
  lockDurationMs?: number;
  /** Stalled-job check period (default 60 s) and how often a message may stall before failing (default 2). */
  stalledIntervalMs?: number;
  maxStalledCount?: number;
  /** How long a producer call waits for a (re)connection before failing with GENERAL_002 (default 3 s). */
  readyTimeoutMs?: number;
  /** Connection and handler problems, for logging. Default: ignored. */
  onError?: (err: unknown, where: string) => void;
}

/** Sanitise an id for BullMQ, which refuses ':' in custom job ids and integer-looking ids. */
const safeIdPart = (s: string) => s.replace(/[^A-Za-z0-9_.-]/g, '_');

/**
 * The fleet queue on Redis with BullMQ: one BullMQ queue per QueueName, workers per service.
 *
 * BullMQ job ids are `${jobId}.${kind}.${unique}`. BullMQ silently ignores an add() whose id already
 * exists (kept completed/failed jobs included), so using the bare job id would swallow a legitimate
 * re-enqueue: a job handed back after a retryable error, or re-queued by start-up recovery, would never
 * run again. A fresh suffix per enqueue trades that away for possible duplicate deliveries, which are
 * harmless: workers claim the job row with a compare-and-set and drop a message whose job is no longer
 * pending. The job id and kind stay in the BullMQ id so an operator can find a job's messages.
 */
export class BullMqJobQueue implements JobQueue {
  readonly kind = 'bullmq' as const;
  readonly brokered = true;
  readonly prefix: string;
  private readonly opts: BullMqJobQueueOptions;
  private readonly producer: Redis;
  private readonly queues = new Map<QueueName, Queue>();
  private readonly workers: { worker: Worker; conn: Redis }[] = [];
  private readonly settled = new EventEmitter();
  private subscriber?: Redis;
  private subscribed?: Promise<void>;
  private closing?: Promise<void>;
  private readonly onError: (err: unknown, where: string) => void;

  constructor(opts: BullMqJobQueueOptions) {
    this.opts = opts;
    this.prefix = opts.prefix ?? 'quire';
    this.onError = opts.onError ?? (() => undefined);
    // Producers sit on HTTP request paths: fail fast instead of queueing commands while Redis is away.
    this.producer = this.connect({ maxRetriesPerRequest: 1, enableOfflineQueue: false }, 'producer');
    this.settled.setMaxListeners(0);
  }

  get settledChannel(): string {
    return `${this.prefix}:settled`;
  }

  private connect(extra: RedisOptions, where: string): Redis {
    // disconnectTimeout: ioredis 6 arms this timer even when the socket is already gone (disconnect()
    // while reconnecting), holding the process open that long after close().
    const conn = new Redis(this.opts.redisUrl, { connectTimeout: 5_000, disconnectTimeout: 300, ...extra });
    conn.on('error', (e) => this.onError(e, where)); // without a listener ioredis logs every reconnect failure
    return conn;
  }

  private queue(name: QueueName): Queue {
    if (!QUEUE_NAMES.includes(name)) throw new QuireError('GENERAL_001', `Unknown queue ${name}`);
    let q = this.queues.get(name);
    if (!q) {
      q = new Queue(name, {
        connection: this.producer,
        prefix: this.prefix,
        defaultJobOptions: {
          attempts: this.opts.attempts ?? 5,
          backoff: { type: 'exponential', delay: this.opts.backoffDelayMs ?? 1_000, jitter: 0.5 },
          // The metadata store keeps the history; Redis keeps a little for operators.
          removeOnComplete: { count: 1_000, age: 3_600 },
          removeOnFail: { count: 5_000, age: 7 * 24 * 3_600 },
        },
      });
      q.on('error', (e) => this.onError(e, `queue:${name}`));
      this.queues.set(name, q);
    }
    return q;
  }

  async enqueue(queue: QueueName, msg: QueueMessage, opts?: { delayMs?: number }): Promise<void> {
    if (this.closing) throw new QuireError('GENERAL_002', 'Job queue is closed');
    await this.producerReady();
    const q = this.queue(queue);
    const unique = `${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
    const id = `${safeIdPart(msg.jobId)}.${safeIdPart(msg.kind)}.${unique}`;
    try {
      await q.add(msg.kind, { jobId: msg.jobId, kind: msg.kind }, {
        jobId: id,
        ...(opts?.delayMs && opts.delayMs > 0 ? { delay: Math.round(opts.delayMs) } : {}),
      });
    } catch (e) {
      throw new QuireError('GENERAL_002', 'Job queue unavailable', { queue, cause: e instanceof Error ? e.message : String(e) });
    }
  }

  work(queue: QueueName, handler: MessageHandler, opts: WorkOptions): void {
    if (this.closing) throw new QuireError('GENERAL_002', 'Job queue is closed');
    if (!QUEUE_NAMES.includes(queue)) throw new QuireError('GENERAL_001', `Unknown queue ${queue}`);
    if (!Number.isInteger(opts.concurrency) || opts.concurrency < 1) {
      throw new RangeError(`concurrency must be a positive integer, got ${opts.concurrency}`);
    }
    // Workers block on Redis (BZPOPMIN): BullMQ requires maxRetriesPerRequest null on their connection.
    const conn = this.connect({ maxRetriesPerRequest: null }, `worker:${queue}`);
    const worker = new Worker(queue, async (job) => {
      const data = job.data as QueueMessage;
      await handler({ jobId: data.jobId, kind: data.kind });
    }, {
      connection: conn,
      prefix: this.prefix,
      concurrency: opts.concurrency,
      lockDuration: this.opts.lockDurationMs ?? 120_000,
      stalledInterval: this.opts.stalledIntervalMs ?? 60_000,
      maxStalledCount: this.opts.maxStalledCount ?? 2,
    });
    worker.on('error', (e) => this.onError(e, `worker:${queue}`));
    worker.on('failed', (job, e) => this.onError(e, `handler:${queue}:${job?.id ?? '?'}`));
    this.workers.push({ worker, conn });
  }

  /**
   * The producer has no offline queue, so a command sent while it is (re)connecting fails at once;
   * wait a bounded time for the connection instead, then fail with GENERAL_002.
   */
  private async producerReady(): Promise<void> {
    const conn = this.producer;
    if (conn.status === 'ready') return;
    if (conn.status === 'end' || conn.status === 'close') {
      throw new QuireError('GENERAL_002', 'Job queue unavailable', { cause: `redis connection ${conn.status}` });
    }
    const timeoutMs = this.opts.readyTimeoutMs ?? 3_000;
    let timer: NodeJS.Timeout | undefined;
    let onReady: (() => void) | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        onReady = resolve;
        conn.once('ready', onReady);
        timer = setTimeout(() => reject(new QuireError('GENERAL_002', 'Job queue unavailable', {
          cause: `redis not ready after ${timeoutMs} ms`,
        })), timeoutMs);
      });
    } finally {
      clearTimeout(timer);
      if (onReady) conn.off('ready', onReady);
    }
  }

  async depth(): Promise<Record<QueueName, number>> {
    await this.producerReady();
    const out = {} as Record<QueueName, number>;
    await Promise.all(QUEUE_NAMES.map(async (name) => {
      const counts = await this.queue(name).getJobCounts('waiting', 'delayed', 'prioritized');
      out[name] = (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0);
    }));
    return out;
  }

  async publishSettled(jobId: string): Promise<void> {
    await this.producerReady();
    await this.producer.publish(this.settledChannel, jobId);
  }

  onSettled(listener: (jobId: string) => void): () => void {
    this.ensureSubscribed().catch((e) => this.onError(e, 'subscriber'));
    const safe = (jobId: string) => {
      try {
        listener(jobId);
      } catch {
        /* the listener's own problem */
      }
    };
    this.settled.on('settled', safe);
    return () => { this.settled.off('settled', safe); };
  }

  /** A dedicated connection: a subscribed ioredis client can run no other commands. */
  private ensureSubscribed(): Promise<void> {
    if (!this.subscribed) {
      const sub = this.connect({ maxRetriesPerRequest: null }, 'subscriber');
      sub.on('message', (channel: string, message: string) => {
        if (channel === this.settledChannel) this.settled.emit('settled', message);
      });
      this.subscriber = sub;
      this.subscribed = sub.subscribe(this.settledChannel).then(() => undefined);
    }
    return this.subscribed;
  }

  /** Checks Redis; also waits until the settled subscription (if any) is live. */
  async ping(): Promise<void> {
    if (this.closing) throw new QuireError('GENERAL_002', 'Job queue is closed');
    await this.producerReady();
    try {
      await this.producer.ping();
      if (this.subscribed) await this.subscribed;
    } catch (e) {
      throw new QuireError('GENERAL_002', 'Job queue unavailable', { cause: e instanceof Error ? e.message : String(e) });
    }
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    // Workers first: Worker.close() stops fetching and waits for the handlers in flight.
    await Promise.allSettled(this.workers.map(({ worker }) => worker.close()));
    await Promise.allSettled([...this.queues.values()].map((q) => q.close()));
    this.settled.removeAllListeners();
    const conns = [this.producer, ...this.workers.map((w) => w.conn), ...(this.subscriber ? [this.subscriber] : [])];
    await Promise.allSettled(conns.map((c) => quit(c)));
  }
}

async function quit(conn: Redis): Promise<void> {
  if (conn.status === 'end') return;
  if (conn.status !== 'ready') {
    conn.disconnect(); // QUIT would wait for a connection that may never come
    return;
  }
  try {
    await conn.quit();
  } catch {
    conn.disconnect();
  }
}
