import { z } from 'zod';
import { QuireError } from '@quire/core';
import type { QueueName } from './job-queue.js';
import {
  ChartsJobRequestSchema, ClassifyJobInputSchema, ClassifyJobRequestSchema, ExtractJobRequestSchema, FormClearJobRequestSchema,
  FormDetectJobRequestSchema, FormFillJobRequestSchema, FormJobInputSchema, SavedExtractionInputSchema, SchemaJobInputSchema,
  SchemaJobRequestSchema, SplitJobInputSchema, SplitJobRequestSchema, StagedDocumentSchema, TablesJobRequestSchema,
} from './job-payloads.js';

/**
 * Every job kind Quire runs: which queue (worker service) takes it, how many attempts it gets in all
 * (the first run included), the backoff between attempts, how long one attempt may run, and the
 * schemas of the `request` and `input` the gateway stores on it (see job-payloads.ts). Retries apply
 * only to the spec's retryable codes; the runtime's job runner reads this table.
 */
export interface JobSpec {
  queue: QueueName;
  attempts: number;
  backoff: { baseMs: number; maxMs: number };
  timeoutMs: number;
  request: z.ZodType<Record<string, unknown>>;
  input: z.ZodType<Record<string, unknown>>;
}

const MIN = 60_000;
const STEP_BACKOFF = { baseMs: 2_000, maxMs: 60_000 };
const FORM_BACKOFF = { baseMs: 1_000, maxMs: 30_000 };

export const JOB_CATALOG = {
  extract: { queue: 'extract', attempts: 3, backoff: STEP_BACKOFF, timeoutMs: 30 * MIN, request: ExtractJobRequestSchema, input: StagedDocumentSchema },
  classify: { queue: 'extract', attempts: 3, backoff: STEP_BACKOFF, timeoutMs: 10 * MIN, request: ClassifyJobRequestSchema, input: ClassifyJobInputSchema },
  schema: { queue: 'schema', attempts: 3, backoff: STEP_BACKOFF, timeoutMs: 15 * MIN, request: SchemaJobRequestSchema, input: SchemaJobInputSchema },
  split: { queue: 'schema', attempts: 3, backoff: STEP_BACKOFF, timeoutMs: 15 * MIN, request: SplitJobRequestSchema, input: SplitJobInputSchema },
  tables: { queue: 'tables', attempts: 3, backoff: STEP_BACKOFF, timeoutMs: 15 * MIN, request: TablesJobRequestSchema, input: SavedExtractionInputSchema },
  charts: { queue: 'charts', attempts: 3, backoff: STEP_BACKOFF, timeoutMs: 15 * MIN, request: ChartsJobRequestSchema, input: SavedExtractionInputSchema },
  form_detect: { queue: 'forms', attempts: 3, backoff: FORM_BACKOFF, timeoutMs: 10 * MIN, request: FormDetectJobRequestSchema, input: FormJobInputSchema },
  form_fill: { queue: 'forms', attempts: 3, backoff: FORM_BACKOFF, timeoutMs: 5 * MIN, request: FormFillJobRequestSchema, input: FormJobInputSchema },
  form_clear: { queue: 'forms', attempts: 3, backoff: FORM_BACKOFF, timeoutMs: 5 * MIN, request: FormClearJobRequestSchema, input: FormJobInputSchema },
} as const satisfies Record<string, JobSpec>;

export type JobKind = keyof typeof JOB_CATALOG;
export const JOB_KINDS = Object.keys(JOB_CATALOG) as JobKind[];

/** The request a job of kind K carries, as stored (and as its handler reads it). */
export type JobRequest<K extends JobKind> = z.output<(typeof JOB_CATALOG)[K]['request']>;
/** The input references a job of kind K carries. */
export type JobInput<K extends JobKind> = z.output<(typeof JOB_CATALOG)[K]['input']>;
/**
 * What a submitter gives for kind K: the request without `async` (JobService.submit adds it from its own field).
 * Distributes over a kind whose request is a union (schema's modes), so each mode keeps its own fields.
 */
export type JobOptions<K extends JobKind> = JobRequest<K> extends infer R ? (R extends unknown ? Omit<R, 'async'> : never) : never;

type PayloadSchemas = { [K in JobKind]: { request: z.ZodType<JobRequest<K>>; input: z.ZodType<JobInput<K>> } };
/** The catalog's schemas typed per kind: indexed by a generic K, this gives K's types (the catalog itself gives every kind's union). */
const PAYLOAD_SCHEMAS: PayloadSchemas = JOB_CATALOG;

/**
 * A stored job's request and input, checked against its kind's schemas. A payload that does not fit
 * (written by another version, edited by hand) fails with JOB_005, which is not retried: another
 * attempt would read the same payload.
 */
export function parseJobPayload<K extends JobKind>(kind: K, job: { request: unknown; input: unknown }): { request: JobRequest<K>; input: JobInput<K> } {
  const schemas = PAYLOAD_SCHEMAS[kind];
  const request = schemas.request.safeParse(job.request);
  if (!request.success) throw payloadError(kind, 'request', request.error);
  const input = schemas.input.safeParse(job.input);
  if (!input.success) throw payloadError(kind, 'input', input.error);
  return { request: request.data, input: input.data };
}

function payloadError(kind: JobKind, part: 'request' | 'input', error: z.ZodError): QuireError {
  return new QuireError('JOB_005', `The stored ${part} of this ${kind} job does not fit its kind: ${z.prettifyError(error)}`, {
    kind, part, issues: error.issues.slice(0, 10).map((i) => ({ path: i.path.join('.'), message: i.message })),
  });
}

export const isJobKind = (k: unknown): k is JobKind =>
  typeof k === 'string' && Object.prototype.hasOwnProperty.call(JOB_CATALOG, k);

/** True when a job whose `attemptsMade` attempts all failed (retryably) may run again. */
export const canRetry = (kind: JobKind, attemptsMade: number): boolean => attemptsMade < JOB_CATALOG[kind].attempts;

/**
 * Delay before retry number `attempt` (1 = the first retry): exponential backoff with full jitter,
 * uniform in [0, min(maxMs, baseMs·2^(attempt−1))). Full jitter spreads a burst of failures (say,
 * a store that went away for a moment) instead of retrying them in lock-step.
 */
export function retryDelayMs(kind: JobKind, attempt: number, random: () => number = Math.random): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be an integer ≥ 1, got ${attempt}`);
  const { baseMs, maxMs } = JOB_CATALOG[kind].backoff;
  // 2^(attempt−1) overflows to Infinity for huge attempts; min() caps it either way.
  const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
  const r = Math.min(Math.max(random(), 0), 1 - Number.EPSILON);
  return Math.floor(r * ceiling);
}
