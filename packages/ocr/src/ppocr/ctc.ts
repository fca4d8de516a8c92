/**
 * CTC greedy decoding of PP-OCR's recognizer output, with where each character was read: the
 * recognizer emits one distribution over [blank, …dictionary, space] per column of the line crop
 * (a column every `stride` pixels of the 48 px high input), and a character is a run of equal best
 * classes that is not the blank. Its position along the line is the centre of its run, which is
 * what splits a line's box into word boxes.
 */

export interface DecodedChar {
  char: string;
  /** Mean best-class probability over the character's run of columns, 0..1. */
  prob: number;
  /** First and last column of the run (inclusive). */
  from: number;
  to: number;
}

/** PP-OCR's character list: blank first, then the dictionary file's lines, then the space. */
export function ctcCharset(dictionary: string): string[] {
  const lines = dictionary.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return ['', ...lines, ' '];
}

/**
 * The classes the page's languages can spell: without Chinese among them, the Han, kana, hangul and
 * bopomofo characters of the dictionary are left out; null when every class is allowed. On English receipts
 * and forms the Chinese+English recognizer reads a smudge, a stamp or a line of Chinese as ideographs
 * (extra words a reader of the English text does not want); its runner-up there is mostly another wrong
 * character, so such a column reads as nothing.
 */
export function allowedClasses(charset: string[], chinese: boolean): Uint8Array | null {
  if (chinese) return null;
  const eastAsian = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/u;
  return Uint8Array.from(charset, (c) => (eastAsian.test(c) ? 0 : 1));
}

/**
 * Greedy decode of one sequence: `probs` holds `steps` rows of `classes` probabilities from `offset`;
 * with `allowed`, a column whose best class is not allowed is a blank.
 */
export function ctcGreedy(probs: Float32Array, offset: number, steps: number, classes: number, charset: string[], allowed: Uint8Array | null = null): DecodedChar[] {
  const out: DecodedChar[] = [];
  let prev = 0;
  for (let t = 0; t < steps; t++) {
    const row = offset + t * classes;
    let best = 0, bestP = probs[row];
    for (let c = 1; c < classes; c++) if (probs[row + c] > bestP) { bestP = probs[row + c]; best = c; }
    if (allowed && !allowed[best]) best = 0;
    if (best !== 0 && best === prev) {
      const last = out[out.length - 1];
      last.prob = (last.prob * (last.to - last.from + 1) + bestP) / (last.to - last.from + 2);
      last.to = t;
    } else if (best !== 0) {
      out.push({ char: charset[best] ?? '', prob: bestP, from: t, to: t });
    }
    prev = best;
  }
  return out;
}

export interface DecodedWord {
  text: string;
  /** Mean of the characters' probabilities, 0..1. */
  confidence: number;
  /** Extent along the line, in columns (fractional): from before the first character to after the last. */
  start: number;
  end: number;
}

/** Where the line's ink leaves gaps and how sure the recognizer was of a space in each column, for splitWords. */
export interface LineGaps {
  /** Column ranges without ink between the line's first and last ink, at least ~0.2 letter heights wide. */
  gaps: [number, number][];
  /** The recognizer's probability of the space class in each column. */
  spaceProb: Float32Array;
  /**
   * Gaps at least this wide (columns) are word spaces by their width: the narrow end of the gaps the page's
   * other lines part words at (pageWordGap). Such a gap parts two words where the space class rose at all
   * (WIDE_GAP_EVIDENCE), though not as far as SPACE_EVIDENCE.
   */
  wideGap?: number;
}

/**
 * An ink gap the recognizer did not read as a space parts two words when, somewhere inside it, the space
 * class still had this probability. Measured on tight proportional print (missed spaces: 0.06–0.55) and on
 * monospaced receipt print, whose letters leave ~0.35 em around an "i" or "l" (0.000–0.031 there): the gap's
 * width alone cannot tell these apart, the recognizer's hesitation can.
 */
const SPACE_EVIDENCE = 0.04;
/**
 * Between two characters with no ink gap wide enough to measure (tight receipt print, where a space is as
 * narrow as an "I"'s side bearings), the recognizer's space probability alone parts two words from this:
 * within words it stays at 0.00–0.04 there, at a missed word space it rose to 0.06–0.45 (dev receipts).
 */
const SPACE_WITHOUT_GAP = 0.1;

