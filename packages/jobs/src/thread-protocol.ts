import { QuireError, isErrorCode, isQuireError, type OcrEngine } from '@quire/core';
import type { JobRecord, Organization } from '@quire/storage';
import type { Config } from '@quire/runtime';
import { JobStoppedError, type ClaimedJobContext, type JobStore } from './job-handler.js';
import type { ResultPlan, StoredJobOutcome } from './result-placement.js';

/**
 * Messages between a process's event loop and its job threads (see job-thread-pool.ts). A job runs on
 * a thread; what must be one per process stays with the process — the metadata store, the checkpoint
 * (heartbeat + cancel check), live page results and the OCR pool — and the thread reaches it through the calls of
 * OwnerCalls, nothing else. The blob store is the exception: its adapters are stateless clients, so
 * each thread opens its own and reads documents and writes outputs and the result from where they are.
 * The result itself never crosses: the thread stores it as the run's ResultPlan says and answers where.
 * Arguments and answers are structured clones: plain data, Dates, byte arrays.
 */
export interface JobThreadData {
  config: Config;
  /** The owning process shares its OCR engine (`ocr` calls); otherwise handlers on the thread have none. */
  sharedOcr: boolean;
}

/** What a job thread may ask of the owning process, by name. */
export interface OwnerCalls {
  getArtifact: JobStore['artifacts']['getForOrg'];
  nextSchemaVersion: JobStore['artifacts']['nextSchemaVersion'];
  getJob: JobStore['jobs']['get'];
  checkpoint: ClaimedJobContext['checkpoint'];
  pagesReady: ClaimedJobContext['pagesReady'];
  ocr: OcrEngine['recognize'];
}
export type OwnerCallName = keyof OwnerCalls;
type OwnerCall = { [K in OwnerCallName]: { op: K; args: Parameters<OwnerCalls[K]> } }[OwnerCallName];

/** Answers a thread's call from the job's context on the owning process. */
export function answerCall(ctx: ClaimedJobContext, call: OwnerCall): Promise<unknown> {
  switch (call.op) {
    case 'getArtifact': return ctx.store.artifacts.getForOrg(...call.args);
    case 'nextSchemaVersion': return ctx.store.artifacts.nextSchemaVersion(...call.args);
    case 'getJob': return ctx.store.jobs.get(...call.args);
    case 'checkpoint': return ctx.checkpoint(...call.args);
    case 'pagesReady': return ctx.pagesReady(...call.args);
    case 'ocr': {
      const ocr = ctx.services.ocr;
      if (!ocr) throw new Error('this process has no OCR engine to share');
      const [image, page] = call.args;
      return ocr.recognize(asBuffers(image), page);
    }
  }
}

export type ToThread =
  /** `stopFlag` (shared memory) is set to 1 by the owning thread when the job must stop, before `abort` is sent. */
  | { type: 'run'; runId: number; kind: string; job: JobRecord; org: Organization; blobPrefix: string; plan: ResultPlan; stopFlag: Int32Array }
  /** The job's signal fired on the owning process: the thread fires its own with the same reason. */
  | { type: 'abort'; runId: number; reason: WireError }
  | { type: 'reply'; callId: number; value?: unknown; error?: WireError };

export type FromThread =
  | { type: 'ready' }
  | ({ type: 'call'; runId: number; callId: number } & OwnerCall)
  | { type: 'done'; runId: number; outcome: StoredJobOutcome }
  | { type: 'failed'; runId: number; error: WireError };

export type WireError =
  | { kind: 'quire'; code: string; message: string; details?: Record<string, unknown> }
  | { kind: 'stopped'; status: string | undefined }
  | { kind: 'error'; name: string; message: string; stack?: string };

/** An error as it can cross threads; QuireError and JobStoppedError keep their meaning. */
export function toWire(e: unknown): WireError {
  if (e instanceof JobStoppedError) return { kind: 'stopped', status: e.status };
  if (isQuireError(e)) return { kind: 'quire', code: e.code, message: e.message, ...(e.details ? { details: plainClone(e.details) } : {}) };
  const err = e instanceof Error ? e : new Error(String(e));
  return { kind: 'error', name: err.name, message: err.message, stack: err.stack };
}

export function fromWire(w: WireError): Error {
  if (w.kind === 'stopped') return new JobStoppedError(w.status);
  if (w.kind === 'quire' && isErrorCode(w.code)) return new QuireError(w.code, w.message, w.details);
  const e = new Error(w.message);
  if (w.kind === 'error') {
    e.name = w.name;
    if (w.stack) e.stack = w.stack;
  }
  return e;
}

/** Details may hold anything; what cannot be cloned is dropped rather than failing the report of the error. */
function plainClone(v: Record<string, unknown>): Record<string, unknown> {
  try {
    return structuredClone(v);
  } catch {
    return JSON.parse(JSON.stringify(v)) as Record<string, unknown>;
  }
}

/**
 * Bytes arrive from structured cloning as plain Uint8Arrays; callers written against the in-process
 * ports may rely on Buffer (as node's own APIs return), so byte arrays become Buffers (a view, no copy).
 */
function asBuffers<T>(v: T): T {
  if (v instanceof Uint8Array && !Buffer.isBuffer(v)) return Buffer.from(v.buffer, v.byteOffset, v.byteLength) as T;
  return v;
}
