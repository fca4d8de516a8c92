import { MemoryRateLimiter } from './memory-rate-limiter.js';
import { describeRateLimiterConformance } from '../../test/rate-limiter.conformance.js';

describeRateLimiterConformance('memory', async () => new MemoryRateLimiter());

describe('MemoryRateLimiter specifics', () => {
  it('follows an injected clock exactly', async () => {
    let now = 0;
    const rl = new MemoryRateLimiter({ now: () => now });
    const opts = { capacity: 4, refillPerSecond: 2 };
    for (let i = 0; i < 4; i++) expect((await rl.take('k', opts)).allowed).toBe(true);
    expect(await rl.take('k', opts)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 500 });
    now = 250;
    expect(await rl.take('k', opts)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 250 });
    now = 500;
    expect(await rl.take('k', opts)).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
    now = 10_000;
    expect(await rl.take('k', opts)).toEqual({ allowed: true, remaining: 3, retryAfterMs: 0 });
  });

  it('forgets the least recently used buckets beyond maxKeys', async () => {
    const now = 0;
    const rl = new MemoryRateLimiter({ now: () => now, maxKeys: 2 });
    const opts = { capacity: 1, refillPerSecond: 0.001 };
    await rl.take('a', opts);
    await rl.take('b', opts);
    expect((await rl.take('a', opts)).allowed).toBe(false); // 'a' is now the most recent
    await rl.take('c', opts); // evicts 'b'
    expect((await rl.take('b', opts)).allowed).toBe(true); // came back full
    expect((await rl.take('c', opts)).allowed).toBe(false);
  });
});
