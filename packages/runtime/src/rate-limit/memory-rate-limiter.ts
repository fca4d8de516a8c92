import type { RateLimitDecision, RateLimiter } from './rate-limiter.js';
import { checkTakeOptions, type TakeOptions } from './token-bucket.js';

export interface MemoryRateLimiterOptions {
  /** Milliseconds clock (default performance.now, which never jumps with the wall clock). */
  now?: () => number;
  /** Buckets kept; the least recently used beyond this are forgotten (default 100 000). */
  maxKeys?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * The embedded rate limiter: one token bucket per key in a Map, refilled lazily on each take().
 * Map order doubles as recency order, so evicting the oldest entries bounds memory; a forgotten
 * bucket comes back full, which only ever errs on the lenient side.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;
  private readonly maxKeys: number;

  constructor(opts: MemoryRateLimiterOptions = {}) {
    this.now = opts.now ?? (() => performance.now());
    this.maxKeys = opts.maxKeys ?? 100_000;
  }

  async take(key: string, opts: TakeOptions): Promise<RateLimitDecision> {
    const cost = checkTakeOptions(opts);
    const { capacity, refillPerSecond } = opts;
    const now = this.now();
    const prev = this.buckets.get(key);
    let tokens = prev ? Math.min(capacity, prev.tokens + (Math.max(0, now - prev.at) * refillPerSecond) / 1000) : capacity;
    let decision: RateLimitDecision;
    if (tokens >= cost) {
      tokens -= cost;
      decision = { allowed: true, remaining: Math.floor(tokens), retryAfterMs: 0 };
    } else {
      decision = { allowed: false, remaining: Math.floor(tokens), retryAfterMs: Math.ceil(((cost - tokens) * 1000) / refillPerSecond) };
    }
    this.buckets.delete(key); // re-insert: most recently used last
    this.buckets.set(key, { tokens, at: now });
    if (this.buckets.size > this.maxKeys) {
      const oldest = this.buckets.keys().next().value as string;
      this.buckets.delete(oldest);
    }
    return decision;
  }

  async close(): Promise<void> {
    this.buckets.clear();
  }
}
