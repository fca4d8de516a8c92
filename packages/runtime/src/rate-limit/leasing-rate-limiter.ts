import type { RateLimitDecision, RateLimiter } from './rate-limiter.js';
import { checkTakeOptions, type TakeOptions } from './token-bucket.js';

export interface LeasingRateLimiterOptions {
  /** Tokens leased per round trip, as a share of the bucket's capacity (default 0.05: 30 of 600/min). */
  leaseFraction?: number;
  /** Leased tokens not used within this time are dropped (default 1000 ms). */
  leaseTtlMs?: number;
  now?: () => number;
}

interface Lease {
  tokens: number;
  expiresAt: number;
  /** What the shared bucket said was left when the lease was taken (for x-ratelimit-remaining). */
  sharedRemaining: number;
}

/**
 * Wraps the shared (Redis) limiter so a busy key costs one round trip per batch of requests instead
 * of one per request: a replica takes `lease` tokens from the shared bucket at once and spends them
 * locally. The shared bucket still bounds every replica together — leased tokens are already taken
 * from it — so a key can never exceed its limit; unused tokens expire after `leaseTtlMs`, which can
 * only make a key hit its limit slightly early, never late. When a whole lease is refused, a single
 * token is asked for, so the last tokens of a bucket are still usable.
 */
export class LeasingRateLimiter implements RateLimiter {
  private readonly leases = new Map<string, Lease>();
  private readonly pending = new Map<string, Promise<void>>();
  private readonly leaseFraction: number;
  private readonly leaseTtlMs: number;
  private readonly now: () => number;

  constructor(private readonly shared: RateLimiter, opts: LeasingRateLimiterOptions = {}) {
    this.leaseFraction = opts.leaseFraction ?? 0.05;
    this.leaseTtlMs = opts.leaseTtlMs ?? 1000;
    this.now = opts.now ?? Date.now;
  }

  async take(key: string, opts: TakeOptions): Promise<RateLimitDecision> {
    const cost = checkTakeOptions(opts);
    const leaseSize = Math.floor(opts.capacity * this.leaseFraction);
    if (leaseSize < 2 || cost > leaseSize) return this.shared.take(key, opts);
    for (;;) {
      const lease = this.leases.get(key);
      if (lease && lease.expiresAt > this.now() && lease.tokens >= cost) {
        lease.tokens -= cost;
        return { allowed: true, remaining: Math.floor(lease.sharedRemaining + lease.tokens), retryAfterMs: 0 };
      }
      // One lease request per key at a time; concurrent callers wait for it and then retry locally.
      const inFlight = this.pending.get(key);
      if (inFlight) { await inFlight; continue; }
      let refused: RateLimitDecision | undefined;
      const request = (async () => {
        const d = await this.shared.take(key, { ...opts, cost: leaseSize });
        if (d.allowed) { this.leases.set(key, { tokens: leaseSize, expiresAt: this.now() + this.leaseTtlMs, sharedRemaining: d.remaining }); return; }
        this.leases.delete(key);
        refused = d;
      })();
      this.pending.set(key, request);
      try { await request; } finally { this.pending.delete(key); }
      // The bucket has fewer than a lease left: spend what is there one request at a time.
      if (refused) return this.shared.take(key, opts);
    }
  }

  async close(): Promise<void> {
    this.leases.clear();
    await this.shared.close();
  }
}
