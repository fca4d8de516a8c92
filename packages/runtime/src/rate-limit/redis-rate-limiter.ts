import { Redis } from 'ioredis';
import { QuireError } from '@quire/core';
import type { RateLimitDecision, RateLimiter } from './rate-limiter.js';
import { checkTakeOptions, type TakeOptions } from './token-bucket.js';

export interface RedisRateLimiterOptions {
  /** A URL (the limiter owns and closes the connection) or a client to share (left open on close()). */
  redis: string | Redis;
  /** Keys are `${prefix}:rl:${key}` (default 'quire'). */
  prefix?: string;
}

/**
 * One token bucket per key in a Redis hash, read-refill-take-write in one Lua script so concurrent
 * gateway replicas cannot both spend the last token. Time comes from Redis (TIME), not the callers'
 * clocks, so replicas with skewed clocks agree. Keys expire once the bucket would be full again.
 * Returns {allowed 0|1, tokens as a string (Lua numbers become integers on the way out), retryAfterMs}.
 */
const TOKEN_BUCKET_LUA = `
local capacity = tonumber(ARGV[1])
local perMs = tonumber(ARGV[2]) / 1000
local cost = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = capacity
  at = now
end
tokens = math.min(capacity, tokens + math.max(0, now - at) * perMs)
local allowed = 0
local retry = 0
if tokens >= cost then
  tokens = tokens - cost
  allowed = 1
else
  retry = math.ceil((cost - tokens) / perMs)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / perMs) + 1000)
return { allowed, tostring(tokens), retry }
`;

type TokenBucketCommand = (key: string, capacity: number, refillPerSecond: number, cost: number) => Promise<[number, string, number]>;

export class RedisRateLimiter implements RateLimiter {
  readonly prefix: string;
  private readonly redis: Redis;
  private readonly owned: boolean;
  private closed = false;

  constructor(opts: RedisRateLimiterOptions) {
    this.prefix = opts.prefix ?? 'quire';
    this.owned = typeof opts.redis === 'string';
    // On the request path: give up quickly rather than stall every request while Redis is away.
    this.redis = typeof opts.redis === 'string'
      ? new Redis(opts.redis, { maxRetriesPerRequest: 1, commandTimeout: 2_000, connectTimeout: 5_000, disconnectTimeout: 300 })
      : opts.redis;
    if (this.owned) this.redis.on('error', () => undefined); // reported through take() instead
    this.redis.defineCommand('quireTokenBucket', { numberOfKeys: 1, lua: TOKEN_BUCKET_LUA });
  }

  keyFor(key: string): string {
    return `${this.prefix}:rl:${key}`;
  }

  async take(key: string, opts: TakeOptions): Promise<RateLimitDecision> {
    const cost = checkTakeOptions(opts);
    const run = (this.redis as unknown as { quireTokenBucket: TokenBucketCommand }).quireTokenBucket;
    let reply: [number, string, number];
    try {
      reply = await run.call(this.redis, this.keyFor(key), opts.capacity, opts.refillPerSecond, cost);
    } catch (e) {
      throw new QuireError('GENERAL_002', 'Rate limiter unavailable', { cause: e instanceof Error ? e.message : String(e) });
    }
    const [allowed, tokens, retry] = reply;
    return { allowed: allowed === 1, remaining: Math.floor(Number(tokens)), retryAfterMs: allowed === 1 ? 0 : Number(retry) };
  }

  async close(): Promise<void> {
    if (this.closed || !this.owned) return;
    this.closed = true;
    if (this.redis.status === 'ready') await this.redis.quit().catch(() => this.redis.disconnect());
    else this.redis.disconnect();
  }
}
