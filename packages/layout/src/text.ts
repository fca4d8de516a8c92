import type { RawWord } from '@quire/core';

/** Presentation forms and invisible characters that PDF text layers leak into extracted text. */
const REPLACE: Record<string, string> = {
  '\uFB00': 'ff', '\uFB01': 'fi', '\uFB02': 'fl', '\uFB03': 'ffi', '\uFB04': 'ffl', '\uFB05': 'st', '\uFB06': 'st',
  '\u2010': '-', '\u2011': '-', '\u00A0': ' ', '\u2002': ' ', '\u2003': ' ', '\u2009': ' ',
};
const ODD = /[\uFB00-\uFB06\u2010\u2011\u00A0\u2002\u2003\u2009\u00AD\u200B-\u200D\u2060\uFEFF\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFD]/;
const ODD_G = new RegExp(ODD.source, 'g');

/** Ligatures expanded, non-breaking spaces made plain, invisible characters dropped; a trailing soft hyphen becomes "-" (a line-end hyphenation). */
export function normalizeText(s: string): string {
  if (!ODD.test(s)) return s;
  const softEnd = s.endsWith('\u00AD');
  const out = s.replace(ODD_G, (ch) => REPLACE[ch] ?? '');
  return softEnd ? out + '-' : out;
}

const HYPHEN_END = /\p{L}-$/u;
const LOWER_START = /^\p{Ll}/u;

/**
 * Joins line texts of one paragraph. A line ending in "letter-" continues into the next line: with a
 * lowercase start the hyphen was a line-break hyphenation ("docu-" + "ment" → "document"); otherwise it is
 * a real compound ("Jean-" + "Paul", "COVID-" + "19") and the hyphen stays, with no space.
 */
export function joinLines(lines: readonly string[]): string {
  let out = '';
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) continue;
    if (!out) out = line;
    else if (HYPHEN_END.test(out)) out = LOWER_START.test(line) ? out.slice(0, -1) + line : out + line;
    else out += ' ' + line;
  }
  return out;
}

const LETTER = /\p{L}/u;
/** A right-to-left word next to a left-to-right word with letters: bidi text often places the space between them elsewhere. */
const scriptChange = (a: RawWord, b: RawWord) =>
  (a.direction === 'rtl') !== (b.direction === 'rtl') && LETTER.test(a.direction === 'rtl' ? b.text : a.text);

/**
 * Joins the words of one line in reading order; words closer than a small fraction of the font size are
 * glued (split runs, superscripts stay spaced), unless the script changes direction between them.
 * `rtl`: the words run right to left (the gap to the next word is on the left).
 */
export function joinWords(words: readonly RawWord[], pageWidth: number, rtl = false): string {
  let out = '';
  let prev: RawWord | undefined;
  for (const w of words) {
    if (prev) {
      const gapPt = (rtl ? prev.box.x0 - w.box.x1 : w.box.x0 - prev.box.x1) * pageWidth;
      const glue = gapPt < 0.08 * Math.max(w.fontSize, prev.fontSize) && w.fontSize >= prev.fontSize * 0.85 &&
        w.fontSize <= prev.fontSize * 1.15 && !scriptChange(prev, w);
      out += glue ? '' : ' ';
    }
    out += w.text;
    prev = w;
  }
  return out;
}

/** Size with the most characters (ties to the larger), the way body text size is defined. */
export function dominantSize(words: readonly RawWord[]): number {
  if (words.length === 1) return words[0].fontSize;
  const hist = new Map<number, number>();
  for (const w of words) {
    const k = Math.round(w.fontSize * 2) / 2;
    hist.set(k, (hist.get(k) ?? 0) + w.text.length);
  }
  let best = 0, bestN = -1;
  for (const [k, n] of hist) if (n > bestN || (n === bestN && k > best)) { best = k; bestN = n; }
  return best;
}
