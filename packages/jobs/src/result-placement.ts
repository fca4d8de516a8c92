import { Readable } from 'node:stream';
import type { BlobStore } from '@quire/storage';
import type { JobOutcome } from './job-handler.js';
import { jsonPieceStream } from './json-pieces.js';
import { planInfoAfter, type BillingSnapshot } from './plan-info.js';

/**
 * What storing a job's result needs, decided by the runner before the job runs: the handler (on a job
 * thread or not) then writes the whole body, credits_used and plan_info included, once, from where its
 * objects are.
 */
export interface ResultPlan {
  /** The organization's billing before this job: plan_info adds the job's own charge to it. */
  billing: BillingSnapshot;
  /** Results this size or larger leave the job row (QUIRE_RESULT_ROW_LIMIT_BYTES). */
  rowLimitBytes: number;
  /** Results this size or larger are delivered by single-use URL (QUIRE_INLINE_RESULT_LIMIT_BYTES). */
  inlineLimitBytes: number;
  /** An async request: a handler's preferUrlDelivery applies (a sync answer is always inline). */
  async: boolean;
  /** The blob key a result that leaves the row is written to. */
  blobKey: string;
}

/** Where a result went: the job row (the JSON text), or the blob store (its key and size). */
export type PlacedResult = { row: string } | { blob: string; bytes: number; asUrl: boolean };

/** A finished job whose result is stored (storeResult): what the runner records. */
export interface StoredJobOutcome extends Omit<JobOutcome, 'result' | 'preferUrlDelivery'> {
  placed: PlacedResult;
}

/** Writes the stored body (the handler's result plus credits_used and plan_info) where `plan` says. */
export async function storeResult(outcome: JobOutcome, plan: ResultPlan, blobs: BlobStore): Promise<StoredJobOutcome> {
  const { result, preferUrlDelivery, ...rest } = outcome;
  const body = { ...result, credits_used: outcome.credits, plan_info: planInfoAfter(plan.billing, outcome.credits, outcome.pages) };
  const placed = await placeResult(jsonPieceStream(body), blobs, { ...plan, wantsUrl: preferUrlDelivery === true && plan.async });
  return { ...rest, placed };
}

/**
 * Reads `body` and puts it where it belongs. Three homes for a result: a single-use URL (at or over the
 * inline limit, or asked for), the blob store with inline delivery (over the row limit: large jsonb is
 * costly to write, print and read, and PGlite does it on the main thread), or the job row. Only enough
 * of the body is read ahead to tell whether it fits the row; the rest goes straight from its writer to
 * the blob store, so a large result never exists as one buffer, nor as all its pieces at once. A body
 * not read to its end (an error) is closed, which lets its writer go.
 */
export async function placeResult(
  body: Iterator<Buffer>, blobs: BlobStore, p: Omit<ResultPlan, 'billing' | 'async'> & { wantsUrl: boolean },
): Promise<PlacedResult> {
  try {
    const head: Buffer[] = [];
    let bytes = 0, ended = false;
    const headLimit = Math.min(p.rowLimitBytes, p.inlineLimitBytes);
    while (bytes < headLimit) {
      const r = body.next();
      if (r.done) { ended = true; break; }
      head.push(r.value);
      bytes += r.value.byteLength;
    }
    if (ended && !p.wantsUrl && bytes < p.rowLimitBytes && bytes < p.inlineLimitBytes) return { row: Buffer.concat(head).toString('utf8') };
    const all = function* (): Generator<Buffer> {
      yield* head.splice(0);
      for (let r = body.next(); !r.done; r = body.next()) {
        bytes += r.value.byteLength;
        yield r.value;
      }
    };
    await blobs.put(p.blobKey, Readable.from(all(), { objectMode: false }), { contentType: 'application/json' });
    return { blob: p.blobKey, bytes, asUrl: p.wantsUrl || bytes >= p.inlineLimitBytes };
  } finally {
    body.return?.(undefined);
  }
}
