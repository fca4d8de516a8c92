import { QuireError, isErrorCode, isQuireError } from '@quire/core';
import type { JobRecord, Organization } from '@quire/storage';
import type { Config } from '../config.js';
import { JobStoppedError, type SerializedJobOutcome } from './job-handler.js';
import type { PlacedResult, ResultExtra, ResultPlacement } from './result-placement.js';

/**
 * Messages between a process's event loop and its job threads (see job-thread-pool.ts). A job runs on
 * a thread; the connections that must be one per process stay with the process that owns them — the
 * metadata store, the checkpoint (heartbeat + cancel check) and shared services such as the OCR pool —
 * and the thread reaches them through `call` messages naming a path on the job's context (`['store',
 * 'artifacts', 'getForOrg']`, `['checkpoint']`). The blob store is the exception: its adapters are
 * stateless clients, so each thread opens its own (blobStoreFor) and documents, outputs and results are
 * read and written from the thread that uses them, never copied between threads.
 * Arguments and answers are structured clones: plain data, Dates, byte arrays; a function or a stream
 * cannot cross. A job's serialized result stays on the thread as a StreamRef: the runner asks the thread
 * to place it (`place-result` → `placed`), and the thread writes it to its own blob store client; a
 * reader that wants the bytes instead reads them piece by piece (`pull` → `piece`), one in flight.
 */
export interface JobThreadData {
  config: Config;
  /** Shared services of the owning process that the thread calls remotely (e.g. ['ocr']). */
  remoteServices: string[];
}

export type ToThread =
  | { type: 'run'; runId: number; kind: string; job: JobRecord; org: Organization; blobPrefix: string }
  | { type: 'reply'; callId: number; value?: unknown; error?: WireError }
  /** Asks for the next piece of a thread's stream (sent again only after its `piece` arrived). */
  | { type: 'pull'; streamId: number }
  /** The owning process stopped reading a stream before its end: the thread lets it go. */
  | { type: 'drop-stream'; streamId: number }
  /** Write a job's result stream (with the runner's members) where `placement` says (see placeResult). */
  | { type: 'place-result'; streamId: number; extra: ResultExtra; placement: ResultPlacement };

export type FromThread =
  | { type: 'ready' }
  | { type: 'call'; runId: number; callId: number; path: string[]; args: unknown[] }
  /** The result's JSON stays on the thread as a stream (jsonPieceStream), placed or read by the owning process. */
  | { type: 'done'; runId: number; outcome: Omit<SerializedJobOutcome, 'resultJson' | 'placeResult'> & { resultJson: StreamRef } }
  | { type: 'failed'; runId: number; error: WireError }
  /** A stream's next piece, or its end, or the error that ended it. */
  | { type: 'piece'; streamId: number; bytes?: Uint8Array; end?: true; error?: WireError }
  /** Where a result stream was placed, or why it could not be. */
  | { type: 'placed'; streamId: number; placed?: PlacedResult; error?: WireError };

/** A byte stream left on the thread that made it, in place of the stream in a message. */
export interface StreamRef { $quireStream: number }

/** The roots of the job context a thread may call into. */
export const REMOTE_ROOTS = new Set(['store', 'checkpoint', 'services']);

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
 * ports may rely on Buffer (as node's own APIs return), so top-level byte arrays become Buffers (a
 * view, no copy).
 */
export function asBuffers<T>(v: T): T {
  if (v instanceof Uint8Array && !Buffer.isBuffer(v)) return Buffer.from(v.buffer, v.byteOffset, v.byteLength) as T;
  return v;
}
