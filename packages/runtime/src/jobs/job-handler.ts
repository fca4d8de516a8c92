import type { ArtifactRepo, ArtifactType, BlobStore, JobRecord, JobRepo, Organization } from '@quire/storage';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { ResultPlan, StoredJobOutcome } from './result-placement.js';

/** Thrown by checkpoint() when the job is no longer processing (canceled, or taken elsewhere). */
export class JobStoppedError extends Error {
  constructor(readonly status: string | undefined) {
    super(`job is ${status ?? 'gone'}`);
    this.name = 'JobStoppedError';
  }
}

export interface NewArtifactSpec {
  id: string;
  type: ArtifactType;
  parentId?: string | null;
  data: Record<string, unknown>;
}

export interface JobOutcome {
  /** The body the synchronous call returns (credits_used and plan_info are added by the runner). */
  result: Record<string, unknown>;
  credits: number;
  pages: number;
  documents?: number;
  /** Saved records later steps chain on; written in the completing transaction. */
  artifacts?: NewArtifactSpec[];
  /** Deliver as a single-use URL even when small (the spec's default for spreadsheet extractions, async only). */
  preferUrlDelivery?: boolean;
}

/**
 * The metadata store operations handlers use (reading what earlier jobs saved): all a job thread can
 * reach of the owning process's store (see thread-protocol.ts).
 */
export interface JobStore {
  artifacts: Pick<ArtifactRepo, 'getForOrg' | 'nextSchemaVersion'>;
  jobs: Pick<JobRepo, 'get'>;
}

/** What a handler gets: the claimed job, the stores, and the cancellation/progress point. */
export interface JobContext {
  job: JobRecord;
  org: Organization;
  store: JobStore;
  blobs: BlobStore;
  config: Config;
  log: Logger;
  /** Blob key prefix owned by this job: "<org>/<job>/". Everything stored under it expires with the job. */
  blobPrefix: string;
  /** Records progress and renews the lease; throws JobStoppedError when the job was canceled, and the signal's reason once it fired. */
  checkpoint(done: number, total: number): Promise<void>;
  /**
   * Fires when the job must stop: canceled (DELETE /job, or a checkpoint finding it canceled) or past its
   * time limit; its reason is the error the job ends with. Long loops check it, and fetches and language
   * model calls pass it on. A job thread that has not stopped soon after is terminated.
   */
  signal: AbortSignal;
  /** Shared services (OCR pool, language model) made once per process. */
  services: Record<string, unknown>;
}

export type JobHandler = (ctx: JobContext) => Promise<JobOutcome>;

/**
 * A handler run elsewhere (on a job thread) that stores its own result as `plan` says, so the result's
 * objects never leave the thread that made them.
 */
export interface RemoteJobHandler {
  runAndStore(ctx: JobContext, plan: ResultPlan): Promise<StoredJobOutcome>;
}

/** What the JobRunner runs: a handler on its own thread, or one on a job thread. */
export type RunnableJobHandler = JobHandler | RemoteJobHandler;