/**
 * A gap as wide as the page's word spaces parts words where the space class rose this far: the recognizer
 * reads clean proportional print with word spaces half a letter height wide and still gives the space
 * 0.02–0.04 there, while between the letters of a word it stays under 0.005.
 */
const WIDE_GAP_EVIDENCE = 0.01;

/** The space class's probability in each of a sequence's columns. */
export function spaceProbabilities(probs: Float32Array, offset: number, steps: number, classes: number): Float32Array {
  const out = new Float32Array(steps);
  for (let t = 0; t < steps; t++) out[t] = probs[offset + t * classes + classes - 1];
  return out;
}

/**
 * A line's characters → words, split at the spaces the recognizer read and at the blank gaps of the line's
 * image where it hesitated over a space (the Chinese+English recognizer often drops the space between
 * tightly set English words, while the gap between them stays in the picture), and between two characters
 * with no measurable gap where it hesitated more (SPACE_WITHOUT_GAP). A word's extent runs from
 * half a character pitch before its first character's centre to half a pitch after its last one (the pitch
 * is the line's median distance between neighbouring character centres), clamped to the line.
 */
export function splitWords(chars: DecodedChar[], columns: number, ink: LineGaps = { gaps: [], spaceProb: new Float32Array(0) }): DecodedWord[] {
  const centres = chars.map((c) => (c.from + c.to + 1) / 2);
  const steps: number[] = [];
  for (let i = 1; i < chars.length; i++) if (chars[i].char !== ' ' && chars[i - 1].char !== ' ') steps.push(centres[i] - centres[i - 1]);
  steps.sort((a, b) => a - b);
  const pitch = steps.length ? steps[steps.length >> 1] : 3;
  // a character's column (where CTC fired) can sit off its glyph's centre: a gap's middle must fall between
  const gapBetween = (a: number, b: number) => ink.gaps.find(([g0, g1]) => (g0 + g1) / 2 > a && (g0 + g1) / 2 < b);
  const spaceIn = ([g0, g1]: [number, number]) => {
    let p = 0;
    for (let t = Math.max(0, Math.floor(g0)); t < Math.min(ink.spaceProb.length, Math.ceil(g1)); t++) p = Math.max(p, ink.spaceProb[t]);
    return p;
  };
  const wordGap = (g: [number, number]) => spaceIn(g) >= (ink.wideGap !== undefined && g[1] - g[0] >= ink.wideGap ? WIDE_GAP_EVIDENCE : SPACE_EVIDENCE);
  // the columns strictly between two characters' runs
  const spaceBetween = (a: DecodedChar, b: DecodedChar) => spaceIn([a.to + 1, b.from]);
  const words: DecodedWord[] = [];
  let cur: number[] = [];
  const flush = () => {
    if (!cur.length) return;
    const text = settleHomoglyphs(cur.map((i) => chars[i].char).join(''));
    const confidence = cur.reduce((s, i) => s + chars[i].prob, 0) / cur.length;
    const start = Math.max(0, centres[cur[0]] - pitch / 2), end = Math.min(columns, centres[cur[cur.length - 1]] + pitch / 2);
    words.push({ text, confidence, start, end });
    cur = [];
  };
  chars.forEach((c, i) => {
    if (c.char === ' ' || c.char === '') { flush(); return; }
    const prev = cur.length ? chars[cur[cur.length - 1]] : null;
    const g = prev ? gapBetween(centres[cur[cur.length - 1]], centres[i]) : undefined;
    const parted = prev && (g ? wordGap(g) : spaceBetween(prev, c) >= SPACE_WITHOUT_GAP);
    if (parted && !withinNumber(prev.char, c.char, digitsFrom(chars, i))) flush();
    cur.push(i);
  });
  flush();
  return words;
}

/**
 * The widths (columns) of a line's ink gaps that part words on their own evidence: a space the recognizer
 * read inside the gap, or its hesitation over one there (SPACE_EVIDENCE). pageWordGap pools them over a page.
 */
