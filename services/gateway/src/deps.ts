import type { BlobStore, MetadataStore } from '@quire/storage';
import type { JobEventBus, JobQueue } from '@quire/queue';
import type { Config, Logger, Metrics, RateLimiter } from '@quire/runtime';
import type { JobService } from '@quire/jobs';
import type { Readable } from 'node:stream';

/** Downloads a file_url through the SSRF guard; `signal` abandons it (see fileUrlFetcher). */
export type UrlFetcher = (url: string, signal?: AbortSignal) => Promise<{ body: Readable; contentType?: string }>;

/** The process's state as the routes see it. */
export interface GatewayLifecycle {
  /** Set when a graceful stop begins (ServerDrain): /readyz answers 503 from then on. */
  draining: boolean;
}

export interface GatewayDeps {
  config: Config;
  store: MetadataStore;
  blobs: BlobStore;
  queue: JobQueue;
  /** Live job events, followed by GET /job/{id}/events. */
  events: JobEventBus;
  jobs: JobService;
  limiter: RateLimiter;
  log: Logger;
  metrics: Metrics;
  fetchUrl: UrlFetcher;
  /** Shared with the process's ServerDrain; absent where nothing drains the server (tests over the app alone). */
  lifecycle?: GatewayLifecycle;
}
