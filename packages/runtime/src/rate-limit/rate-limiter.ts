/**
 * Per-key request rate limiting as a token bucket. Adapters: memory-rate-limiter (embedded) and
 * redis-rate-limiter (fleet, shared by every gateway replica); both pass rate-limiter.conformance.ts.
 */
export interface RateLimitDecision {
  allowed: boolean;
  /** Tokens left after this request (floored). */
  remaining: number;
  /** When not allowed: how long until one token is available. */
  retryAfterMs: number;
}

export interface RateLimiter {
  /** Takes `cost` tokens from `key`'s bucket of `capacity` tokens refilled at `refillPerSecond`. */
  take(key: string, opts: { capacity: number; refillPerSecond: number; cost?: number }): Promise<RateLimitDecision>;
  close(): Promise<void>;
}
