import { RawJson } from '@quire/core';

/**
 * JSON of a (possibly very large) result as a list of byte pieces, with the same text as
 * `Buffer.from(JSON.stringify(value))`.
 *
 * Why: a 1,000-page extraction's result is ~170 MB of JSON, most of it a few arrays with hundreds of
 * thousands of entries (bounding_boxes.Words). `JSON.stringify` builds the whole text as one string and
 * `Buffer.from` copies it again, on top of the result objects themselves: measured +510 MB of RSS at the
 * peak. Writing long arrays in batches of entries and encoding each batch's text at once holds only one
 * batch's text besides the pieces (+195 MB on the same result). The value is not modified.
 *
 * A RawJson value (text written ahead) is spliced in as its pieces, at any depth the walk reaches.
 * Plain objects are walked down to `maxDepth` (results nest their big arrays shallowly); anything deeper,
 * and every value with a toJSON method, is written by JSON.stringify itself.
 */
export function jsonPieces(value: unknown, opts: { batch?: number; pieceBytes?: number; maxDepth?: number } = {}): Buffer[] {
  const batch = opts.batch ?? 4096;
  const pieceBytes = opts.pieceBytes ?? 256 * 1024;
  const maxDepth = opts.maxDepth ?? 4;
  const pieces: Buffer[] = [];
  let pending: string[] = [];
  let pendingLength = 0;
  const flush = () => {
    if (!pendingLength) return;
    pieces.push(Buffer.from(pending.join('')));
    pending = [];
    pendingLength = 0;
  };
  const emit = (s: string) => {
    pending.push(s);
    pendingLength += s.length;
    if (pendingLength >= pieceBytes) flush();
  };

  const walk = (v: unknown, depth: number): void => {
    if (v instanceof RawJson) {
      flush();
      for (const p of v.pieces) pieces.push(Buffer.from(p.buffer, p.byteOffset, p.byteLength));
      return;
    }
    if (Array.isArray(v) && v.length > batch) {
      emit('[');
      for (let i = 0; i < v.length; i += batch) {
        // a slice keeps holes and undefined entries, which JSON.stringify writes as null, as it would in place
        const text = JSON.stringify(v.slice(i, i + batch));
        emit(i ? `,${text.slice(1, -1)}` : text.slice(1, -1));
      }
      emit(']');
      return;
    }
    if (depth < maxDepth && isPlainObject(v)) {
      emit('{');
      let first = true;
      for (const key of Object.keys(v)) {
        const member = v[key];
        // members JSON.stringify leaves out
        if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
        emit(`${first ? '' : ','}${JSON.stringify(key)}:`);
        first = false;
        walk(member, depth + 1);
      }
      emit('}');
      return;
    }
    emit(JSON.stringify(v) ?? 'null');
  };
  walk(value, 0);
  flush();
  return pieces;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
