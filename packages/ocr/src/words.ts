import type { RawWord } from '@quire/core';
import type { TessLine, TessResult } from './ocr-worker.js';
import { boxToPage, type ImageTransform } from './transform.js';

// tesseract's row height (ascender top to descender bottom) is about 0.95 of the font's em size
// for Latin text (42 px Liberation Sans gives rowHeight 40).
const ROW_HEIGHT_PER_EM = 0.95;

export function linesOf(res: TessResult): TessLine[] {
  return (res.blocks ?? []).flatMap((b) => b.paragraphs.flatMap((p) => p.lines));
}

/**
 * tesseract words → RawWords on the page: boxes mapped back through the transform (so they line
 * up with the image the caller sent), font size from the line's row height in points.
 * `ptPerPx` is points per pixel of the OCR image (page points / source pixels / scale).
 */
export function toRawWords(res: TessResult, t: ImageTransform, ptPerPx: number): RawWord[] {
  const out: RawWord[] = [];
  for (const line of linesOf(res)) {
    const rowPx = line.rowAttributes?.rowHeight || line.bbox.y1 - line.bbox.y0;
    const fontSize = Math.round((rowPx / ROW_HEIGHT_PER_EM) * ptPerPx * 10) / 10;
    const words = line.words.filter((w) => w.text.trim() !== '');
    words.forEach((w, i) => {
      out.push({
        text: w.text.trim(),
        box: boxToPage(t, w.bbox),
        fontSize,
        confidence: Math.max(0, Math.min(1, w.confidence / 100)),
        endOfRun: i === words.length - 1,
      });
    });
  }
  return out;
}

/**
 * How readable a result is: letters and digits weighted by confidence above a floor. Upside-down
 * or sideways text comes back as few, low-confidence fragments, so the right orientation wins.
 */
export function readability(res: TessResult): { score: number; meanConfidence: number; letters: number } {
  let score = 0, letters = 0, confSum = 0;
  for (const line of linesOf(res)) {
    for (const w of line.words) {
      const n = (w.text.match(/[\p{L}\p{N}]/gu) ?? []).length;
      if (n === 0) continue;
      letters += n;
      confSum += n * w.confidence;
      score += n * Math.max(0, w.confidence - 30) / 70;
    }
  }
  return { score, meanConfidence: letters > 0 ? confSum / letters : 0, letters };
}
