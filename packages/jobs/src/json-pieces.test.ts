import { LazyJsonArray } from '@quire/core';
import { jsonPieceStream } from './json-pieces.js';

const jsonPieces = (value: unknown, opts?: Parameters<typeof jsonPieceStream>[1]) => [...jsonPieceStream(value, opts)];

const text = (pieces: Buffer[]) => Buffer.concat(pieces).toString('utf8');

describe('jsonPieceStream', () => {
  it('writes the same text as JSON.stringify, long arrays in batches', () => {
    const words = Array.from({ length: 10_001 }, (_, i) => ({ content: `w${i} “é”`, page_number: 1 + (i % 7), bounding_box: [{ x: i / 1e4, y: 0.5 }] }));
    const value = {
      extraction_id: 'abc',
      page_count: 3,
      markdown: '# Title\n\nText with "quotes" and \\ backslashes\u2028',
      bounding_boxes: { Text: [{ id: 'txt-1' }], Words: words, Empty: [] },
      skipped: undefined,
      fn: () => 1,
      when: new Date(Date.UTC(2026, 10, 26)),
      sparse: Object.assign(new Array(9000), { 3: 'x' }),
      withUndefined: Array.from({ length: 5000 }, (_, i) => (i % 2 ? undefined : i)),
      nested: { a: { b: { c: { d: { e: [1, 2, 3] } } } } },
      nothing: null,
    };
    const pieces = jsonPieces(value, { batch: 1000, pieceBytes: 10_000 });
    expect(pieces.length).toBeGreaterThan(10);
    expect(text(pieces)).toBe(JSON.stringify(value));
    expect(words).toHaveLength(10_001); // the value is left as it was
    expect(words[0].content).toBe('w0 “é”');
  });

  it('small values, top-level arrays and scalars', () => {
    for (const v of [{}, [], { a: [] }, [1, 'two', null], 'plain', 42, null, { k: { toJSON: () => 'custom' } }]) {
      expect(text(jsonPieces(v, { batch: 1 }))).toBe(JSON.stringify(v));
    }
  });

  it('writes a LazyJsonArray where it stands, at any depth; JSON.stringify of the same value agrees', () => {
    const words = new LazyJsonArray(() => [[{ content: 'a' }, { content: 'b' }], [], [{ content: 'c' }]]);
    const value = { page_count: 3, bounding_boxes: { Text: [{ id: 'txt-1' }], Words: words, markdown_with_ids: 'x' }, empty: new LazyJsonArray(() => []) };
    const out = text(jsonPieces(value));
    expect(JSON.parse(out)).toEqual({ page_count: 3, bounding_boxes: { Text: [{ id: 'txt-1' }], Words: [{ content: 'a' }, { content: 'b' }, { content: 'c' }], markdown_with_ids: 'x' }, empty: [] });
    expect(out).toBe(JSON.stringify(value));
  });

  it('makes the groups of a LazyJsonArray when the stream reaches it, and again for each reading', () => {
    let written = 0;
    const words = new LazyJsonArray(function* () { for (let p = 0; p < 3; p++) { written++; yield [{ page: p }]; } });
    const stream = jsonPieceStream({ before: 'x'.repeat(100), words, after: 1 }, { pieceBytes: 10 });
    expect(written).toBe(0);
    const first = stream.next();
    expect(first.value?.toString()).toContain('before');
    expect(written).toBe(0); // nothing written before the walk gets there
    const text = Buffer.concat([first.value as Buffer, ...stream]).toString('utf8');
    expect(written).toBe(3);
    expect(JSON.parse(text)).toEqual({ before: 'x'.repeat(100), words: [{ page: 0 }, { page: 1 }, { page: 2 }], after: 1 });
    expect(JSON.stringify({ words })).toBe('{"words":[{"page":0},{"page":1},{"page":2}]}');
    expect(written).toBe(6);
  });

  it('a short array of large entries is written entry by entry: no piece holds the whole array', () => {
    const pages = Array.from({ length: 20 }, (_, n) => ({ number: n + 1, words: Array.from({ length: 500 }, (_, i) => ({ text: `w${i}`, box: { x0: i / 500 } })) }));
    const value = { pageCount: 20, pages, holes: Object.assign(new Array(3), { 1: 'x' }), odd: [undefined, () => 1, Symbol('s'), null, 2] };
    const pieces = jsonPieces(value, { pieceBytes: 4096 });
    const whole = JSON.stringify(value);
    expect(Buffer.concat(pieces).toString('utf8')).toBe(whole);
    expect(Math.max(...pieces.map((p) => p.byteLength))).toBeLessThan(whole.length / 10);
  });
});
