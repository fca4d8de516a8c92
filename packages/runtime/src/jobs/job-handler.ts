import { QuireError, type OcrEngine } from '@quire/core';
import type { LanguageModel } from '@quire/models';
import { parseJobPayload, type JobInput, type JobKind, type JobRequest } from '@quire/queue';
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

/** Services made once per process (or per job thread) and shared by the jobs it runs. */
export interface JobServices {
  /** The OCR pool; a worker without one reads only what the document's text layer holds. */
  ocr?: OcrEngine;
  languageModel: LanguageModel;
}

/** A job row whose request and input were checked against its kind's schemas (see parseJobPayload). */
export interface JobRecordOf<K extends JobKind = JobKind> extends Omit<JobRecord, 'kind' | 'request' | 'input'> {
  kind: K;
  request: JobRequest<K>;
  input: JobInput<K>;
}

/** What a handler of kind K gets: the claimed job with its payload typed, the stores, and the cancellation/progress point. */
export interface JobContext<K extends JobKind = JobKind> {
  job: JobRecordOf<K>;
  org: Organization;
  store: MetadataStore;
  blobs: BlobStore;
  config: Config;
  log: Logger;
  /** Blob key prefix owned by this job: "<org>/<job>/". Everything stored under it expires with the job. */
  blobPrefix: string;
  /** Records progress and renews the lease; throws JobStoppedError when the job was canceled. */
  checkpoint(done: number, total: number): Promise<void>;
  services: JobServices;
}

/** The context the runner makes for a job it claimed: the row as stored, its payload not yet checked. */
export interface ClaimedJobContext extends Omit<JobContext, 'job'> {
  job: JobRecord;
}

export type JobHandler<K extends JobKind = JobKind> = (ctx: JobContext<K>) => Promise<JobOutcome>;

/**
 * A handler as the runner and job threads hold it (made by defineJobHandler): it takes the claimed job
 * and checks its payload itself. `kind` lets a table of handlers be checked against the kinds it maps.
 */
export type CheckedJobHandler<K extends JobKind = JobKind> = ((ctx: ClaimedJobContext) => Promise<JobOutcome>) & { readonly kind: K };

/**
 * The handler of kind K. It checks the stored payload against K's schemas before `handle` runs: a
 * payload that does not fit fails the job (JOB_005, not retried) instead of reaching the handler.
 */
export function defineJobHandler<K extends JobKind>(kind: K, handle: JobHandler<K>): CheckedJobHandler<K> {
  const run = async (ctx: ClaimedJobContext): Promise<JobOutcome> => {
    if (ctx.job.kind !== kind) throw new QuireError('GENERAL_005', `The ${kind} handler was given a ${ctx.job.kind} job`);
    return handle({ ...ctx, job: { ...ctx.job, kind, ...parseJobPayload(kind, ctx.job) } });
  };
  return Object.assign(run, { kind });
}

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
export type RunnableJobHandler = (ctx: ClaimedJobContext) => Promise<JobOutcome | SerializedJobOutcome>;
