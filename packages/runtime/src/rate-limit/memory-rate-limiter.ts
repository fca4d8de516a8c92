import type { RateLimitDecision, RateLimiter } from './rate-limiter.js';

/** Token buckets in process memory (embedded mode: one process sees every request). */
export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(private readonly now: () => number = Date.now) {}

  async take(key: string, opts: { capacity: number; refillPerSecond: number; cost?: number }): Promise<RateLimitDecision> {
    const cost = opts.cost ?? 1, t = this.now();
    const b = this.buckets.get(key) ?? { tokens: opts.capacity, at: t };
    b.tokens = Math.min(opts.capacity, b.tokens + ((t - b.at) / 1000) * opts.refillPerSecond);
    b.at = t;
    const allowed = b.tokens >= cost;
    if (allowed) b.tokens -= cost;
    this.buckets.set(key, b);
    if (this.buckets.size > 100_000) this.evictFull(opts.capacity);
    return { allowed, remaining: Math.floor(b.tokens), retryAfterMs: allowed ? 0 : Math.ceil(((cost - b.tokens) / opts.refillPerSecond) * 1000) };
  }

  private evictFull(capacity: number): void {
    for (const [k, b] of this.buckets) if (b.tokens >= capacity) this.buckets.delete(k);
  }

  async close(): Promise<void> { this.buckets.clear(); }
}
