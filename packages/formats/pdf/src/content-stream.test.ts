import { parseContent, rewriteContent } from './content-stream.js';

const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));
const text = (b: Uint8Array) => Buffer.from(b).toString('latin1');

describe('parseContent', () => {
  it('splits a stream into operations with their operands and byte ranges', () => {
    const src = 'q 1 0 0 1 72 700 cm % a comment\nBT /F1#20A 12 Tf (a\\(b\\)) Tj [(x) -250 <4142>] TJ ET /Quire0 Do\nBI /W 2 /H 1 ID \x00EI\x01 EI Q';
    const ops = parseContent(bytes(src));
    expect(ops.map((o) => o.op)).toEqual(['q', 'cm', 'BT', 'Tf', 'Tj', 'TJ', 'ET', 'Do', 'BI', 'Q']);
    expect(ops[1].args).toEqual([1, 0, 0, 1, 72, 700]);
    expect(ops[3].args).toEqual([{ name: 'F1 A' }, 12]);
    expect(ops[4].args).toEqual([{ str: bytes('a(b)') }]);
    expect(ops[5].args).toEqual([[{ str: bytes('x') }, -250, { str: bytes('AB') }]]);
    expect(ops.map((o) => src.slice(o.start, o.end))).toContain('/Quire0 Do');
    // the inline image's binary data, "EI" inside it included, is part of the one operation
    expect(src.slice(ops[8].start, ops[8].end)).toBe('BI /W 2 /H 1 ID \x00EI\x01 EI');
  });

  it('rewrites only the operations asked for and copies every other byte', () => {
    const src = 'q  BT (keep) Tj ET\n/Quire1 Do   (drop) Tj Q';
    const ops = parseContent(bytes(src));
    const drop = new Map([[ops.findIndex((o) => o.op === 'Do'), ''], [ops.length - 2, '() Tj']]);
    expect(text(rewriteContent(bytes(src), ops, drop))).toBe('q  BT (keep) Tj ET\n   () Tj Q');
  });
});
