import { EventEmitter } from 'node:events';
import { QuireError } from '@quire/core';
import { QUEUE_NAMES, type JobQueue, type MessageHandler, type QueueMessage, type QueueName, type WorkOptions } from './job-queue.js';

export interface InProcessJobQueueOptions {
  /** Delay before the first redelivery of a message whose handler threw; doubles per attempt (default 250 ms). */
  redeliveryDelayMs?: number;
  /** Deliveries per message before it is dropped and reported through onError (default 5, as for BullMQ). */
  maxDeliveries?: number;
  /** Handler failures and dropped messages: for logging. */
  onError?: (err: unknown, ctx: { queue: QueueName; msg: QueueMessage; delivery: number; dropped: boolean }) => void;
}

interface Delivery {
  msg: QueueMessage;
  delivery: number; // 1 = first delivery
}

interface Lane {
  waiting: Delivery[];
  delayed: number;
  running: number;
  handler?: MessageHandler;
  concurrency: number;
}

const SETTLED = 'settled';

/**
 * The embedded queue: per-queue FIFO in memory, dispatched to at most `concurrency` handlers at a
 * time. Nothing here is durable on purpose: in embedded mode the job rows in the metadata store are
 * the truth, and the runtime re-enqueues pending/processing jobs when the process starts. That is also
 * why `brokered` is false: a job goes from pending straight to processing.
 */
export class InProcessJobQueue implements JobQueue {
  readonly kind = 'in-process' as const;
  readonly brokered = false;
  private readonly lanes = new Map<QueueName, Lane>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly settled = new EventEmitter();
  private readonly redeliveryDelayMs: number;
  private readonly maxDeliveries: number;
  private readonly onError: NonNullable<InProcessJobQueueOptions['onError']>;
  private closing?: Promise<void>;

  constructor(opts: InProcessJobQueueOptions = {}) {
    this.redeliveryDelayMs = opts.redeliveryDelayMs ?? 250;
    this.maxDeliveries = Math.max(1, opts.maxDeliveries ?? 5);
    this.onError = opts.onError ?? (() => undefined);
    this.settled.setMaxListeners(0); // one listener per sync wait in flight
  }

  private lane(queue: QueueName): Lane {
    let lane = this.lanes.get(queue);
    if (!lane) {
      lane = { waiting: [], delayed: 0, running: 0, concurrency: 0 };
      this.lanes.set(queue, lane);
    }
    return lane;
  }

  async enqueue(queue: QueueName, msg: QueueMessage, opts?: { delayMs?: number }): Promise<void> {
    if (this.closing) throw new QuireError('GENERAL_002', 'Job queue is closed');
    if (!QUEUE_NAMES.includes(queue)) throw new QuireError('GENERAL_001', `Unknown queue ${queue}`);
    // Copy the ids only: a handler must never see (or mutate) the caller's object.
    this.schedule(queue, { msg: { jobId: msg.jobId, kind: msg.kind }, delivery: 1 }, opts?.delayMs ?? 0);
  }

  private schedule(queue: QueueName, d: Delivery, delayMs: number): void {
    const lane = this.lane(queue);
    if (delayMs <= 0) {
      lane.waiting.push(d);
      this.pump(queue);
      return;
    }
    lane.delayed++;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      lane.delayed--;
      lane.waiting.push(d);
      this.pump(queue);
    }, delayMs);
    timer.unref(); // a pending delay must not keep a finished process alive
    this.timers.add(timer);
  }

  work(queue: QueueName, handler: MessageHandler, opts: WorkOptions): void {
    if (this.closing) throw new QuireError('GENERAL_002', 'Job queue is closed');
    if (!Number.isInteger(opts.concurrency) || opts.concurrency < 1) {
      throw new RangeError(`concurrency must be a positive integer, got ${opts.concurrency}`);
    }
    const lane = this.lane(queue);
    if (lane.handler) throw new Error(`Queue ${queue} already has a consumer in this process`);
    lane.handler = handler;
    lane.concurrency = opts.concurrency;
    this.pump(queue);
  }

  private pump(queue: QueueName): void {
    const lane = this.lane(queue);
    while (!this.closing && lane.handler && lane.running < lane.concurrency && lane.waiting.length > 0) {
      this.run(queue, lane, lane.handler, lane.waiting.shift() as Delivery);
    }
  }

  private run(queue: QueueName, lane: Lane, handler: MessageHandler, d: Delivery): void {
    lane.running++;
    const p: Promise<void> = this.deliver(queue, handler, d).finally(() => {
      lane.running--;
      this.inFlight.delete(p);
      this.pump(queue);
    });
    this.inFlight.add(p);
  }

  private async deliver(queue: QueueName, handler: MessageHandler, d: Delivery): Promise<void> {
    await null; // never run a handler inside the caller's enqueue()/work() stack
    try {
      await handler({ ...d.msg });
    } catch (err) {
      const dropped = d.delivery >= this.maxDeliveries || !!this.closing;
      this.onError(err, { queue, msg: d.msg, delivery: d.delivery, dropped });
      if (!dropped) {
        const delay = this.redeliveryDelayMs * 2 ** (d.delivery - 1);
        this.schedule(queue, { msg: d.msg, delivery: d.delivery + 1 }, delay);
      }
    }
  }

  async depth(): Promise<Record<QueueName, number>> {
    const out = {} as Record<QueueName, number>;
    for (const q of QUEUE_NAMES) {
      const lane = this.lanes.get(q);
      out[q] = lane ? lane.waiting.length + lane.delayed : 0;
    }
    return out;
  }

  async publishSettled(jobId: string): Promise<void> {
    this.settled.emit(SETTLED, jobId);
  }

  onSettled(listener: (jobId: string) => void): () => void {
    // A throwing listener must not break the publisher or the listeners after it.
    const safe = (jobId: string) => {
      try {
        listener(jobId);
      } catch {
        /* the listener's own problem */
      }
    };
    this.settled.on(SETTLED, safe);
    return () => { this.settled.off(SETTLED, safe); };
  }

  async ping(): Promise<void> {
    if (this.closing) throw new QuireError('GENERAL_002', 'Job queue is closed');
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    // Handlers in flight finish (or hand their job back); waiting messages are dropped, since the
    // metadata store still has their jobs as pending and start-up recovery re-enqueues them.
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    for (const lane of this.lanes.values()) {
      lane.waiting.length = 0;
      lane.delayed = 0;
    }
    this.settled.removeAllListeners();
  }
}
