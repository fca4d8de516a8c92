import type { JobEvent, SequencedJobEvent } from '@quire/contracts';
import { DEFAULT_EVENT_RETENTION, ttlAfter, type JobEventBus, type JobEventHistory, type JobEventRetention } from './job-event-bus.js';

export interface InProcessJobEventBusOptions extends JobEventRetention {
  /** Jobs whose windows are kept at once; the least recently published-to go first (default 10,000). */
  maxJobs?: number;
  /** Bytes of event data kept in all windows together (page results are the big ones; default 16 MiB). */
  maxBytes?: number;
  /** Bytes of event data kept for one job; its oldest events go first (default 8 MiB). */
  maxJobBytes?: number;
  now?: () => number;
}

interface JobWindow { lastId: number; events: { event: SequencedJobEvent; bytes: number }[]; bytes: number; expiresAt: number }

/**
 * Embedded mode's event bus: publisher and subscribers share the process (job threads publish through
 * their owning process), so events are numbered and delivered in memory. Windows are bounded per job
 * (events and bytes), in number (jobs), in total bytes and in age (ttl); a job's sequence restarts if the
 * process does.
 */
export class InProcessJobEventBus implements JobEventBus {
  readonly kind = 'in-process' as const;
  private readonly windows = new Map<string, JobWindow>();
  private readonly listeners = new Map<string, Set<(e: SequencedJobEvent) => void>>();
  private readonly maxEvents: number;
  private readonly ttlMs: number;
  private readonly terminalTtlMs: number;
  private readonly maxJobs: number;
  private readonly maxBytes: number;
  private readonly maxJobBytes: number;
  private bytes = 0;
  private readonly now: () => number;
  private closed = false;

  constructor(opts: InProcessJobEventBusOptions = {}) {
    this.maxEvents = opts.maxEvents ?? DEFAULT_EVENT_RETENTION.maxEvents;
    this.ttlMs = opts.ttlMs ?? DEFAULT_EVENT_RETENTION.ttlMs;
    this.terminalTtlMs = opts.terminalTtlMs ?? DEFAULT_EVENT_RETENTION.terminalTtlMs;
    this.maxJobs = opts.maxJobs ?? 10_000;
    this.maxBytes = opts.maxBytes ?? 16 * 1024 * 1024;
    this.maxJobBytes = opts.maxJobBytes ?? 8 * 1024 * 1024;
    this.now = opts.now ?? Date.now;
  }

  async publish(jobId: string, event: JobEvent): Promise<number> {
    if (this.closed) return 0;
    const w = this.window(jobId) ?? { lastId: 0, events: [], bytes: 0, expiresAt: 0 };
    const sequenced = { ...event, id: w.lastId + 1 } as SequencedJobEvent;
    w.lastId = sequenced.id;
    const bytes = JSON.stringify(event.data).length;
    w.events.push({ event: sequenced, bytes });
    w.bytes += bytes;
    this.bytes += bytes;
    while (w.events.length > 1 && (w.events.length > this.maxEvents || w.bytes > this.maxJobBytes)) this.dropOldest(w);
    w.expiresAt = this.now() + ttlAfter(event, this.ttlMs, this.terminalTtlMs);
    this.windows.delete(jobId); // re-inserted last: the Map's order is least recently published first
    this.windows.set(jobId, w);
    this.evict();
    for (const l of [...(this.listeners.get(jobId) ?? [])]) {
      try {
        l(sequenced);
      } catch {
        /* the listener's own problem */
      }
    }
    return sequenced.id;
  }

  async subscribe(jobId: string, listener: (event: SequencedJobEvent) => void): Promise<() => void> {
    let set = this.listeners.get(jobId);
    if (!set) this.listeners.set(jobId, (set = new Set()));
    const own = (e: SequencedJobEvent) => listener(e); // one entry per call, even for the same function
    set.add(own);
    return () => {
      const s = this.listeners.get(jobId);
      if (!s) return;
      s.delete(own);
      if (s.size === 0) this.listeners.delete(jobId);
    };
  }

  async history(jobId: string): Promise<JobEventHistory> {
    const w = this.window(jobId);
    return w ? { lastId: w.lastId, events: w.events.map((e) => e.event) } : { lastId: 0, events: [] };
  }

  listenerCount(jobId?: string): number {
    if (jobId !== undefined) return this.listeners.get(jobId)?.size ?? 0;
    let n = 0;
    for (const s of this.listeners.values()) n += s.size;
    return n;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    this.windows.clear();
    this.bytes = 0;
  }

  private window(jobId: string): JobWindow | undefined {
    const w = this.windows.get(jobId);
    if (w && this.now() > w.expiresAt) {
      this.forget(jobId);
      return undefined;
    }
    return w;
  }

  private dropOldest(w: JobWindow): void {
    const gone = w.events.shift()!;
    w.bytes -= gone.bytes;
    this.bytes -= gone.bytes;
  }

  private forget(jobId: string): void {
    const w = this.windows.get(jobId);
    if (!w) return;
    this.bytes -= w.bytes;
    this.windows.delete(jobId);
  }

  /**
   * Oldest windows out past maxJobs or maxBytes, sparing jobs someone is following (their sequence must
   * go on); if followed jobs alone are over the bytes, their oldest events go (a reconnect then gets a
   * fresh snapshot instead of a replay).
   */
  private evict(): void {
    const over = () => this.windows.size > this.maxJobs || this.bytes > this.maxBytes;
    for (const id of [...this.windows.keys()]) {
      if (!over()) return;
      if (!this.listeners.has(id)) this.forget(id);
    }
    for (const w of this.windows.values()) {
      while (this.bytes > this.maxBytes && w.events.length > 1) this.dropOldest(w);
      if (!over()) return;
    }
  }
}
