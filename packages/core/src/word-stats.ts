import type { RawWord } from './raw-page.js';

/** Mean OCR/text-layer confidence of some words; 1 for none. */
export const meanConfidence = (words: readonly RawWord[]): number => {
  if (words.length === 0) return 1;
  let s = 0;
  for (const w of words) s += w.confidence;
  return s / words.length;
};

/** True when at least 80% of the characters carry the flag. */
export function mostly(words: readonly RawWord[], flag: 'bold' | 'italic'): boolean {
  let yes = 0, all = 0;
  for (const w of words) {
    all += w.text.length;
    if (w[flag]) yes += w.text.length;
  }
  return all > 0 && yes >= 0.8 * all;
}
