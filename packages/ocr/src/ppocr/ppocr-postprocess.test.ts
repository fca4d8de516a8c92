import { allowedClasses, ctcCharset, ctcGreedy, pageWordGap, partingGapWidths, settleHomoglyphs, splitWords } from './ctc.js';
import { bounds, dbBoxes, readingOrder, type OrientedBox } from './db-boxes.js';
import { inkGaps, withoutUnsureLines } from './pipeline.js';

/** A probability map with filled rectangles turned by `deg` about their centres. */
function mapWith(width: number, height: number, rects: { cx: number; cy: number; w: number; h: number; deg: number; p: number }[]): Float32Array {
  const map = new Float32Array(width * height);
  for (const r of rects) {
    const a = (r.deg * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const dx = x - r.cx, dy = y - r.cy;
        const u = dx * c + dy * s, v = -dx * s + dy * c;
        if (Math.abs(u) <= r.w / 2 && Math.abs(v) <= r.h / 2) map[y * width + x] = r.p;
      }
    }
  }
  return map;
}

describe('DB post-processing', () => {
  it('finds one oriented box per text kernel, grown by the unclip offset', () => {
    const map = mapWith(400, 200, [{ cx: 150, cy: 60, w: 200, h: 20, deg: 0, p: 0.9 }, { cx: 200, cy: 140, w: 240, h: 16, deg: 5, p: 0.8 }]);
    const boxes = readingOrder(dbBoxes(map, 400, 200));
    expect(boxes).toHaveLength(2);
    const [flat, tilted] = boxes;
    // kernel 201×21 px: offset = area × 1.5 / perimeter ≈ 14.3 px on every side
    const d = (201 * 21 * 1.5) / (2 * (201 + 21));
    expect(flat.length).toBeCloseTo(201 + 2 * d, 0);
    expect(flat.height).toBeCloseTo(21 + 2 * d, 0);
    expect(flat.cx).toBeCloseTo(150, 0);
    expect(flat.cy).toBeCloseTo(60, 0);
    expect(Math.atan2(tilted.uy, tilted.ux) * 180 / Math.PI).toBeCloseTo(5, 0);
    expect(tilted.score).toBeCloseTo(0.8, 5);
  });

  it('drops faint components, specks and what lies under the threshold', () => {
    const map = mapWith(200, 100, [
      { cx: 50, cy: 30, w: 60, h: 12, deg: 0, p: 0.5 }, // above the pixel threshold, below the box threshold
      { cx: 150, cy: 30, w: 1, h: 1, deg: 0, p: 0.95 }, // a speck (kernels under 3 px a side are noise)
      { cx: 100, cy: 80, w: 60, h: 12, deg: 0, p: 0.25 }, // under the pixel threshold
    ]);
    expect(dbBoxes(map, 200, 100)).toEqual([]);
  });

  it('orders boxes in rows top to bottom, left to right within a row', () => {
    const box = (cx: number, cy: number): OrientedBox => ({ cx, cy, ux: 1, uy: 0, length: 50, height: 20, score: 1 });
    const order = readingOrder([box(300, 104), box(100, 100), box(100, 200), box(200, 97)]);
    expect(order.map((b) => [b.cx, b.cy])).toEqual([[100, 100], [200, 97], [300, 104], [100, 200]]);
    expect(bounds(box(100, 100))).toEqual({ x0: 75, y0: 90, x1: 125, y1: 110 });
  });
});

