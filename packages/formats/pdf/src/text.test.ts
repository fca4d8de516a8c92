import { type FontLike, type GlyphLike, type TextContext, extractWords } from './text.js';
import { normalizeText } from './normalize.js';

// A made-up operator numbering: extractWords takes the numbering as an argument, like pdf.js's OPS.
const OPS = {
  save: 1, restore: 2, transform: 3, beginText: 4, endText: 5, setFont: 6, setTextMatrix: 7, moveText: 8,
  setLeadingMoveText: 9, nextLine: 10, setLeading: 11, setCharSpacing: 12, setWordSpacing: 13, setHScale: 14,
  setTextRise: 15, showText: 16, showSpacedText: 17, beginGroup: 18, endGroup: 19, paintFormXObjectBegin: 20,
  paintFormXObjectEnd: 21, beginMarkedContent: 22, beginMarkedContentProps: 23, endMarkedContent: 24,
};
type Op = [keyof typeof OPS, unknown[] | null];

const FONTS: Record<string, FontLike> = {
  f: { name: 'Helvetica', ascent: 0.8, descent: -0.2 },
  b: { name: 'ABCDEF+Arial-BoldItalic', bold: true, italic: true, ascent: 0.8, descent: -0.2 },
  v: { name: 'MS-Mincho', vertical: true, defaultVMetrics: [-1000, 500, 880] },
};
const ctx = (over: Partial<TextContext> = {}): TextContext => ({
  viewport: [1, 0, 0, -1, 0, 100], // 100×100 page, y flipped to top-left
  pageWidth: 100,
  pageHeight: 100,
  font: (n) => FONTS[n],
  ...over,
});
const words = (ops: Op[], c: TextContext = ctx()) =>
  extractWords({ fnArray: ops.map(([n]) => OPS[n]), argsArray: ops.map(([, a]) => a) }, OPS, c);

/** Glyphs of a string, each `width` thousandths of an em wide; '|' splits a glyph that maps to several characters. */
const glyphs = (s: string, width = 500): GlyphLike[] =>
  (s.includes('|') ? s.split('|') : Array.from(s)).map((unicode) => ({ unicode, width, isSpace: unicode === ' ' }));
const text = (x: number, y: number, shown: (GlyphLike | number)[], font = 'f', size = 10): Op[] => [
  ['beginText', null], ['setFont', [font, size]], ['setTextMatrix', [[1, 0, 0, 1, x, y]]], ['showText', [shown]], ['endText', null],
];

