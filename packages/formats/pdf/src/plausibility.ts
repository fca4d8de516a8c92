import type { RawWord } from '@quire/core';

/**
 * Does a text layer read as a language, or as letters substituted by a wrong character mapping?
 *
 * A font whose codes are mapped to the wrong characters (an Identity-H font without /ToUnicode whose
 * glyph ids are read as code points, a simple font with a private encoding and no usable glyph names,
 * a ToUnicode CMap that maps to the wrong range) draws the right glyphs but yields Latin letters that
 * spell nothing: "Vláda schválila" comes out as "9O¡GD VFKY¡OLOD". Nothing in the characters themselves
 * is invalid (the unmapped-glyph test in quality.ts passes), so this looks at how the letters are
 * distributed, per font, the way a reader would notice at a glance:
 *  - vowels: in every Latin-script language roughly 30–50 % of the letters of words of four letters or
 *    more are vowels (a e i o u y and their accented forms; shorter words are often abbreviations); a
 *    substitution moves that share far away, or leaves many long words with no vowel at all;
 *  - case: capitals after small letters inside a word ("kHoOr") are rare in any language;
 * Only a suspicion: the page is then read by OCR and the text layer is replaced only when the two
 * readings share almost no words (page.ts), so a page of code, part numbers or an unlisted language
 * costs one OCR pass and keeps its text layer.
 */
export interface GarbleEvidence {
  /** Fonts (by name) whose text reads as substituted letters. */
  fonts: string[];
  /** Share of the page's Latin letters drawn in those fonts. */
  letterShare: number;
  reasons: string[];
}

const LATIN = /^\p{Script=Latin}+$/u;
const VOWEL_BASES = new Set('aeiouy');

/** The letter without its accents, lower-cased ("Ů" → "u"). */
const baseLetter = (ch: string) => ch.normalize('NFD')[0].toLowerCase();

interface FontStats {
  /** Letters and vowels of the words of four letters or more (shorter ones are often abbreviations: SD, Nr, PSČ). */
  letters: number; vowels: number;
  tokens: number; longTokens: number; vowelless: number; innerCase: number;
}

/** Statistics over a font's distinct words (a table repeating one abbreviation is one word). */
function statsOf(tokens: readonly string[]): FontStats {
  const s: FontStats = { letters: 0, vowels: 0, tokens: 0, longTokens: 0, vowelless: 0, innerCase: 0 };
  for (const t of new Set(tokens)) {
    if (t.length < 2 || !LATIN.test(t)) continue;
    s.tokens++;
    if (/\p{Ll}\p{Lu}/u.test(t)) s.innerCase++;
    const letters = [...t];
    // short capitals are usually abbreviations (HTML, NCLB, PSČ), vowels or not
    if (letters.length < (t === t.toUpperCase() ? 5 : 4)) continue;
    let vowels = 0;
    for (const ch of letters) if (VOWEL_BASES.has(baseLetter(ch))) vowels++;
    s.letters += letters.length;
    s.vowels += vowels;
    s.longTokens++;
    if (vowels === 0) s.vowelless++;
  }
  return s;
}

/** Below these counts a share says nothing. */
const MIN_LETTERS = 12, MIN_LONG_WORDS = 12;

/**
 * The bands a font's text must stay in to read as a language. A font whose mapping pdf.js had to guess
 * (a composite font without ToUnicode: each code taken for a character) is held to narrower bands, since
 * the guess is wrong more often than not.
 */
const BANDS = {
  mapped: { vowels: [0.2, 0.72], innerCase: 0.25, vowelless: 0.25 },
  guessed: { vowels: [0.3, 0.62], innerCase: 0.1, vowelless: 0.12 },
} as const;

/** Why a font's text reads as substituted letters, or undefined when it reads as a language. */
function substitutionSign(s: FontStats, guessed: boolean): string | undefined {
  const band = guessed ? BANDS.guessed : BANDS.mapped;
  if (s.letters >= MIN_LETTERS && s.longTokens >= 2) {
    const vowelShare = s.vowels / s.letters;
    if (vowelShare < band.vowels[0] || vowelShare > band.vowels[1]) return `vowels make ${Math.round(100 * vowelShare)}% of the letters`;
  }
  if (s.innerCase >= 3 && s.innerCase / s.tokens > band.innerCase) return `${s.innerCase} of ${s.tokens} words have capitals after small letters`;
  if (s.longTokens >= MIN_LONG_WORDS && s.vowelless / s.longTokens > band.vowelless) return `${s.vowelless} of ${s.longTokens} long words have no vowel`;
  return undefined;
}

/** Letter runs of a word ("don't" → don, t). */
const letterRuns = (text: string) => text.match(/\p{L}+/gu) ?? [];

/**
 * The fonts of a page whose Latin text reads as substituted letters, and the share of the page's
 * Latin letters they carry; undefined when no font does. `guessedFonts`: names of fonts whose character
 * mapping was guessed (see BANDS).
 */
export function garbledFonts(words: readonly RawWord[], guessedFonts: ReadonlySet<string> = new Set()): GarbleEvidence | undefined {
  const byFont = new Map<string, string[]>();
  for (const w of words) {
    const key = w.fontName ?? '';
    let list = byFont.get(key);
    if (!list) byFont.set(key, (list = []));
    list.push(...letterRuns(w.text));
  }
  let all = 0, bad = 0;
  const fonts: string[] = [];
  const reasons: string[] = [];
  for (const [font, tokens] of byFont) {
    const s = statsOf(tokens);
    all += s.letters;
    const why = substitutionSign(s, guessedFonts.has(font));
    if (why) { fonts.push(font); reasons.push(why); bad += s.letters; }
  }
  return fonts.length ? { fonts, letterShare: all ? bad / all : 0, reasons } : undefined;
}

/**
 * Share of a text layer's words (letter runs of two letters or more, lower-cased) that an OCR reading of the
 * same page also has: near 1 for a right text layer (less where OCR misreads accents), near 0 for one
 * whose letters are substituted.
 */
export function sharedWordShare(textLayer: readonly RawWord[], ocr: readonly RawWord[]): number {
  const seen = new Set<string>();
  for (const w of ocr) for (const t of letterRuns(w.text)) if (t.length >= 2) seen.add(t.toLowerCase());
  let n = 0, shared = 0;
  for (const w of textLayer) {
    for (const t of letterRuns(w.text)) {
      if (t.length < 2) continue;
      n++;
      if (seen.has(t.toLowerCase())) shared++;
    }
  }
  return n ? shared / n : 1;
}
