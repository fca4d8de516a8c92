import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisRateLimiter } from './redis-rate-limiter.js';
import { describeRateLimiterConformance } from '../../test/rate-limiter.conformance.js';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.log('RedisRateLimiter tests skipped: set REDIS_URL (e.g. redis://127.0.0.1:6379) to run them');
const maybe = REDIS_URL ? describe : describe.skip;

maybe('RedisRateLimiter', () => {
  const url = REDIS_URL as string;
  const prefix = `quire-test-${randomBytes(6).toString('hex')}`;
  let admin: Redis;
  beforeAll(() => { admin = new Redis(url); });
  afterAll(async () => {
    const keys = await admin.keys(`${prefix}:*`);
    if (keys.length) await admin.del(...keys);
    await admin.quit();
  });

  describeRateLimiterConformance('redis', async () => new RedisRateLimiter({ redis: url, prefix }));

  it('expires idle buckets', async () => {
    const rl = new RedisRateLimiter({ redis: url, prefix });
    await rl.take('ttl', { capacity: 2, refillPerSecond: 10 });
    const ttl = await admin.pttl(rl.keyFor('ttl'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(1_100); // one token short at 10/s: 100 ms, plus 1 s of slack
    await rl.close();
  });

  it('shares buckets between instances (gateway replicas)', async () => {
    const a = new RedisRateLimiter({ redis: url, prefix });
    const b = new RedisRateLimiter({ redis: url, prefix });
    const opts = { capacity: 2, refillPerSecond: 0.01 };
    expect((await a.take('shared', opts)).allowed).toBe(true);
    expect((await b.take('shared', opts)).allowed).toBe(true);
    expect((await a.take('shared', opts)).allowed).toBe(false);
    await a.close();
    await b.close();
  });

  it('leaves a shared client open on close()', async () => {
    const client = new Redis(url);
    const rl = new RedisRateLimiter({ redis: client, prefix });
    await rl.take('x', { capacity: 1, refillPerSecond: 1 });
    await rl.close();
    expect(await client.ping()).toBe('PONG');
    await client.quit();
  });

  it('reports an unreachable Redis as GENERAL_002', async () => {
    const rl = new RedisRateLimiter({ redis: 'redis://127.0.0.1:1', prefix });
    await expect(rl.take('x', { capacity: 1, refillPerSecond: 1 })).rejects.toMatchObject({ code: 'GENERAL_002' });
    await rl.close();
  });
});