describe('extractWords', () => {
  test('splits at space glyphs; boxes come from the glyph advances', () => {
    const ws = words(text(10, 50, glyphs('ab cde')));
    expect(ws.map((w) => w.text)).toEqual(['ab', 'cde']);
    // 10 pt, 500/1000 em per glyph: "ab" spans 10..20, the space 20..25, "cde" 25..40
    expect(ws[0].box.x0).toBeCloseTo(0.1, 6);
    expect(ws[0].box.x1).toBeCloseTo(0.2, 6);
    expect(ws[1].box.x0).toBeCloseTo(0.25, 6);
    expect(ws[1].box.x1).toBeCloseTo(0.4, 6);
    expect(ws[0].box.y0).toBeCloseTo(0.42, 6); // baseline 50 from the top, ascent 8
    expect(ws[0].box.y1).toBeCloseTo(0.52, 6);
    expect(ws[0]).toMatchObject({ fontSize: 10, fontName: 'Helvetica', confidence: 1, direction: 'ltr' });
    expect(ws.map((w) => !!w.endOfRun)).toEqual([false, true]);
  });

  test('TJ offsets: kerning keeps a word, a gap over 0.102 em is a space, a jump ends the run', () => {
    const ws = words(text(10, 50, [...glyphs('ke'), 30, ...glyphs('rn'), -150, ...glyphs('word'), -2000, ...glyphs('far')]));
    expect(ws.map((w) => w.text)).toEqual(['kern', 'word', 'far']);
    expect(ws.map((w) => !!w.endOfRun)).toEqual([false, true, true]);
    expect(ws[2].box.x0 * 100).toBeCloseTo(10 + 4 * 5 - 0.3 + 1.5 + 4 * 5 + 20, 6);
  });

  test('text state: Td/TL/T*, character and word spacing, Tz and rise move the glyphs as in pdf.js', () => {
    const ws = words([
      ['beginText', null], ['setFont', ['f', 10]], ['setLeadingMoveText', [10, -20]], ['moveText', [0, 80]],
      ['showText', [glyphs('ab')]], ['nextLine', null], ['setCharSpacing', [1]], ['setHScale', [50]], ['showText', [glyphs('cd')]],
      ['setTextRise', [3]], ['setWordSpacing', [20]], ['showText', [glyphs(' e')]], ['endText', null],
    ]);
    expect(ws.map((w) => w.text)).toEqual(['ab', 'cd', 'e']);
    expect(ws[0].box.y1 * 100).toBeCloseTo(100 - 60 + 2, 6); // baseline y = 60 (−20 + 80), descent 2
    expect(ws[1].box.y1 * 100).toBeCloseTo(100 - 40 + 2, 6); // T* moves down by TL = 20
    // Tz 50 %: each glyph advances (5 + 1) · 0.5 = 3 pt
    expect(ws[1].box.x0 * 100).toBeCloseTo(10, 6);
    expect(ws[1].box.x1 * 100).toBeCloseTo(10 + 3 + 2.5, 6);
    // the space glyph gets word spacing (5 + 1 + 20) · 0.5 = 13; the rise lifts "e" by 3
    expect(ws[2].box.x0 * 100).toBeCloseTo(10 + 6 + 13, 6);
    expect(ws[2].box.y1 * 100).toBeCloseTo(100 - 40 - 3 + 2, 6);
  });

  test('the CTM, form matrices and save/restore place text', () => {
    const ws = words([
      ['save', null], ['transform', [2, 0, 0, 2, 0, 0]], ...text(5, 20, glyphs('big')), ['restore', null],
      ['paintFormXObjectBegin', [[1, 0, 0, 1, 50, 0], null]], ...text(0, 10, glyphs('form')), ['paintFormXObjectEnd', null],
      ...text(10, 90, glyphs('top')),
    ]);
    expect(ws.map((w) => [w.text, w.fontSize])).toEqual([['big', 20], ['form', 10], ['top', 10]]);
    expect(ws[0].box.x0).toBeCloseTo(0.1, 6);
    expect(ws[0].box.x1).toBeCloseTo(0.4, 6); // 3 glyphs × 5 pt × 2
    expect(ws[1].box.x0).toBeCloseTo(0.5, 6);
    expect(ws[2].box.x0).toBeCloseTo(0.1, 6);
  });

  test('right-to-left words: logical order from positions, ligatures keep their own order', () => {
    // "الإنتاجية" drawn left to right (visual order); the lam-alef ligature glyph maps to "لإ" (lam first)
    const visual = 'ة|ي|ج|ا|ت|ن|لإ|ا';
    const ws = words(text(10, 50, glyphs(visual)));
    expect(ws).toHaveLength(1);
    expect(ws[0].text).toBe('الإنتاجية');
    expect(ws[0].direction).toBe('rtl');
    expect(ws[0].box.x0).toBeCloseTo(0.1, 6);
    expect(ws[0].box.x1).toBeCloseTo(0.5, 6);
  });

  test('right-to-left words: marks follow their base, digits and Latin runs read left to right', () => {
    // "بناءً" drawn left to right: hamza, alef, nun, beh; the fathatan mark (zero width) over the hamza is
    // drawn after it (moved back over it) or before it
    const base = (u: string): GlyphLike => ({ unicode: u, width: 500 });
    const mark: GlyphLike = { unicode: '\u064B', width: 0 };
    const afterBase = words(text(10, 50, [base('ء'), 250, mark, -250, base('ا'), base('ن'), base('ب')]));
    const beforeBase = words(text(10, 50, [-250, mark, 250, base('ء'), base('ا'), base('ن'), base('ب')]));
    expect(afterBase.map((w) => w.text)).toEqual(['بناءً']);
    expect(beforeBase.map((w) => w.text)).toEqual(['بناءً']);
    expect(afterBase[0].box.x0).toBeCloseTo(0.1, 6);
    expect(afterBase[0].box.x1).toBeCloseTo(0.3, 6);
    // "عام 2023" as one word with the digits: the number keeps its left-to-right order
    expect(words(text(10, 50, glyphs('2023م'))).map((w) => w.text)).toEqual(['م2023']);
    expect(words(text(10, 50, glyphs('3.5ب'))).map((w) => w.text)).toEqual(['ب3.5']);
  });

  test('presentation forms and ligatures are normalized after ordering; invisible characters go', () => {
    const zeroWidthSpace: GlyphLike = { unicode: '\u200B', width: 0 };
    const ws = words(text(10, 50, [...glyphs('\uFB01ne e\uFB03cient zero', 200), zeroWidthSpace, ...glyphs('width Łódź', 200)]));
    expect(ws.map((w) => w.text)).toEqual(['fine', 'efficient', 'zerowidth', 'Łódź']);
    expect(normalizeText('\uFB00\uFB02\uFB04\uFB06')).toBe('ffflfflst');
    // presentation-form glyphs in visual order: alef, lam-alef-hamza ligature (U+FEF9), nun
    expect(words(text(10, 50, glyphs('\uFEE7|\uFEF9|\uFE8D'))).map((w) => w.text)).toEqual(['الإن']);
  });

  test('rotated text gets the rotated box and a vertical direction; vertical fonts read top to bottom', () => {
    // rotated 90° counter-clockwise in user space: advances up the page (y grows upward in PDF)
    const up = words([['beginText', null], ['setFont', ['f', 10]], ['setTextMatrix', [[0, 1, -1, 0, 50, 20]]], ['showText', [glyphs('Up', 1000)]], ['endText', null]]);
    expect(up[0].direction).toBe('btt');
    expect(up[0].box.y1).toBeCloseTo(0.8, 6); // starts at y=20 from the bottom
    expect(up[0].box.y0).toBeCloseTo(0.6, 6);
    expect(up[0].box.x0).toBeCloseTo(0.42, 6); // ascent extends to the left of x=50
    expect(up[0].box.x1).toBeCloseTo(0.52, 6);
    const down = words(text(50, 80, glyphs('縦書き', 1000), 'v'));
    expect(down[0]).toMatchObject({ text: '縦書き', direction: 'ttb' });
    expect(down[0].box.y0).toBeCloseTo(0.2, 6);
    expect(down[0].box.y1).toBeCloseTo(0.5, 6);
    expect(down[0].box.x0).toBeCloseTo(0.45, 6);
  });

  test('font name and style come from the font; a font change ends a word; off-page glyphs are dropped', () => {
    const ws = words([...text(10, 50, glyphs('   ')), ...text(10, 50, glyphs('Bold'), 'b'), ...text(30, 50, glyphs('x')), ...text(150, 50, glyphs('gone'))]);
    expect(ws.map((w) => w.text)).toEqual(['Bold', 'x']);
    expect(ws[0]).toMatchObject({ fontName: 'Arial-BoldItalic', bold: true, italic: true, fontSize: 10, endOfRun: true });
    expect(ws[1].bold).toBeUndefined();
  });

  test('small capitals continue a word; a raised smaller mark starts one; whitespace inside a mapping is dropped', () => {
    const ws = words([
      ...text(10, 50, glyphs('T')), ...text(15, 50, glyphs('HE'), 'f', 8), // same baseline, 80 % size
      ...text(23, 53.5, glyphs('1'), 'f', 6), // footnote mark: 60 % size, raised
      ...text(10, 30, [...glyphs('11,062'), { unicode: ' .', width: 500 }, ...glyphs('6')]), // "." mapped to " ."
    ]);
    expect(ws.map((w) => w.text)).toEqual(['THE', '1', '11,062.6']);
    expect(ws[0]).toMatchObject({ fontSize: 10 });
    expect(ws[0].box.x1).toBeCloseTo(0.23, 6);
  });

  test('Type 3 fonts advance by their font matrix; set at size 1, their glyph box gives the em', () => {
    FONTS.t3 = { name: 'T3', isType3Font: true, fontMatrix: [0.01, 0, 0, 0.01, 0, 0], bbox: [0, -20, 100, 80] };
    const ws = words([['beginText', null], ['setFont', ['t3', 1]], ['setTextMatrix', [[12, 0, 0, 12, 10, 50]]],
      ['showText', [glyphs('ab c', 50)]], ['endText', null]]);
    expect(ws.map((w) => [w.text, w.fontSize])).toEqual([['ab', 12], ['c', 12]]);
    // 50 glyph units × 0.01 = 0.5 em of 12 pt per glyph
    expect(ws[0].box.x1 * 100).toBeCloseTo(10 + 12, 6);
    expect(ws[1].box.x0 * 100).toBeCloseTo(10 + 18, 6);
  });

  test('text without a loaded font or with size 0 makes no words', () => {
    expect(words(text(10, 50, glyphs('ghost'), 'missing'))).toEqual([]);
    expect(words(text(10, 50, glyphs('tiny'), 'f', 0))).toEqual([]);
  });

  describe('marked-content replacement text (ActualText)', () => {
    const BDC: Op = ['beginMarkedContentProps', ['Span', null]], EMC: Op = ['endMarkedContent', []];
    /** The ops with replacement texts keyed by the index of each span's begin op in `ops`. */
    const replaced = (ops: Op[], texts: string[]) => {
      const begins = ops.flatMap(([n], i) => (n === 'beginMarkedContentProps' || n === 'beginMarkedContent' ? [i] : []));
      const actualText = new Map(texts.flatMap((t, k) => (t === '\0' ? [] : [[begins[k], t] as [number, string]])));
      return words(ops, ctx({ actualText }));
    };
    const line = (x: number, ...parts: Op[]): Op[] => [['beginText', null], ['setFont', ['f', 10]], ['setTextMatrix', [[1, 0, 0, 1, x, 50]]], ...parts, ['endText', null]];
    const show = (s: string): Op => ['showText', [glyphs(s)]];

    test('the span\'s glyphs give way to its text, spread over their extent; words around it continue', () => {
      const ws = replaced(line(10, show('of'), BDC, show('\uE000'), EMC, show('ce ok')), ['fi']);
      expect(ws.map((w) => w.text)).toEqual(['office', 'ok']);
      expect(ws[0].box.x0 * 100).toBeCloseTo(10, 6);
      expect(ws[0].box.x1 * 100).toBeCloseTo(10 + 5 * 5, 6); // "of", one 5-pt glyph for "fi", "ce"
    });

    test('only the outermost span is replaced; an inner span\'s end does not end it; an unclosed span still counts', () => {
      expect(replaced(line(10, BDC, show('a'), BDC, show('b'), EMC, show('c'), EMC), ['outer', 'inner']).map((w) => w.text)).toEqual(['outer']);
      expect(replaced(line(10, BDC, show('ab'), ['beginMarkedContent', [{ name: 'X' }]], EMC, show('c')), ['xyz', '\0']).map((w) => w.text)).toEqual(['xyz']);
    });

    test('a span without replacement text and a page without any are read as drawn', () => {
      expect(replaced(line(10, BDC, show('ab'), EMC, BDC, show('cd'), EMC), ['\0', 'XY']).map((w) => w.text)).toEqual(['abXY']);
      expect(words(line(10, BDC, show('ab'), EMC)).map((w) => w.text)).toEqual(['ab']);
    });

    test('a span drawing only whitespace gets the whitespace\'s place; control characters in a replacement are dropped', () => {
      const ws = replaced(line(10, BDC, show(' '), EMC, ['moveText', [20, 0]], show('Yes'), BDC, show(' '), EMC), ['y', '\u0084']);
      expect(ws.map((w) => w.text)).toEqual(['y', 'Yes']);
      expect(ws[0].box.x0 * 100).toBeCloseTo(10, 6);
      expect(ws[0].box.x1 * 100).toBeCloseTo(15, 6);
    });

    test('a right-to-left replacement keeps its logical order', () => {
      const ws = replaced(line(10, BDC, show('abcd'), EMC), ['\u05E9\u05DC\u05D5\u05DD']);
      expect(ws.map((w) => [w.text, w.direction])).toEqual([['\u05E9\u05DC\u05D5\u05DD', 'rtl']]);
    });

    test('a span with glyphs on two lines is placed on its first line only', () => {
      const ws = replaced([
        ['beginText', null], ['setFont', ['f', 10]], ['setTextMatrix', [[1, 0, 0, 1, 60, 50]]],
        BDC, show('exam-'), ['moveText', [-50, -12]], show('ple'), EMC, show(' text'), ['endText', null],
      ], ['example']);
      expect(ws.map((w) => w.text)).toEqual(['example', 'text']);
      expect(ws[0].box.x0 * 100).toBeCloseTo(60, 6);
      expect(ws[0].box.x1 * 100).toBeCloseTo(85, 6);
      expect(ws[1].box.y1 * 100).toBeCloseTo(100 - 38 + 2, 6);
    });
  });
});

