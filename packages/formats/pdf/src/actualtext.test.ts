import { resolveLimits, type RawPage, type RawWord } from '@quire/core';
import { type MarkedSpan, MarkedContentReader, alignActualText, decodeTextString, mayHaveActualText, needsMarkedContent } from './actualtext.js';
import { loadPdfLib } from './pdf-lib-objects.js';
import { readPdf } from './read.js';
import { readPage } from './page.js';
import { loadPdfjs, openDocument } from './pdfjs.js';
import { makeActualTextPdf, makeTaggedPdf, makeUntaggedPdf } from '../../../../tests/fixtures/pdf/actualtext.js';

const word = (p: RawPage, text: string): RawWord => {
  const w = p.words.find((x) => x.text === text);
  if (!w) throw new Error(`word "${text}" not found: ${p.words.map((x) => x.text).join(' ')}`);
  return w;
};
/** Words whose baseline box sits on the line drawn at `y` (PDF points from the bottom, 12 pt text). */
const line = (p: RawPage, y: number) =>
  p.words.filter((w) => Math.abs((1 - w.box.y1) * 792 - (y - 0.2 * 12)) < 3).sort((a, b) => a.box.x0 - b.box.x0).map((w) => w.text);

describe('ActualText in generated PDFs', () => {
  let page: RawPage;
  let warnings: string[];
  beforeAll(async () => {
    const r = await readPdf(await makeActualTextPdf());
    page = r.pages[0];
    warnings = r.warnings;
  });

  test('the page reads without warnings: the spans matched pdf.js\'s', () => {
    expect(warnings).toEqual([]);
  });

  test('a ligature glyph with no Unicode reads as its ActualText, inside its word', () => {
    expect(line(page, 740)).toEqual(['office']);
    // the word spans "of", the ligature and "ce": 5 glyphs of 6 pt
    const w = word(page, 'office');
    expect(w.box.x0 * 612).toBeCloseTo(72, 1);
    expect(w.box.x1 * 612).toBeCloseTo(72 + 5 * 6, 1);
  });

  test('a span across a line break is replaced on its first line, over the glyphs of that line', () => {
    expect(line(page, 715)).toEqual(['example']);
    expect(line(page, 701)).toEqual(['text']);
    expect(page.words.map((w) => w.text)).not.toContain('ple');
    // "exam-" in Helvetica 12: e 6.672, x 6, a 6.672, m 9.996, - 3.996
    const w = word(page, 'example');
    expect(w.box.x0 * 612).toBeCloseTo(72, 1);
    expect(w.box.x1 * 612).toBeCloseTo(72 + 6.672 + 6 + 6.672 + 9.996 + 3.996, 1);
  });

  test('a named /Properties resource with a UTF-16BE string', () => {
    expect(line(page, 680)).toEqual(['→']);
  });

  test('a span that draws only a space glyph puts its text where the space is', () => {
    expect(line(page, 655)).toEqual(['y', 'Persons']);
    const y = word(page, 'y');
    expect(y.box.x0 * 612).toBeCloseTo(72, 1);
    expect(y.box.x1 * 612).toBeCloseTo(72 + 3.336, 1); // the Helvetica space, 0.278 em
    expect(y.fontSize).toBe(12);
  });

  test('a replacement with a space splits into words over the glyphs\' extent; an empty one removes them', () => {
    expect(line(page, 630)).toEqual(['New', 'York']);
    const ny = word(page, 'New'), york = word(page, 'York');
    expect(ny.box.x0 * 612).toBeCloseTo(72, 1);
    // "NYC" is 8.664 + 8.004 + 8.664 = 25.332 pt wide, shared by 8 characters
    expect(york.box.x1 * 612).toBeCloseTo(72 + 25.332, 1);
    expect(page.words.map((w) => w.text)).not.toContain('gone');
  });

  test('the outermost span replaces everything inside it, nested spans included', () => {
    expect(line(page, 605)).toEqual(['outer']);
  });

  test('a PDFDocEncoding literal string with an octal escape', () => {
    expect(line(page, 580)).toEqual(['café']);
  });

  test('spans in a form XObject count in drawing order, between the page\'s own', () => {
    expect(line(page, 555)).toEqual(['inside']);
    expect(line(page, 530)).toEqual(['after']);
    expect(line(page, 505)).toEqual(['plain', 'words']);
  });

  test('a span with no glyphs (a filled square) places no text', () => {
    expect(page.words.map((w) => w.text)).not.toContain('logo');
  });
});

