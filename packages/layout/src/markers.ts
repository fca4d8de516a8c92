/** Text patterns: list markers, heading numbering, captions, formulas, footnote symbols, page numbers. */

const BULLETS = '•▪◦‣⁃∙·●○■□➢►▶✓✔❖◆◇–—-*';
/**
 * Bullets of the Symbol and Wingdings fonts that come through as private-use code points when the
 * font has no Unicode mapping (Word's default bullets: U+F0B7 Symbol •, U+F0A7 Wingdings ▪, U+F0D8 ➢,
 * U+F076 ❖, U+F0FC ✓, U+F06C ●, U+F06E ■, U+F0E8 ➔, U+F0D7 ►), with the character each stands for.
 */
export const PRIVATE_USE_BULLETS: Readonly<Record<string, string>> = {
  '\uF0B7': '•', '\uF0A7': '▪', '\uF0D8': '➢', '\uF076': '❖', '\uF0FC': '✓', '\uF06C': '●', '\uF06E': '■', '\uF0E8': '➔', '\uF0D7': '►',
};
const PUA = Object.keys(PRIVATE_USE_BULLETS).join('');
const BULLET_WORD = new RegExp(`^[${BULLETS.replace('-', '\\-')}${PUA}]$`);
/** Bullet glyphs that can be glued to the first word ("•Item"); "-" and "*" never are (hyphens, footnote stars). */
const GLUED_BULLET = new RegExp(`^[•▪◦‣⁃∙●■➢►▶❖◆${PUA}]`);
/** Text that starts with a bullet glyph (a list item, whatever its style says). */
export const startsWithBullet = (text: string) => GLUED_BULLET.test(text);
const bulletChar = (c: string) => PRIVATE_USE_BULLETS[c] ?? c;
const ORDERED = /^(\(?(\d{1,3}|[a-z]|[A-Z]|[ivxlc]{1,6}|[IVXLC]{1,6})[.)]|\((\d{1,3}|[a-z]|[ivxlc]{1,6})\))$/;

export interface Marker {
  marker: string;
  ordered: boolean;
}

/** List marker as a whole word ("•", "-", "1.", "a)", "(iv)", "IV."). With `alone`, the word stands by itself before a tab-like gap. */
export function parseListMarker(word: string, alone: boolean): Marker | undefined {
  if (BULLET_WORD.test(word)) return { marker: bulletChar(word), ordered: false };
  if (ORDERED.test(word)) return { marker: word, ordered: true };
  if (!alone && word.length > 1 && GLUED_BULLET.test(word)) return { marker: bulletChar(word[0]), ordered: false };
  return undefined;
}

const CAPTION = /^(figure|fig\.?|table|tab\.|chart|exhibit|graph|diagram|plate|image)\s*[A-Z]?[\d]+(\.\d+)*[a-z]?\s*([.:\-–—]|$|\s)/i;
export const startsCaption = (text: string): boolean => CAPTION.test(text);
export const captionKind = (text: string): 'table' | 'figure' => (/^tab/i.test(text) ? 'table' : 'figure');

const NUMBERING = /^((\d{1,2})(\.\d{1,2}){0,5}\.?|[A-Z]\.(\d{1,2}\.?){0,4}|[IVX]{1,5}\.|(chapter|section|part|appendix)\s+[\dA-Z]+[.:]?)(\s|$)/i;

/** Depth from heading numbering: "2" / "2." → 1, "2.3" → 2, "2.3.1" → 3, "A." → 1, "A.1" → 2, "IV." → 1, "Chapter 3" → 1. */
export function numberingDepth(text: string): number | undefined {
  const m = NUMBERING.exec(text);
  if (!m) return undefined;
  const token = m[1].replace(/\.$/, '');
  if (/^(chapter|part|appendix)/i.test(token)) return 1;
  if (/^section/i.test(token)) return 2;
  if (/^[IVX]+$/.test(token)) return 1;
  return token.split('.').filter(Boolean).length;
}

const MATH_STRONG = /[∑∫∬∮∏√∂∇∞]/;
const MATH_CHARS = /[=<>≤≥≠≈≡±∓×÷∑∫∏√∂∇∞∈∉⊂⊃⊆⊇∪∩→←↔⇒⇔∀∃^′″‖∝∼]|[\u0391-\u03A9\u03B1-\u03C9]/g;
const RELATION = /[=<>≤≥≠≈≡∝→⇒⇔]/;

/**
 * A formula line is dominated by math: a strong operator (∑ ∫ √ …) or a relation, math characters and
 * single-letter symbols making up much of it, and few ordinary words (prose with "x = 5" stays text).
 */
export function isFormula(words: readonly { text: string; italic?: boolean }[]): boolean {
  if (words.length === 0) return false;
  const text = words.map((w) => w.text).join(' ');
  if (text.length > 300) return false;
  const strong = MATH_STRONG.test(text);
  if (!strong && !RELATION.test(text)) return false;
  let mathCount = 0, singles = 0, prose = 0;
  for (const w of words) {
    const m = w.text.match(MATH_CHARS);
    if (m) mathCount += m.length;
    const letters = w.text.replace(/[^\p{L}]/gu, '');
    if (letters.length <= 1 || (w.italic && letters.length <= 3)) singles++;
    else if (letters.length >= 3 && /^\p{L}+[.,;:]?$/u.test(w.text)) prose++;
  }
  if (prose / words.length >= 0.35) return false;
  return strong ? mathCount >= 1 : mathCount >= 1 && (mathCount + singles) / words.length >= 0.5;
}

const SYMBOL = /^([0-9]{1,3}|[*†‡§¶]{1,3}|[a-z])$/;
export const footnoteSymbol = (text: string): string | undefined => {
  const t = text.replace(/[.)\]:]$/, '').replace(/^[([]/, '');
  return /^([0-9]{1,3}|[*†‡§¶]{1,3})$/.test(t) ? t : undefined;
};
export const isRefSymbol = (text: string): boolean => SYMBOL.test(text) && !/^[a-z]$/.test(text);

const PAGE_NUMBER = /^(page|pg\.?|p\.|seite|página|pagina)?\s*[-–—(\[|]?\s*(\d{1,4}|[ivxlcdm]{1,7})\s*[-–—)\]|]?\s*((of|\/|von|de)\s*\d{1,4})?$/i;
/** Chapter-page numbering as in manuals ("7-45"). */
const CHAPTER_PAGE = /^[A-Z]?\d{1,3}[-–.]\d{1,4}$/;
export const isPageNumber = (text: string): boolean => text.length <= 24 && (PAGE_NUMBER.test(text.trim()) || CHAPTER_PAGE.test(text.trim()));