export function partingGapWidths(chars: DecodedChar[], ink: LineGaps): number[] {
  const spaces = chars.filter((c) => c.char === ' ').map((c) => (c.from + c.to + 1) / 2);
  return ink.gaps.filter(([g0, g1]) => {
    if (spaces.some((x) => x >= g0 - 1 && x <= g1 + 1)) return true;
    let p = 0;
    for (let t = Math.max(0, Math.floor(g0)); t < Math.min(ink.spaceProb.length, Math.ceil(g1)); t++) p = Math.max(p, ink.spaceProb[t]);
    return p >= SPACE_EVIDENCE;
  }).map(([g0, g1]) => g1 - g0);
}

/** A page needs this many word gaps of its own before their widths say how wide its word spaces are. */
const MIN_PAGE_WORD_GAPS = 8;

/**
 * How wide the page's word spaces are at least, in letter heights: the lower quartile of the gaps its lines
 * part words at on their own evidence (each width over its line's letter height); null on a page with too
 * few of them. In proportional print a word space is 0.3–0.5 letter heights and the gaps inside a word stay
 * under 0.15; in monospaced print a space is a whole advance (~0.8), far wider than the air around an "i".
 */
export function pageWordGap(ratios: number[]): number | null {
  if (ratios.length < MIN_PAGE_WORD_GAPS) return null;
  const sorted = [...ratios].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 4)];
}

/**
 * Letters and digits the recognizer confuses by shape, set right by the rest of their run of letters and
 * digits: a run that is otherwise letters reads its zeros as O ("N0" → "NO", "AE0N" → "AEON"), and a run
 * that is as much digits as O, o, I and l reads those as 0 and 1 ("2O18" → "2018", "4l00" → "4100"). A run
 * mixing other digits with letters is a code ("SA0264195", "M026588") and stays as read, as does a 1 among
 * letters, which stands for an I as often as for an L. An l that starts a word before a consonant or a
 * capital is an I.
 */
export function settleHomoglyphs(text: string): string {
  return text.replace(/[\p{L}\p{N}]+/gu, (run) => {
    const letters = run.match(/\p{L}/gu)?.length ?? 0, digits = run.length - letters;
    if (digits > 0 && letters >= digits && /^[\p{L}0]+$/u.test(run) && /[^\dOoIl]/u.test(run)) {
      // the case of the letters beside it (the nearest one before, else after)
      return run.replace(/0/g, (_, i: number) => {
        const near = run.slice(0, i).match(/\p{L}(?=0*$)/u)?.[0] ?? run.slice(i).match(/\p{L}/u)?.[0] ?? 'O';
        return near === near.toLowerCase() ? 'o' : 'O';
      });
    }
    if (letters > 0 && digits >= letters && /^[\dOoIl]+$/u.test(run)) return run.replace(/[Oo]/g, '0').replace(/[Il]/g, '1');
    // a 1 (or 11) between two lower-case letters, in a run of letters and 1s only, is an l: typewriter and slab
    // faces draw the l with a foot and a flag, as their 1 ("too1ing", "f1avor"); a capital I would stand
    // among capitals, and a code mixing other digits with letters stays as read
    if (digits > 0 && letters >= 3 && /^[\p{L}1]+$/u.test(run)) return run.replace(/(?<=\p{Ll})1{1,2}(?=\p{Ll})/gu, (ones) => 'l'.repeat(ones.length));
    // no English word starts with an l before a consonant ("lnclusive", "ltem") or before capitals ("lNVOICE"):
    // that l is a capital I (but "lb", "lbs", the pound)
    if (digits === 0) return run.replace(/^l(?=[cdfghjkmnpqrstvwxz]|\p{Lu})/u, 'I');
    return run;
  });
}

/**
 * A decimal point or thousands comma and its digits stand apart in print (a narrow "1" after "." leaves a
 * gap as wide as a tight word space): the recognizer's reading of both sides keeps "4.10" one word. A comma
 * after digits followed by four or more digits separates no group of one number (a group has three digits,
 * a decimal comma's cents two): it is the comma of "16, 1980", between a date's day and its year, and the
 * gap there is the word space.
 */
function withinNumber(before: string, after: string, digitsAfter: number): boolean {
  if (before === ',' && digitsAfter > 3) return false;
  return (/[.,]/.test(before) && /\d/.test(after)) || (/\d/.test(before) && /[.,]/.test(after));
}

/** How many digits run from character `i` on (up to the next non-digit or space). */
function digitsFrom(chars: DecodedChar[], i: number): number {
  let n = 0;
  while (i + n < chars.length && /\d/.test(chars[i + n].char)) n++;
  return n;
}
