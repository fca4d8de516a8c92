import type { BlobStore, MetadataStore } from '@quire/storage';
import type { JobQueue } from '@quire/queue';
import type { Config, JobService, Logger, Metrics, RateLimiter } from '@quire/runtime';
import type { Readable } from 'node:stream';

/** Downloads a file_url through the SSRF guard. */
export type UrlFetcher = (url: string) => Promise<{ body: Readable; contentType?: string }>;

export interface GatewayDeps {
  config: Config;
  store: MetadataStore;
  blobs: BlobStore;
  queue: JobQueue;
  jobs: JobService;
  limiter: RateLimiter;
  log: Logger;
  metrics: Metrics;
  fetchUrl: UrlFetcher;
  /** Which job kinds have a worker implementation (others answer 501 GENERAL_005). */
  implementedKinds: ReadonlySet<string>;
}
