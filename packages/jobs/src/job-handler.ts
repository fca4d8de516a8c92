import { QuireError, type OcrEngine, type StopCheck } from '@quire/core';
import type { LanguageModel } from '@quire/models';
import { parseJobPayload, type JobInput, type JobKind, type JobPageResult, type JobRequest } from '@quire/queue';
import type { ArtifactRepo, ArtifactType, BlobStore, JobRecord, JobRepo, Organization } from '@quire/storage';
import type { Config, Logger } from '@quire/runtime';
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

/** Services made once per process (or per job thread) and shared by the jobs it runs. */
export interface JobServices {
  /** The OCR pool; a worker without one reads only what the document's text layer holds. */
  ocr?: OcrEngine;
  languageModel: LanguageModel;
}

/** The services as one job sees them: the language model's calls stop with the job (its signal). */
export function servicesForJob(services: JobServices, signal: AbortSignal): JobServices {
  const lm = services.languageModel;
  return { ...services, languageModel: lm.withSignal?.(signal) ?? lm };
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
  store: JobStore;
  blobs: BlobStore;
  config: Config;
  log: Logger;
  /** Blob key prefix owned by this job: "<org>/<job>/". Everything stored under it expires with the job. */
  blobPrefix: string;
  /** Records progress and renews the lease; throws JobStoppedError when the job was canceled, and the signal's reason once it fired. */
  checkpoint(done: number, total: number): Promise<void>;
  /** Hands finished pages' results to live followers (GET /job/{id}/events?partial=true) as they finish; best effort, never throws. */
  pagesReady(pages: JobPageResult[]): Promise<void>;
  /**
   * Fires when the job must stop: canceled (DELETE /job, or a checkpoint finding it canceled) or past its
   * time limit; its reason is the error the job ends with. Long loops check it, and fetches and language
   * model calls pass it on. A job thread that has not stopped soon after is terminated.
   */
  signal: AbortSignal;
  /**
   * Throws the job's ending error once it must stop, seen at once even in synchronous work that keeps
   * this thread's event loop (and so `signal`) from turning: on a job thread it reads a flag the owning
   * thread sets. Passed to readers and layout (ParseOptions.throwIfStopped) and called in long loops.
   */
  throwIfStopped: StopCheck;
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
 * A handler run elsewhere (on a job thread) that stores its own result as `plan` says, so the result's
 * objects never leave the thread that made them.
 */
export interface RemoteJobHandler {
  runAndStore(ctx: ClaimedJobContext, plan: ResultPlan): Promise<StoredJobOutcome>;
}

/** What the JobRunner runs: a checked handler on its own thread, or one on a job thread. */
export type RunnableJobHandler = ((ctx: ClaimedJobContext) => Promise<JobOutcome>) | RemoteJobHandler;
