import { Redis } from 'ioredis';
import { QuireError } from '@quire/core';
import type { JobEvent, SequencedJobEvent } from '@quire/contracts';
import { DEFAULT_EVENT_RETENTION, ttlAfter, type JobEventBus, type JobEventHistory, type JobEventRetention } from './job-event-bus.js';

export interface RedisJobEventBusOptions extends JobEventRetention {
  redisUrl: string;
  /** Key namespace: `${prefix}:job-events:${jobId}:{seq,window}` and channel `${prefix}:job-events:${jobId}`. Default 'quire'. */
  prefix?: string;
  onError?: (err: unknown, where: string) => void;
}

/**
 * Numbers, retains and publishes in one step, so ids are one sequence per job whichever process
 * publishes (a worker's progress, the gateway's cancel) and the channel carries them in id order.
 * The message is "<id> <event JSON>"; the window is a capped list that expires with the sequence.
 */
const PUBLISH_SCRIPT = `
local id = redis.call('INCR', KEYS[1])
local msg = id .. ' ' .. ARGV[1]
redis.call('RPUSH', KEYS[2], msg)
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[2]), -1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('PUBLISH', ARGV[4], msg)
return id`;

/**
 * The fleet's event bus on Redis: workers publish, gateways subscribe to the channels of the jobs
 * their clients follow (one SUBSCRIBE per job while anyone here follows it), and any gateway replica
 * can replay the retained window.
 */
export class RedisJobEventBus implements JobEventBus {
  readonly kind = 'redis' as const;
  private readonly prefix: string;
  private readonly maxEvents: number;
  private readonly ttlMs: number;
  private readonly terminalTtlMs: number;
  private readonly onError: (err: unknown, where: string) => void;
  private readonly commands: Redis;
  private subscriber?: Redis;
  /** Per job: local listeners, and the SUBSCRIBE that made the channel live. */
  private readonly follows = new Map<string, { listeners: Set<(e: SequencedJobEvent) => void>; live: Promise<unknown> }>();
  private closing?: Promise<void>;

  constructor(private readonly opts: RedisJobEventBusOptions) {
    this.prefix = opts.prefix ?? 'quire';
    this.maxEvents = opts.maxEvents ?? DEFAULT_EVENT_RETENTION.maxEvents;
    this.ttlMs = opts.ttlMs ?? DEFAULT_EVENT_RETENTION.ttlMs;
    this.terminalTtlMs = opts.terminalTtlMs ?? DEFAULT_EVENT_RETENTION.terminalTtlMs;
    this.onError = opts.onError ?? (() => undefined);
    this.commands = this.connect('job-events', { maxRetriesPerRequest: 1 });
    this.commands.defineCommand('publishJobEvent', { numberOfKeys: 2, lua: PUBLISH_SCRIPT });
  }

  private connect(where: string, extra: { maxRetriesPerRequest: number | null }): Redis {
    const conn = new Redis(this.opts.redisUrl, { connectTimeout: 5_000, disconnectTimeout: 300, ...extra });
    conn.on('error', (e) => this.onError(e, where));
    return conn;
  }

  private channel(jobId: string): string {
    return `${this.prefix}:job-events:${jobId}`;
  }

  async publish(jobId: string, event: JobEvent): Promise<number> {
    if (this.closing) throw new QuireError('GENERAL_002', 'Job event bus is closed');
    const ch = this.channel(jobId);
    const run = (this.commands as unknown as { publishJobEvent(...a: (string | number)[]): Promise<number> }).publishJobEvent;
    return Number(await run.call(this.commands, `${ch}:seq`, `${ch}:window`, JSON.stringify(event), this.maxEvents, ttlAfter(event, this.ttlMs, this.terminalTtlMs), ch));
  }

  async subscribe(jobId: string, listener: (event: SequencedJobEvent) => void): Promise<() => void> {
    if (this.closing) throw new QuireError('GENERAL_002', 'Job event bus is closed');
    const sub = this.ensureSubscriber();
    const ch = this.channel(jobId);
    let follow = this.follows.get(jobId);
    if (!follow) {
      follow = { listeners: new Set(), live: sub.subscribe(ch) };
      this.follows.set(jobId, follow);
    }
    const own = (e: SequencedJobEvent) => listener(e);
    follow.listeners.add(own);
    const stop = () => {
      const f = this.follows.get(jobId);
      if (!f || !f.listeners.delete(own) || f.listeners.size > 0) return;
      this.follows.delete(jobId);
      if (!this.closing) sub.unsubscribe(ch).catch((e) => this.onError(e, 'job-events:unsubscribe'));
    };
    try {
      await follow.live;
    } catch (e) {
      stop();
      throw new QuireError('GENERAL_002', 'Job events unavailable', { cause: e instanceof Error ? e.message : String(e) });
    }
    return stop;
  }

  async history(jobId: string): Promise<JobEventHistory> {
    const ch = this.channel(jobId);
    const replies = await this.commands.multi().get(`${ch}:seq`).lrange(`${ch}:window`, 0, -1).exec();
    const [seq, window] = (replies ?? []).map(([err, v]) => { if (err) throw err; return v; }) as [string | null, string[]];
    return { lastId: Number(seq ?? 0), events: (window ?? []).flatMap((m) => parseMessage(m) ?? []) };
  }

  listenerCount(jobId?: string): number {
    if (jobId !== undefined) return this.follows.get(jobId)?.listeners.size ?? 0;
    let n = 0;
    for (const f of this.follows.values()) n += f.listeners.size;
    return n;
  }

  /** A dedicated connection: a subscribed ioredis client can run no other commands. */
  private ensureSubscriber(): Redis {
    if (!this.subscriber) {
      const sub = this.connect('job-events:subscriber', { maxRetriesPerRequest: null });
      const prefix = `${this.prefix}:job-events:`;
      sub.on('message', (channel: string, message: string) => {
        if (!channel.startsWith(prefix)) return;
        const follow = this.follows.get(channel.slice(prefix.length));
        const event = follow && parseMessage(message);
        if (!follow || !event) return;
        for (const l of [...follow.listeners]) {
          try {
            l(event);
          } catch {
            /* the listener's own problem */
          }
        }
      });
      this.subscriber = sub;
    }
    return this.subscriber;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.follows.clear();
      await Promise.allSettled([this.commands, ...(this.subscriber ? [this.subscriber] : [])].map((c) => quit(c)));
    })();
    return this.closing;
  }
}

function parseMessage(m: string): SequencedJobEvent | undefined {
  const space = m.indexOf(' ');
  const id = Number(m.slice(0, space));
  if (space < 1 || !Number.isSafeInteger(id)) return undefined;
  try {
    return { ...(JSON.parse(m.slice(space + 1)) as JobEvent), id } as SequencedJobEvent;
  } catch {
    return undefined;
  }
}

async function quit(conn: Redis): Promise<void> {
  if (conn.status === 'end') return;
  if (conn.status !== 'ready') { conn.disconnect(); return; }
  try {
    await conn.quit();
  } catch {
    conn.disconnect();
  }
}
