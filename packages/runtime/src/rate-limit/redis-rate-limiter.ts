import type { Redis } from 'ioredis';
import type { RateLimitDecision, RateLimiter } from './rate-limiter.js';

// One atomic script per request: refill by elapsed time (Redis clock), take, store, expire idle buckets.
const SCRIPT = `
local cap = tonumber(ARGV[1]); local rate = tonumber(ARGV[2]); local cost = tonumber(ARGV[3])
local t = redis.call('TIME'); local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or cap; local at = tonumber(b[2]) or now
tokens = math.min(cap, tokens + ((now - at) / 1000) * rate)
local allowed = 0
if tokens >= cost then tokens = tokens - cost; allowed = 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((cap / rate) * 1000) + 1000)
local wait = 0
if allowed == 0 then wait = math.ceil(((cost - tokens) / rate) * 1000) end
return { allowed, math.floor(tokens), wait }`;

/** Token buckets in Redis, shared by every gateway replica of the fleet. */
export class RedisRateLimiter implements RateLimiter {
  constructor(private readonly redis: Redis, private readonly prefix = 'quire:ratelimit:') {}

  async take(key: string, opts: { capacity: number; refillPerSecond: number; cost?: number }): Promise<RateLimitDecision> {
    const [allowed, remaining, wait] = (await this.redis.eval(SCRIPT, 1, this.prefix + key, opts.capacity, opts.refillPerSecond, opts.cost ?? 1)) as number[];
    return { allowed: allowed === 1, remaining, retryAfterMs: wait };
  }

  async close(): Promise<void> { /* the connection belongs to the caller */ }
}