describe('CTC greedy decoding', () => {
  const charset = ctcCharset('a\nb\nc\n');
  // classes: 0 blank, 1 a, 2 b, 3 c, 4 space
  const steps = (rows: [number, number][]) => {
    const probs = new Float32Array(rows.length * charset.length);
    rows.forEach(([cls, p], t) => {
      for (let c = 0; c < charset.length; c++) probs[t * charset.length + c] = c === cls ? p : (1 - p) / (charset.length - 1);
    });
    return probs;
  };

  it('collapses repeats, drops blanks, keeps where each character was read and how surely', () => {
    const probs = steps([[1, 0.9], [1, 0.7], [0, 0.99], [1, 0.8], [2, 0.6], [0, 0.9], [4, 0.9], [0, 0.9], [3, 0.5], [3, 0.9]]);
    const chars = ctcGreedy(probs, 0, 10, charset.length, charset);
    expect(chars.map((c) => c.char).join('')).toBe('aab c');
    expect(chars[0]).toEqual({ char: 'a', prob: expect.closeTo(0.8, 5), from: 0, to: 1 });
    expect(chars[4]).toEqual({ char: 'c', prob: expect.closeTo(0.7, 5), from: 8, to: 9 });
    const words = splitWords(chars, 10);
    expect(words.map((w) => w.text)).toEqual(['aab', 'c']);
    // confidence: the mean of the characters' probabilities
    expect(words[0].confidence).toBeCloseTo((0.8 + 0.8 + 0.6) / 3, 5);
    // extents: half a pitch around the first and last character centres, inside the line
    expect(words[0].start).toBeGreaterThanOrEqual(0);
    expect(words[0].end).toBeLessThan(words[1].start);
    expect(words[1].end).toBeLessThanOrEqual(10);
  });

  it('reads no ideograph on a page whose languages have no Chinese: such a column is a blank', () => {
    const cjk = ctcCharset('6\n月\nB\n');
    // classes: 0 blank, 1 "6", 2 "月", 3 "B", 4 space; "月" is best in columns 1 and 3
    const row = (p: number[]) => p;
    const probs = new Float32Array([row([0.05, 0.9, 0.03, 0.01, 0.01]), row([0.35, 0.02, 0.6, 0.02, 0.01]), row([0.9, 0.02, 0.04, 0.02, 0.02]), row([0.05, 0.02, 0.5, 0.42, 0.01])].flat());
    expect(ctcGreedy(probs, 0, 4, cjk.length, cjk).map((c) => c.char).join('')).toBe('6月月');
    const latin = allowedClasses(cjk, false);
    expect(Array.from(latin!)).toEqual([1, 1, 0, 1, 1]);
    expect(ctcGreedy(probs, 0, 4, cjk.length, cjk, latin).map((c) => c.char).join('')).toBe('6');
    expect(allowedClasses(cjk, true)).toBeNull();
  });

  it('reads a sequence at an offset (one line of a batch)', () => {
    const probs = new Float32Array([...steps([[1, 0.9], [0, 0.9]]), ...steps([[3, 0.9], [2, 0.9]])]);
    expect(ctcGreedy(probs, 2 * charset.length, 2, charset.length, charset).map((c) => c.char).join('')).toBe('cb');
  });
});

describe('word gaps in a line crop', () => {
  /** A 48 px high crop with ink 30 px high (rows 9–38) in the given column ranges. */
  const crop = (width: number, inked: [number, number][]) => {
    const data = new Uint8Array(48 * width).fill(235);
    for (const [a, b] of inked) for (let y = 9; y < 39; y++) for (let x = a; x < b; x++) data[y * width + x] = 30;
    return { data, width };
  };

  it('finds the gaps of at least a quarter of the ink height between inked columns, not letter spacing or margins', () => {
    // letters 14 px wide, 3 px apart; one word gap of 9 px (≥ 0.25 × 30), margins of 20 px
    const c = crop(200, [[20, 34], [37, 51], [54, 68], [77, 91], [94, 108], [111, 125]]);
    expect(inkGaps(c)).toEqual([[68, 77]]);
  });

  it('finds the word gaps of an underlined line: the rule under the words is no letter ink', () => {
    const c = crop(300, [[20, 34], [37, 51], [54, 68], [77, 91], [94, 108], [111, 125], [140, 154], [157, 171]]);
    // an underline 3 px thick just under the letters, from the first word's start to the last one's end
    for (let y = 40; y < 43; y++) for (let x = 18; x < 173; x++) c.data[y * c.width + x] = 30;
    expect(inkGaps(c)).toEqual([[68, 77], [125, 140]]);
  });

  it('finds the word gaps under a fill line that runs on past the words', () => {
    const c = crop(400, [[20, 34], [37, 51], [54, 68], [77, 91], [94, 108]]);
    // a form's fill line through the bottom of the band, from the words to the crop's end
    for (let y = 36; y < 38; y++) for (let x = 60; x < 400; x++) c.data[y * c.width + x] = 30;
    expect(inkGaps(c)).toEqual([[68, 77]]);
  });

  it('leaves out the descenders of the line above, cut by the crop\'s top edge and apart from the band by blank rows', () => {
    const c = crop(200, [[20, 34], [37, 51], [54, 68], [77, 91], [94, 108]]);
    for (let y = 0; y < 4; y++) for (let x = 40; x < 110; x++) if (x % 9 < 5) c.data[y * c.width + x] = 30;
    expect(inkGaps(c)).toEqual([[68, 77]]);
  });

  it('finds none on a crop without contrast', () => {
    expect(inkGaps({ data: new Uint8Array(48 * 100).fill(200), width: 100 })).toEqual([]);
  });
});

