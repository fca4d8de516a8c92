import type { ArtifactType, BlobStore, JobRecord, MetadataStore, Organization } from '@quire/storage';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { PlacedResult, ResultExtra, ResultPlacement } from './result-placement.js';

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

/** What a handler gets: the claimed job, the stores, and the cancellation/progress point. */
export interface JobContext {
  job: JobRecord;
  org: Organization;
  store: MetadataStore;
  blobs: BlobStore;
  config: Config;
  log: Logger;
  /** Blob key prefix owned by this job: "<org>/<job>/". Everything stored under it expires with the job. */
  blobPrefix: string;
  /** Records progress and renews the lease; throws JobStoppedError when the job was canceled. */
  checkpoint(done: number, total: number): Promise<void>;
  /** Shared services (OCR pool, language model) made once per process. */
  services: Record<string, unknown>;
}

export type JobHandler = (ctx: JobContext) => Promise<JobOutcome>;

/**
 * A JobOutcome whose result arrives as JSON bytes (how job threads hand results back): the runner
 * stores or delivers a large result without this thread ever rebuilding it as objects.
 */
export interface SerializedJobOutcome extends Omit<JobOutcome, 'result'> {
  /**
   * JSON of the result object, without credits_used and plan_info (the runner adds them): one buffer, or
   * the text in consecutive pieces, or a stream of them written as they are read (a job thread's result:
   * see jsonPieceStream; a large result is never one string or one buffer).
   */
  resultJson: Uint8Array | readonly Uint8Array[] | AsyncIterable<Uint8Array>;
  /**
   * A job thread's outcome: the thread writes the result (plus the runner's members) where the runner
   * says, from the thread that serialized it, instead of streaming it here (see placeResult). The
   * runner then never reads resultJson.
   */
  placeResult?: (extra: ResultExtra, placement: ResultPlacement) => Promise<PlacedResult>;
}

/** What the JobRunner runs: a handler, or a stand-in (a job thread) whose result comes serialized. */
export type RunnableJobHandler = (ctx: JobContext) => Promise<JobOutcome | SerializedJobOutcome>;
