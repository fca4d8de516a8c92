import { LazyJsonArray } from '@quire/core';

/**
 * JSON of a (possibly very large) result as a stream of byte pieces, written as they are taken, with
 * the same text as `Buffer.from(JSON.stringify(value))`.
 *
 * Why: a 1,000-page extraction's result is ~170 MB of JSON, most of it a few arrays with hundreds of
 * thousands of entries (bounding_boxes.Words). `JSON.stringify` builds the whole text as one string and
 * `Buffer.from` copies it again, on top of the result objects themselves: measured +510 MB of RSS at the
 * peak. Writing long arrays in batches of entries, encoding each batch's text at once and handing the
 * pieces on as they fill (to a blob store's write stream) holds only one piece's text at a time besides
 * the value. The value is not modified.
 *
 * A LazyJsonArray is written like a long array, its groups made when the walk reaches it, at any depth.
 * Plain objects, and arrays, are walked down to `maxDepth` (results and documents nest their big arrays
 * shallowly); anything deeper, and every value with a toJSON method, is written by JSON.stringify itself.
 */
export function* jsonPieceStream(value: unknown, opts: { batch?: number; pieceBytes?: number; maxDepth?: number } = {}): Generator<Buffer, void, undefined> {
  const batch = opts.batch ?? 4096;
  const pieceBytes = opts.pieceBytes ?? 256 * 1024;
  const maxDepth = opts.maxDepth ?? 4;
  let pending: string[] = [];
  let pendingLength = 0;
  // the text gathered since the last piece, as a piece of its own (none when nothing is gathered)
  const take = (): Buffer | undefined => {
    if (!pendingLength) return undefined;
    const piece = Buffer.from(pending.join(''));
    pending = [];
    pendingLength = 0;
    return piece;
  };
  // adds text; a piece when enough has gathered
  const emit = (s: string): Buffer | undefined => {
    pending.push(s);
    pendingLength += s.length;
    return pendingLength >= pieceBytes ? take() : undefined;
  };

  // the entries of `groups` as one array, `batch` entries' text at a time
  function* longArray(groups: Iterable<readonly unknown[]>): Generator<Buffer, void, undefined> {
    let piece: Buffer | undefined, first = true;
    if ((piece = emit('['))) yield piece;
    for (const items of groups) {
      for (let i = 0; i < items.length; i += batch) {
        // a slice keeps holes and undefined entries, which JSON.stringify writes as null, as it would in place
        const text = JSON.stringify(items.slice(i, i + batch));
        if ((piece = emit(first ? text.slice(1, -1) : `,${text.slice(1, -1)}`))) yield piece;
        first = false;
      }
    }
    if ((piece = emit(']'))) yield piece;
  }

  function* walk(v: unknown, depth: number): Generator<Buffer, void, undefined> {
    let piece: Buffer | undefined;
    if (v instanceof LazyJsonArray) { yield* longArray(v.groups()); return; }
    if (Array.isArray(v) && v.length > batch) { yield* longArray([v]); return; }
    if (Array.isArray(v) && depth + 1 < maxDepth) {
      // A short array high in the value may still hold most of it (a document's 1,000 pages, 84 MB of
      // JSON): its entries are walked one by one, so no single entry's text is the whole.
      if ((piece = emit('['))) yield piece;
      for (let i = 0; i < v.length; i++) {
        if (i && (piece = emit(','))) yield piece;
        const entry: unknown = v[i];
        // as JSON.stringify writes array entries it cannot write (holes, undefined, functions, symbols)
        if (entry === undefined || typeof entry === 'function' || typeof entry === 'symbol') { if ((piece = emit('null'))) yield piece; }
        else yield* walk(entry, depth + 1);
      }
      if ((piece = emit(']'))) yield piece;
      return;
    }
    if (depth < maxDepth && isPlainObject(v)) {
      if ((piece = emit('{'))) yield piece;
      let first = true;
      for (const key of Object.keys(v)) {
        const member = v[key];
        // members JSON.stringify leaves out
        if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
        if ((piece = emit(`${first ? '' : ','}${JSON.stringify(key)}:`))) yield piece;
        first = false;
        yield* walk(member, depth + 1);
      }
      if ((piece = emit('}'))) yield piece;
      return;
    }
    if ((piece = emit(JSON.stringify(v) ?? 'null'))) yield piece;
  }
  yield* walk(value, 0);
  const last = take();
  if (last) yield last;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