describe('letter-spaced text', () => {
  /** The glyphs of `s` with `offset` (thousandths of an em; negative moves right) between the letters of a word and `wordGap` between words. */
  const tracked = (s: string, offset: number, wordGap: number | ' '): (GlyphLike | number)[] => {
    const out: (GlyphLike | number)[] = [];
    s.split(' ').forEach((w, wi) => {
      if (wi > 0) { if (wordGap === ' ') out.push(...glyphs(' ')); else out.push(wordGap); }
      Array.from(w).forEach((ch, i) => { if (i > 0) out.push(offset); out.push(...glyphs(ch)); });
    });
    return out;
  };

  test.each([0.1, 0.2, 0.4])('character spacing (Tc) of %p em does not split words into letters', (em) => {
    const ws = words([['beginText', null], ['setFont', ['f', 10]], ['setCharSpacing', [em * 10]], ['setTextMatrix', [[1, 0, 0, 1, 2, 50]]],
      ['showText', [glyphs('Quarterly report ok')]], ['endText', null]], ctx({ pageWidth: 400, viewport: [1, 0, 0, -1, 0, 100] }));
    expect(ws.map((w) => w.text)).toEqual(['Quarterly', 'report', 'ok']);
  });

  test.each([-150, -250, -400])('uniform TJ tracking of %p between letters keeps words whole; words part at a space or a wider gap', (offset) => {
    const wide = { pageWidth: 600, viewport: [1, 0, 0, -1, 0, 100] as TextContext['viewport'] };
    const bySpace = words(text(2, 50, tracked('REVENUE GREW TWELVE', offset, ' ')), ctx(wide));
    expect(bySpace.map((w) => w.text)).toEqual(['REVENUE', 'GREW', 'TWELVE']);
    const byGap = words(text(2, 50, tracked('REVENUE GREW TWELVE', offset, 3 * offset)), ctx(wide));
    expect(byGap.map((w) => w.text)).toEqual(['REVENUE', 'GREW', 'TWELVE']);
  });

  test('uneven TJ offsets are not tracking: a gap a space wide still parts words', () => {
    const ws = words(text(2, 50, [...glyphs('ab'), -300, ...glyphs('cd'), -20, ...glyphs('ef')]));
    expect(ws.map((w) => w.text)).toEqual(['ab', 'cdef']);
  });
});


