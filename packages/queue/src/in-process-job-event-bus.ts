import type { JobEvent, SequencedJobEvent } from '@quire/contracts';
import { DEFAULT_EVENT_RETENTION, type JobEventBus, type JobEventHistory, type JobEventRetention } from './job-event-bus.js';

export interface InProcessJobEventBusOptions extends JobEventRetention {
  /** Jobs whose windows are kept at once; the least recently published-to go first (default 10,000). */
  maxJobs?: number;
  now?: () => number;
}

interface JobWindow { lastId: number; events: SequencedJobEvent[]; touchedAt: number }

/**
 * Embedded mode's event bus: publisher and subscribers share the process (job threads publish through
 * their owning process), so events are numbered and delivered in memory. Windows are bounded per job
 * (events), in number (jobs) and in age (ttl); a job's sequence restarts if the process does.
 */
export class InProcessJobEventBus implements JobEventBus {
  readonly kind = 'in-process' as const;
  private readonly windows = new Map<string, JobWindow>();
  private readonly listeners = new Map<string, Set<(e: SequencedJobEvent) => void>>();
  private readonly maxEvents: number;
  private readonly ttlMs: number;
  private readonly maxJobs: number;
  private readonly now: () => number;
  private closed = false;

  constructor(opts: InProcessJobEventBusOptions = {}) {
    this.maxEvents = opts.maxEvents ?? DEFAULT_EVENT_RETENTION.maxEvents;
    this.ttlMs = opts.ttlMs ?? DEFAULT_EVENT_RETENTION.ttlMs;
    this.maxJobs = opts.maxJobs ?? 10_000;
    this.now = opts.now ?? Date.now;
  }

  async publish(jobId: string, event: JobEvent): Promise<number> {
    if (this.closed) return 0;
    const w = this.window(jobId) ?? { lastId: 0, events: [], touchedAt: 0 };
    const sequenced = { ...event, id: w.lastId + 1 } as SequencedJobEvent;
    w.lastId = sequenced.id;
    w.events.push(sequenced);
    if (w.events.length > this.maxEvents) w.events.splice(0, w.events.length - this.maxEvents);
    w.touchedAt = this.now();
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
    return w ? { lastId: w.lastId, events: [...w.events] } : { lastId: 0, events: [] };
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
  }

  private window(jobId: string): JobWindow | undefined {
    const w = this.windows.get(jobId);
    if (w && this.now() - w.touchedAt > this.ttlMs) {
      this.windows.delete(jobId);
      return undefined;
    }
    return w;
  }

  /** Oldest windows out past maxJobs, sparing jobs someone is following (their sequence must go on). */
  private evict(): void {
    if (this.windows.size <= this.maxJobs) return;
    for (const id of this.windows.keys()) {
      if (this.windows.size <= this.maxJobs) return;
      if (!this.listeners.has(id)) this.windows.delete(id);
    }
  }
}