describe('letters and digits confused by shape', () => {
  it('reads the zeros of a run of letters as O, in the letters\' case', () => {
    expect(['N0', 'AE0N', 'RESERVATI0N', '0ctober', 'N0.', 'Tel:N0'].map(settleHomoglyphs)).toEqual(['NO', 'AEON', 'RESERVATION', 'october', 'NO.', 'Tel:NO']);
  });

  it('reads O, o, I and l among digits as 0 and 1', () => {
    expect(['2O18', '4l00', '1O.5O', 'RM1O'].map(settleHomoglyphs)).toEqual(['2018', '4100', '10.50', 'RM1O']);
  });

  it('reads an l that starts a word before a consonant or a capital as I', () => {
    expect(['lnclusive', 'ltem', 'lNVOICE', 'lunch', 'lly', 'Ltd', 'l', 'lbs'].map(settleHomoglyphs)).toEqual(['Inclusive', 'Item', 'INVOICE', 'lunch', 'lly', 'Ltd', 'l', 'lbs']);
  });

  it('reads a 1 between two lower-case letters as l (a typewriter l has a foot and a flag)', () => {
    expect(['too1ing', 'f1avor', 'availab1e', 'sma11er'].map(settleHomoglyphs)).toEqual(['tooling', 'flavor', 'available', 'smaller']);
  });

  it('leaves codes that mix letters with other digits, and 1s among letters, as read', () => {
    expect(['SA0264195-T', 'M026588', 'B17S0', 'BI11', 'A1', 'ROUND0FF1'].map(settleHomoglyphs)).toEqual(['SA0264195-T', 'M026588', 'B17S0', 'BI11', 'A1', 'ROUND0FF1']);
  });
});

