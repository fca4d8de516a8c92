import { LeasingRateLimiter } from './leasing-rate-limiter.js';
import { MemoryRateLimiter } from './memory-rate-limiter.js';
import { describeRateLimiterConformance } from '../../test/rate-limiter.conformance.js';
import type { RateLimiter } from './rate-limiter.js';

describeRateLimiterConformance('leasing over memory', async () => new LeasingRateLimiter(new MemoryRateLimiter()));

/** Counts the calls that reach the shared limiter (the Redis round trips in the fleet). */
function counting(inner: RateLimiter): RateLimiter & { calls: number } {
  const c = { calls: 0, take: (k: string, o: Parameters<RateLimiter['take']>[1]) => { c.calls++; return inner.take(k, o); }, close: () => inner.close() };
  return c;
}

describe('LeasingRateLimiter', () => {
  const opts = { capacity: 600, refillPerSecond: 0.001 };

  it('serves a burst with one shared call per lease of 5% of capacity', async () => {
    const shared = counting(new MemoryRateLimiter({ now: () => 0 }));
    const rl = new LeasingRateLimiter(shared, { now: () => 0 });
    const results = await Promise.all(Array.from({ length: 90 }, () => rl.take('k', opts)));
    expect(results.every((r) => r.allowed)).toBe(true);
    expect(shared.calls).toBe(3); // 90 requests / leases of 30
    expect(Math.min(...results.map((r) => r.remaining))).toBe(510);
  });

  it('never lets replicas together exceed the shared capacity, and uses the last tokens one by one', async () => {
    const shared = new MemoryRateLimiter({ now: () => 0 });
    const a = new LeasingRateLimiter(shared, { now: () => 0 });
    const b = new LeasingRateLimiter(shared, { now: () => 0 });
    const small = { capacity: 100, refillPerSecond: 0.001 }; // leases of 5
    let allowed = 0;
    for (let i = 0; i < 80; i++) {
      if ((await a.take('k', small)).allowed) allowed++;
      if ((await b.take('k', small)).allowed) allowed++;
    }
    expect(allowed).toBe(100);
    const refused = await a.take('k', small);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterMs).toBeGreaterThan(0);
  });

  it('drops leased tokens after the lease time, so an idle replica does not keep them', async () => {
    let now = 0;
    const shared = counting(new MemoryRateLimiter({ now: () => now }));
    const rl = new LeasingRateLimiter(shared, { now: () => now, leaseTtlMs: 1000 });
    await rl.take('k', opts);
    now = 1500;
    await rl.take('k', opts);
    expect(shared.calls).toBe(2);
  });

  it('small buckets and large costs go straight to the shared limiter', async () => {
    const shared = counting(new MemoryRateLimiter({ now: () => 0 }));
    const rl = new LeasingRateLimiter(shared, { now: () => 0 });
    await rl.take('k', { capacity: 20, refillPerSecond: 1 });
    await rl.take('k', { capacity: 20, refillPerSecond: 1 });
    await rl.take('j', { capacity: 600, refillPerSecond: 1, cost: 50 });
    expect(shared.calls).toBe(3);
  });
});
