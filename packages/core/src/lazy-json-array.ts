/**
 * A value written as JSON text in consecutive byte pieces: part of a large result (e.g. an extraction's
 * Words, page by page) whose objects never all exist at once. The text is written when it is read, not
 * when the RawJson is made: the job runtime's serializer (jsonPieceStream) splices the pieces in as it
 * streams a result to the blob store, so only the piece being written is in memory besides the source
 * it is written from. Reading twice writes it twice (the source must still be there). Plain
 * JSON.stringify still works (toJSON parses the text back), only slower.
 */
export class RawJson {
  /** `write` yields the pieces; it is called anew for each reading. */
  constructor(private readonly write: () => Iterable<Uint8Array>) {}

  /** The text, piece by piece (written now). */
  pieces(): Iterable<Uint8Array> {
    return this.write();
  }

  toJSON(): unknown {
    const decoder = new TextDecoder();
    let text = '';
    for (const p of this.write()) text += decoder.decode(p, { stream: true });
    return JSON.parse(text + decoder.decode());
  }

  /**
   * A JSON array of items produced group by group when it is read (each group's objects can be dropped
   * once written). `groups` is called for each reading.
   */
  static arrayOf<T>(groups: () => Iterable<readonly T[]>): RawJson {
    return new RawJson(function* () {
      const encoder = new TextEncoder();
      yield encoder.encode('[');
      let first = true;
      for (const items of groups()) {
        if (!items.length) continue;
        const text = JSON.stringify(items);
        yield encoder.encode(first ? text.slice(1, -1) : `,${text.slice(1, -1)}`);
        first = false;
      }
      yield encoder.encode(']');
    });
  }
}
