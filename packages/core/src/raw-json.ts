/**
 * A value already written as JSON text, in consecutive byte pieces: part of a large result serialized
 * ahead (e.g. an extraction's Words, page by page) so the objects it was written from never all exist at
 * once. The job runtime's serializer (jsonPieces) splices the pieces in as they are; plain
 * JSON.stringify still works (toJSON parses the text back), only slower.
 */
export class RawJson {
  constructor(readonly pieces: readonly Uint8Array[]) {}

  get byteLength(): number {
    return this.pieces.reduce((n, p) => n + p.byteLength, 0);
  }

  toJSON(): unknown {
    const all = new Uint8Array(this.byteLength);
    let at = 0;
    for (const p of this.pieces) { all.set(p, at); at += p.byteLength; }
    return JSON.parse(new TextDecoder().decode(all));
  }

  /** A JSON array written from items produced group by group (each group's objects can be dropped once written). */
  static arrayOf<T>(groups: Iterable<readonly T[]>): RawJson {
    const encoder = new TextEncoder();
    const pieces: Uint8Array[] = [encoder.encode('[')];
    let first = true;
    for (const items of groups) {
      if (!items.length) continue;
      const text = JSON.stringify(items);
      pieces.push(encoder.encode(first ? text.slice(1, -1) : `,${text.slice(1, -1)}`));
      first = false;
    }
    pieces.push(encoder.encode(']'));
    return new RawJson(pieces);
  }
}