describe('reading spans only where they can matter', () => {
  const ctxFor = (reader: MarkedContentReader) => ({ limits: resolveLimits({}), warnings: [] as string[], markedContent: reader });

  test('an untagged page never asks for its content stream; a tagged one does', async () => {
    for (const [make, expectCalls] of [[makeUntaggedPdf, 0], [makeActualTextPdf, 1]] as const) {
      const bytes = await make();
      const reader = new MarkedContentReader(bytes);
      let calls = 0;
      const spans = reader.spans.bind(reader);
      reader.spans = (n) => { calls++; return spans(n); };
      const doc = await openDocument(bytes, {});
      try {
        await readPage(doc, 1, ctxFor(reader));
      } finally {
        await doc.destroy();
      }
      expect(calls).toBe(expectCalls);
    }
  });

  test('a tagged document without replacement text is searched, not parsed; one with it is parsed once', async () => {
    for (const [bytes, parsed, words] of [
      [await makeTaggedPdf(), false, ['Hello', 'tagged', 'world']],
      [await makeTaggedPdf({ actualText: 'world' }), true, ['Hello', 'tagged', 'world']],
      [await makeTaggedPdf({ actualText: 'world', hexFilter: true }), true, ['Hello', 'tagged', 'world']],
    ] as const) {
      const reader = new MarkedContentReader(bytes);
      const doc = await openDocument(bytes, {});
      let p: RawPage;
      try {
        p = await readPage(doc, 1, ctxFor(reader));
      } finally {
        await doc.destroy();
      }
      expect(reader.parsed).toBe(parsed);
      expect(p.words.map((w) => w.text)).toEqual(words);
    }
  });

  test('mayHaveActualText finds the name in compressed content streams only where it is', async () => {
    expect(mayHaveActualText(await makeTaggedPdf())).toBe(false);
    expect(mayHaveActualText(await makeTaggedPdf({ actualText: 'x' }))).toBe(true);
    expect(mayHaveActualText(await makeUntaggedPdf())).toBe(false);
    // a filter it does not inflate: it cannot tell, so it says yes
    expect(mayHaveActualText(await makeTaggedPdf({ hexFilter: true }))).toBe(true);
  });

  test('spans that do not match the operator list leave the glyphs as drawn, with a warning', async () => {
    const bytes = await makeActualTextPdf();
    const reader = new MarkedContentReader(bytes);
    // one span too few: the last /Span would not have its ActualText placed on the right glyphs
    const real = await reader.spans(1);
    reader.spans = async () => real!.slice(0, -1);
    const doc = await openDocument(bytes, {});
    const ctx = ctxFor(reader);
    let p: RawPage;
    try {
      p = await readPage(doc, 1, ctx);
    } finally {
      await doc.destroy();
    }
    expect(ctx.warnings).toEqual([expect.stringContaining('did not match the drawn content')]);
    expect(p.words.map((w) => w.text)).toEqual(expect.arrayContaining(['NYC', 'AFTER', 'INSIDE']));
  });

  test('the spans read from the content streams, in drawing order', async () => {
    const spans = await new MarkedContentReader(await makeActualTextPdf()).spans(1);
    expect(spans).toEqual([
      { tag: 'Span', actualText: 'fi' }, { tag: 'Span', actualText: 'example' }, { tag: 'Span', actualText: '→' },
      { tag: 'Span', actualText: 'y' }, { tag: 'Span', actualText: 'New York' }, { tag: 'Span', actualText: '' },
      { tag: 'Span', actualText: 'outer' }, { tag: 'Span', actualText: 'inner' }, { tag: 'Span', actualText: 'café' },
      { tag: 'Artifact' }, { tag: 'OC' }, { tag: 'Figure', actualText: 'logo' },
      { tag: 'Span', actualText: 'inside' }, { tag: 'Span', actualText: 'after' },
    ]);
  });

  test('an encrypted or unreadable document gives no spans', async () => {
    expect(await new MarkedContentReader(new Uint8Array([1, 2, 3])).spans(1)).toBeUndefined();
  });
});

describe('alignActualText', () => {
  const OPS = { beginMarkedContent: 1, beginMarkedContentProps: 2, endMarkedContent: 3, showText: 4 };
  const list = (...ops: [number, unknown[] | null][]) => ({ fnArray: ops.map((o) => o[0]), argsArray: ops.map((o) => o[1]) });

  test('pdf.js\'s own optional-content begins are left out on both sides; tags must agree', () => {
    const ops = list(
      [OPS.beginMarkedContentProps, ['OC', { type: 'OCG', id: '5R' }]], [OPS.endMarkedContent, []], // an image with /OC
      [OPS.beginMarkedContent, [{ name: 'Artifact' }]], [OPS.endMarkedContent, []],
      [OPS.beginMarkedContentProps, ['Span', 3]], [OPS.showText, [[]]], [OPS.endMarkedContent, []],
    );
    const spans: MarkedSpan[] = [{ tag: 'Artifact' }, { tag: 'Span', actualText: 'x' }];
    expect(needsMarkedContent(ops, OPS)).toBe(true);
    expect(alignActualText(ops, OPS, spans)).toEqual(new Map([[4, 'x']]));
    expect(alignActualText(ops, OPS, [{ tag: 'P' }, { tag: 'Span', actualText: 'x' }])).toBeUndefined();
    expect(alignActualText(ops, OPS, [...spans, { tag: 'Span' }])).toBeUndefined();
    expect(needsMarkedContent(list([OPS.beginMarkedContentProps, ['OC', null]], [OPS.beginMarkedContent, [{ name: 'Artifact' }]]), OPS)).toBe(false);
  });
});

describe('decodeTextString', () => {
  beforeAll(() => loadPdfLib());
  test('UTF-16BE with a byte order mark (language escapes dropped), UTF-8 with one, PDFDocEncoding', () => {
    expect(decodeTextString(Uint8Array.from([0xfe, 0xff, 0x00, 0x1b, 0x00, 0x65, 0x00, 0x6e, 0x00, 0x1b, 0x00, 0x66, 0xfb, 0x01]))).toBe('f\ufb01');
    expect(decodeTextString(Uint8Array.from([0xef, 0xbb, 0xbf, 0xc3, 0xa9]))).toBe('é');
    // PDFDocEncoding 0x93 is the fi ligature, 0x84 an em dash
    expect(decodeTextString(Uint8Array.from([0x61, 0x93, 0x84]))).toBe('a\ufb01\u2014');
  });
});

// keep pdf.js loaded once for the file (readPage expects it)
beforeAll(async () => { await loadPdfjs(); });
