import type { RateLimiter } from '../src/rate-limit/rate-limiter.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * The behaviour both rate limiters share. `make()` returns a fresh limiter; `key()` a key no other
 * test uses (the Redis adapter's tests share one server).
 */
export function describeRateLimiterConformance(name: string, make: () => Promise<RateLimiter>): void {
  describe(`RateLimiter conformance: ${name}`, () => {
    let limiter: RateLimiter;
    let seq = 0;
    const key = () => `conf-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${++seq}`;
    beforeEach(async () => { limiter = await make(); });
    afterEach(async () => { await limiter.close(); });

    it('allows exactly `capacity` requests from a full bucket', async () => {
      const k = key();
      const opts = { capacity: 3, refillPerSecond: 0.01 };
      const results = [];
      for (let i = 0; i < 5; i++) results.push(await limiter.take(k, opts));
      expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
      expect(results.slice(0, 3).map((r) => r.remaining)).toEqual([2, 1, 0]);
      expect(results[3].remaining).toBe(0);
    });

    it('says how long until a token is back', async () => {
      const k = key();
      const opts = { capacity: 2, refillPerSecond: 10 }; // one token per 100 ms
      await limiter.take(k, opts);
      await limiter.take(k, opts);
      const denied = await limiter.take(k, opts);
      expect(denied.allowed).toBe(false);
      expect(denied.retryAfterMs).toBeGreaterThan(50);
      expect(denied.retryAfterMs).toBeLessThanOrEqual(100);
      const allowed = await limiter.take(key(), opts);
      expect(allowed.retryAfterMs).toBe(0);
    });

    it('refills over time, but never past capacity', async () => {
      const k = key();
      const opts = { capacity: 2, refillPerSecond: 2 }; // one token per 500 ms: slow enough that a loaded machine's gaps between calls refill nothing
      expect((await limiter.take(k, opts)).allowed).toBe(true);
      expect((await limiter.take(k, opts)).allowed).toBe(true);
      const denied = await limiter.take(k, opts);
      expect(denied.allowed).toBe(false);
      await sleep(denied.retryAfterMs + 20);
      const again = await limiter.take(k, opts);
      expect(again.allowed).toBe(true);
      await sleep(1_500); // long enough for 3 tokens; the bucket holds 2
      expect((await limiter.take(k, opts)).remaining).toBe(1);
      expect((await limiter.take(k, opts)).allowed).toBe(true);
      expect((await limiter.take(k, opts)).allowed).toBe(false);
    });

    it('charges `cost` tokens at once', async () => {
      const k = key();
      const opts = { capacity: 5, refillPerSecond: 1, cost: 3 };
      const first = await limiter.take(k, opts);
      expect(first).toMatchObject({ allowed: true, remaining: 2 });
      const second = await limiter.take(k, opts);
      expect(second.allowed).toBe(false);
      expect(second.retryAfterMs).toBeGreaterThan(900); // one more token needed at 1/s
      expect(second.retryAfterMs).toBeLessThanOrEqual(1000);
      expect((await limiter.take(k, { ...opts, cost: 2 })).allowed).toBe(true); // a cheaper request still fits
    });

    it('keeps keys independent', async () => {
      const a = key();
      const b = key();
      const opts = { capacity: 1, refillPerSecond: 0.01 };
      expect((await limiter.take(a, opts)).allowed).toBe(true);
      expect((await limiter.take(a, opts)).allowed).toBe(false);
      expect((await limiter.take(b, opts)).allowed).toBe(true);
    });

    it('is consistent under concurrent takes', async () => {
      const k = key();
      const opts = { capacity: 10, refillPerSecond: 0.01 };
      const results = await Promise.all(Array.from({ length: 25 }, () => limiter.take(k, opts)));
      expect(results.filter((r) => r.allowed)).toHaveLength(10);
    });

    it('rejects nonsensical options', async () => {
      await expect(limiter.take(key(), { capacity: 0, refillPerSecond: 1 })).rejects.toThrow(RangeError);
      await expect(limiter.take(key(), { capacity: 1, refillPerSecond: 0 })).rejects.toThrow(RangeError);
      await expect(limiter.take(key(), { capacity: 1, refillPerSecond: 1, cost: -1 })).rejects.toThrow(RangeError);
    });
  });
}
