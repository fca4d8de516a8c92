// Text clean-up for text-layer words. Ligature glyphs become their letters (pdf.js's own
// normalization misses fonts whose ToUnicode maps to the ligature code points), soft hyphens and
// zero-width characters are dropped; everything else (RTL scripts, accents, symbols) stays as is.
const LIGATURES: Record<string, string> = {
  '\uFB00': 'ff', '\uFB01': 'fi', '\uFB02': 'fl', '\uFB03': 'ffi', '\uFB04': 'ffl', '\uFB05': 'st', '\uFB06': 'st',
};
const LIGATURE_RE = /[\uFB00-\uFB06]/g;
const INVISIBLE_RE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/g;

export function normalizeText(s: string): string {
  return s.replace(LIGATURE_RE, (m) => LIGATURES[m] ?? m).replace(INVISIBLE_RE, '');
}

/** Characters that mean "no usable Unicode": replacement char, private use, C0/C1 controls. */
export function isGarbageChar(c: number): boolean {
  return c === 0xfffd || (c >= 0xe000 && c <= 0xf8ff) || (c >= 0xf0000) || c < 0x20 || (c >= 0x7f && c < 0xa0);
}
