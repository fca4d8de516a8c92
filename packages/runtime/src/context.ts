import path from 'node:path';
import { FsBlobStore, S3BlobStore, openMetadataStore, type BlobStore, type MetadataStore } from '@quire/storage';
import { BullMqJobQueue, InProcessJobEventBus, InProcessJobQueue, RedisJobEventBus, type JobEventBus, type JobQueue } from '@quire/queue';
import type { Config } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { Metrics } from './metrics.js';
import { MemoryRateLimiter } from './rate-limit/memory-rate-limiter.js';
import { RedisRateLimiter } from './rate-limit/redis-rate-limiter.js';
import { LeasingRateLimiter } from './rate-limit/leasing-rate-limiter.js';
import type { RateLimiter } from './rate-limit/rate-limiter.js';

/** Everything a process of either mode needs, wired once from the config. */
export interface QuireContext {
  config: Config;
  log: Logger;
  metrics: Metrics;
  store: MetadataStore;
  blobs: BlobStore;
  queue: JobQueue;
  /** Live job events (GET /job/{id}/events): in memory embedded, Redis pub/sub in the fleet. */
  events: JobEventBus;
  limiter: RateLimiter;
  /** Closes connections in reverse order of opening. Idempotent. */
  close(): Promise<void>;
}

export interface ContextOptions {
  /** Embedded tests: start PGlite from a dumped template instead of running initdb. */
  pgliteTemplate?: Blob;
  /** Embedded tests: keep PGlite in memory. */
  inMemoryDatabase?: boolean;
  role?: string;
}

/**
 * The blob store the settings name: S3 in distributed mode, the data directory's blobs/ embedded. Its
 * adapters are stateless clients (an S3 client, a directory written by atomic renames), so any thread
 * may open its own over the same store (job threads do: see serveJobThread).
 */
export function blobStoreFor(config: Config): BlobStore {
  if (config.mode === 'distributed') {
    return new S3BlobStore({
      endpoint: config.s3.endpoint, region: config.s3.region, bucket: config.s3.bucket, forcePathStyle: config.s3.forcePathStyle,
      accessKeyId: config.s3.accessKeyId ?? '', secretAccessKey: config.s3.secretAccessKey ?? '',
    });
  }
  return new FsBlobStore({ root: path.join(config.dataDir, 'blobs') });
}

export async function createContext(config: Config, opts: ContextOptions = {}): Promise<QuireContext> {
  const log = createLogger(config.logLevel, opts.role ? { role: opts.role } : {});
  const closers: (() => Promise<unknown>)[] = [];
  try {
    const store = config.mode === 'distributed'
      ? await openMetadataStore({ kind: 'postgres', url: config.databaseUrl!, poolSize: config.databasePoolSize })
      : await openMetadataStore({ kind: 'pglite', dataDir: opts.inMemoryDatabase ? undefined : path.join(config.dataDir, 'pglite'), template: opts.pgliteTemplate });
    closers.push(() => store.close());
    const blobs = blobStoreFor(config);
    closers.push(() => blobs.close());
    // Without the bucket every upload fails; /readyz reports a bucket that still cannot be reached.
    if (blobs instanceof S3BlobStore && config.s3.createBucket) await blobs.ensureBucket().catch((e) => log.warn({ err: e, bucket: config.s3.bucket }, 'could not ensure the S3 bucket exists'));
    const queue: JobQueue = config.mode === 'distributed'
      ? new BullMqJobQueue({ redisUrl: config.redisUrl!, prefix: config.queuePrefix, onError: (e, where) => log.warn({ err: e, where }, 'queue error') })
      : new InProcessJobQueue({ onError: (e, c) => log.warn({ err: e, queue: c.queue, jobId: c.msg.jobId, dropped: c.dropped }, 'queue handler error') });
    closers.push(() => queue.close());
    const events: JobEventBus = config.mode === 'distributed'
      ? new RedisJobEventBus({ redisUrl: config.redisUrl!, prefix: config.queuePrefix, onError: (e, where) => log.warn({ err: e, where }, 'job event bus error') })
      : new InProcessJobEventBus();
    closers.push(() => events.close());
    const limiter: RateLimiter = config.mode === 'distributed'
      // Leases batches of tokens so a busy key does not pay a Redis round trip on every request.
      ? new LeasingRateLimiter(new RedisRateLimiter({ redis: config.redisUrl!, prefix: config.queuePrefix }))
      : new MemoryRateLimiter();
    closers.push(() => limiter.close());
    const metrics = new Metrics(() => queue.depth());
    let closed: Promise<void> | undefined;
    return {
      config, log, metrics, store, blobs, queue, events, limiter,
      close: () => (closed ??= (async () => {
        for (const c of closers.reverse()) await c().catch((e) => log.warn({ err: e }, 'close failed'));
      })()),
    };
  } catch (e) {
    for (const c of closers.reverse()) await c().catch(() => undefined);
    throw e;
  }
}