describe('words from characters and gaps', () => {
  const ch = (char: string, at: number) => ({ char, prob: 0.9, from: at, to: at });
  const chars = [ch('a', 2), ch('b', 4), ch('c', 6), ch('d', 10), ch('e', 12)];
  const spaceProb = (at: number, p: number) => { const s = new Float32Array(15); s[at] = p; return s; };

  it('splits at an ink gap where the recognizer hesitated over a space it did not read', () => {
    expect(splitWords(chars, 15, { gaps: [[7.5, 9]], spaceProb: spaceProb(8, 0.2) }).map((w) => w.text)).toEqual(['abc', 'de']);
  });

  it('keeps a word whole across a gap the recognizer saw no space in (the air around an "i" in monospaced print)', () => {
    expect(splitWords(chars, 15, { gaps: [[7.5, 9]], spaceProb: spaceProb(8, 0.005) }).map((w) => w.text)).toEqual(['abcde']);
    expect(splitWords(chars, 15).map((w) => w.text)).toEqual(['abcde']);
  });

  it('splits between two characters with no ink gap where the recognizer clearly hesitated over a space (tight receipt print)', () => {
    // "TAXINVOICE" as read from a dot-matrix line: the space probability rises between X and I, no gap in the ink
    const tight = [...'TAXINVOICE'].map((c, i) => ch(c, 1 + 2 * i));
    const sp = new Float32Array(21); sp[6] = 0.2; sp[12] = 0.02;
    expect(splitWords(tight, 21, { gaps: [], spaceProb: sp }).map((w) => w.text)).toEqual(['TAX', 'INVOICE']);
  });

  it('splits at a gap as wide as the page\'s word spaces where the space class rose only a little', () => {
    const weak = { gaps: [[7.5, 9]] as [number, number][], spaceProb: spaceProb(8, 0.02) };
    expect(splitWords(chars, 15, weak).map((w) => w.text)).toEqual(['abcde']);
    expect(splitWords(chars, 15, { ...weak, wideGap: 1.5 }).map((w) => w.text)).toEqual(['abc', 'de']);
    // not where the recognizer gave the space no weight at all, nor at a gap narrower than the page's spaces
    expect(splitWords(chars, 15, { ...weak, spaceProb: spaceProb(8, 0.002), wideGap: 1.5 }).map((w) => w.text)).toEqual(['abcde']);
    expect(splitWords(chars, 15, { ...weak, wideGap: 2 }).map((w) => w.text)).toEqual(['abcde']);
  });

  it('measures the page\'s word spaces from the gaps parted on the recognizer\'s own evidence, given enough of them', () => {
    const line = [ch('a', 2), ch('b', 4), ch(' ', 7), ch('c', 10), ch('d', 14), ch('e', 16)];
    const sp = new Float32Array(18); sp[12] = 0.3;
    // the gap at the read space and the one where the space class rose part words; the last one does not
    expect(partingGapWidths(line, { gaps: [[5, 9], [11, 13], [14.5, 15.5]], spaceProb: sp })).toEqual([4, 2]);
    expect(pageWordGap([0.5, 0.4, 0.45])).toBeNull();
    expect(pageWordGap([0.9, 0.5, 0.4, 0.45, 0.42, 0.6, 0.38, 0.41, 0.7])).toBe(0.41);
  });

  it('keeps a decimal point with its digits', () => {
    const number = [ch('4', 2), ch('.', 4), ch('1', 7), ch('0', 9)];
    expect(splitWords(number, 12, { gaps: [[5, 6.5]], spaceProb: spaceProb(5, 0.3) }).map((w) => w.text)).toEqual(['4.10']);
  });

  it('keeps a thousands or decimal comma with its digits, and parts a date\'s day and comma from its year', () => {
    const read = (text: string) => [...text].map((c, i) => ch(c, 2 + 2 * i + (i > text.indexOf(',') ? 1 : 0)));
    // the gap after the comma, where the recognizer hesitated over a space
    const after = (text: string) => ({ gaps: [[2 + 2 * text.indexOf(',') + 1, 2 + 2 * text.indexOf(',') + 2.5]] as [number, number][], spaceProb: spaceProb(2 + 2 * text.indexOf(',') + 1, 0.3) });
    expect(splitWords(read('1,045'), 16, after('1,045')).map((w) => w.text)).toEqual(['1,045']);
    expect(splitWords(read('4,10'), 16, after('4,10')).map((w) => w.text)).toEqual(['4,10']);
    expect(splitWords(read('16,1980'), 20, after('16,1980')).map((w) => w.text)).toEqual(['16,', '1980']);
  });
});

describe('unsure lines (under PaddleOCR\'s drop score)', () => {
  const line = (confidence: number, chars: number) => ({ confidence, chars });
  it('are dropped from a page that reads surely elsewhere: a scrawl or a tick among lines of print', () => {
    const page = [line(0.95, 40), line(0.92, 35), line(0.31, 3), line(0.97, 28), line(0.44, 2)];
    expect(withoutUnsureLines(page)).toEqual([line(0.95, 40), line(0.92, 35), line(0.97, 28)]);
  });
  it('are all kept on a faint page read unsurely throughout, which would otherwise come back empty', () => {
    const faint = [line(0.42, 30), line(0.38, 25), line(0.47, 31), line(0.61, 12)];
    expect(withoutUnsureLines(faint)).toEqual(faint);
  });
});