describe('shaped scripts (Chrome/Skia PDFs)', () => {
  // a font whose ToUnicode sends codes 3 and 4 to nothing (parts of a shaped cluster), as pdf.js hands it over
  const shaped: FontLike = { name: 'NotoSansArabic', ascent: 0.8, descent: -0.2, toUnicode: { _map: Object.assign([], { 1: 'ب', 2: 'ت', 3: '', 4: '', 5: 'क', 6: 'ि', 7: 'ल' }) } };
  const sctx = ctx({ font: (n) => (n === 's' ? shaped : FONTS[n]) });
  /** Glyphs as pdf.js gives them: an empty mapping comes back as the code read as a character. */
  const coded = (codes: number[]): GlyphLike[] =>
    codes.map((c) => ({ unicode: (shaped.toUnicode!._map as string[])[c] || String.fromCharCode(c + 0x40), width: 500, originalCharCode: c }));

  test('a glyph whose ToUnicode entry is explicitly empty has no text (not its code as a letter)', () => {
    const arabic = words(text(10, 50, coded([2, 3, 1]), 's'), sctx);
    expect(arabic.map((w) => w.text)).toEqual(['بت']);
    expect(arabic[0].direction).toBe('rtl');
    const devanagari = words(text(10, 70, coded([5, 6, 4, 7]), 's'), sctx);
    expect(devanagari.map((w) => w.text)).toEqual([normalizeText('किल')]);
  });

  test('the same code in a font without an empty entry keeps its text', () => {
    const plain = words(text(10, 50, [{ unicode: 'C', width: 500, originalCharCode: 3 }]));
    expect(plain.map((w) => w.text)).toEqual(['C']);
  });

  test('a glyph mapped to text with a space inside parts the words there', () => {
    const ws = words(text(10, 50, [...glyphs('ab'), { unicode: 'c d', width: 1000 }, ...glyphs('ef')]), ctx({ pageWidth: 200 }));
    expect(ws.map((w) => w.text)).toEqual(['abc', 'def']);
    const rtl = words(text(10, 50, [{ unicode: 'ب ت', width: 1000 }]), ctx({ pageWidth: 200 }));
    // right to left: the first word of the mapping is on the right
    expect(rtl.map((w) => w.text).sort()).toEqual(['ب', 'ت']);
    expect(rtl.find((w) => w.text === 'ب')!.box.x0).toBeGreaterThan(rtl.find((w) => w.text === 'ت')!.box.x0);
  });

  test('combining marks do not make a word right to left', () => {
    const ws = words(text(10, 50, glyphs('a|\u0651|\u064e')));
    expect(ws[0].direction).toBe('ltr');
  });
});
