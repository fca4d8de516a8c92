// Relative glyph advances (Helvetica AFM, 1/1000 em) for printable ASCII. pdf.js text items carry one
// width for the whole run, not per glyph; splitting that width by these proportions puts word
// boundaries much closer to the truth than splitting by character count. Monospaced fonts use 1:1.
const ASCII_WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space … /
  556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0 … ?
  1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @ … O
  667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P … _
  333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // ` … o
  556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // p … ~
];

const isWide = (c: number) =>
  (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) || (c >= 0xac00 && c <= 0xd7a3) ||
  (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
  (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x20000 && c <= 0x3fffd);

export function charWidth(ch: string, monospace: boolean): number {
  if (monospace) return 600;
  const c = ch.codePointAt(0) ?? 32;
  if (c >= 32 && c <= 126) return ASCII_WIDTHS[c - 32];
  if (c >= 0x300 && c <= 0x36f) return 0; // combining marks take no advance
  if (isWide(c)) return 1000;
  const base = ch.normalize('NFD').codePointAt(0) ?? c; // é → e
  if (base >= 32 && base <= 126) return ASCII_WIDTHS[base - 32];
  return 556;
}

export const isMonospaceName = (name: string | undefined) => !!name && /courier|mono|consol|typewriter|\bcmtt/i.test(name);
