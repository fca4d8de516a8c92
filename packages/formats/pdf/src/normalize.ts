// Text clean-up for text-layer words. Presentation forms become plain letters: Latin ligatures
// (ﬁ → fi), Arabic and Hebrew presentation forms and lam-alef ligatures. This runs on words that are
// already in logical order (text.ts orders right-to-left words glyph by glyph first), so a lam-alef
// ligature expands lam first. Soft hyphens and zero-width characters are dropped; everything else
// (accents, symbols, other scripts) stays as is.
const PRESENTATION_RE = /[\uFB00-\uFDFF\uFE70-\uFEFE]/g;
const INVISIBLE_RE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;

const ODD_RE = /[\u00AD\u200B-\u200D\u2060\uFEFF\uFB00-\uFDFF\uFE70-\uFEFE]/;

export function normalizeText(s: string): string {
  if (!ODD_RE.test(s)) return s;
  return s.replace(INVISIBLE_RE, '').replace(PRESENTATION_RE, (c) => c.normalize('NFKC'));
}

/** Characters that mean "no usable Unicode": replacement char, private use, C0/C1 controls. */
export function isGarbageChar(c: number): boolean {
  return c === 0xfffd || (c >= 0xe000 && c <= 0xf8ff) || c >= 0xf0000 || c < 0x20 || (c >= 0x7f && c < 0xa0);
}
