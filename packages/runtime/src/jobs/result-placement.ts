import { Readable } from 'node:stream';
import type { BlobStore } from '@quire/storage';
import type { JobOutcome, SerializedJobOutcome } from './job-handler.js';
import { jsonPieceStream } from './json-pieces.js';

/** What the runner adds to every stored result. */
export interface ResultExtra { credits_used: number; plan_info: unknown }

/** Where a finished job's result may go (decided by the runner from its settings and the request). */
export interface ResultPlacement {
  /** Results this size or larger leave the job row (QUIRE_RESULT_ROW_LIMIT_BYTES). */
  rowLimitBytes: number;
  /** Results this size or larger are delivered by single-use URL (QUIRE_INLINE_RESULT_LIMIT_BYTES). */
  inlineLimitBytes: number;
  /** The job asked for URL delivery whatever the size (async XLSX extractions). */
  wantsUrl: boolean;
  /** The blob key a result that leaves the row is written to. */
  blobKey: string;
}

/** Where it went: the job row (the JSON text), or the blob store (its key and size). */
export type PlacedResult = { row: string } | { blob: string; bytes: number; asUrl: boolean };

/**
 * The stored body: the handler's result plus credits_used and plan_info, as JSON bytes in consecutive
 * pieces, written as they are read. A serialized result (a job thread's) is extended as bytes, never
 * parsed.
 */
export async function* resultBody(outcome: JobOutcome | Pick<SerializedJobOutcome, 'resultJson'> | { resultJson: Iterable<Uint8Array> }, extra: ResultExtra): AsyncGenerator<Buffer, void, undefined> {
  if (!('resultJson' in outcome)) { yield* jsonPieceStream({ ...outcome.result, ...extra }); return; }
  const source = outcome.resultJson instanceof Uint8Array ? [outcome.resultJson] : outcome.resultJson;
  // the result's closing brace is its last byte: the extra members go in before it, so the last
  // piece is held back until the source ends
  let held: Buffer | undefined, total = 0;
  for await (const b of source) {
    if (!b.byteLength) continue;
    if (held) yield held;
    held = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
    total += b.byteLength;
  }
  if (!held) throw new Error('a job thread sent an empty result');
  const tail = JSON.stringify(extra).slice(1); // '"credits_used":…,"plan_info":{…}}'
  const isEmpty = total === 2; // '{}'
  if (held.byteLength > 1) yield held.subarray(0, held.byteLength - 1);
  yield Buffer.from(isEmpty ? tail : `,${tail}`);
}

/**
 * Reads `body` and puts it where it belongs. Three homes for a result: a single-use URL (at or over the
 * inline limit, or asked for), the blob store with inline delivery (over the row limit: large jsonb is
 * costly to write, print and read, and PGlite does it on the main thread), or the job row. Only enough
 * of the body is read ahead to tell whether it fits the row; the rest goes straight from its writer to
 * the blob store, so a large result never exists as one buffer, nor as all its pieces at once. A body
 * not read to its end (an error) is closed, which lets its writer go.
 */
export async function placeResult(body: AsyncIterator<Buffer>, blobs: BlobStore, p: ResultPlacement): Promise<PlacedResult> {
  try {
    const head: Buffer[] = [];
    let bytes = 0, ended = false;
    const headLimit = Math.min(p.rowLimitBytes, p.inlineLimitBytes);
    while (bytes < headLimit) {
      const r = await body.next();
      if (r.done) { ended = true; break; }
      head.push(r.value);
      bytes += r.value.byteLength;
    }
    if (ended && !p.wantsUrl && bytes < p.rowLimitBytes && bytes < p.inlineLimitBytes) return { row: Buffer.concat(head).toString('utf8') };
    const all = async function* (): AsyncGenerator<Buffer> {
      yield* head.splice(0);
      for (let r = await body.next(); !r.done; r = await body.next()) {
        bytes += r.value.byteLength;
        yield r.value;
      }
    };
    await blobs.put(p.blobKey, Readable.from(all(), { objectMode: false }), { contentType: 'application/json' });
    return { blob: p.blobKey, bytes, asUrl: p.wantsUrl || bytes >= p.inlineLimitBytes };
  } finally {
    await body.return?.(undefined);
  }
}
