import { rotateBoxQuarter, type Box, type OcrEngine, type QuarterTurn, type RawPage } from '@quire/core';
import { readPdf } from '@quire/format-pdf';
import type { PageGeometry } from './types.js';

/**
 * Geometry of image-only (scanned) pages from OCR: each page is rendered at 300 DPI and read by the
 * OCR engine, which also finds the ruling lines and checkbox squares in the raster. A page OCR read
 * sideways comes back turned upright (`turn`), so labels read left to right as on a text-layer page.
 */
export async function scannedGeometry(pdf: Uint8Array, pages: number[], ocr: OcrEngine): Promise<{ geometry: Map<number, PageGeometry>; warnings: string[] }> {
  const geometry = new Map<number, PageGeometry>();
  if (!pages.length) return { geometry, warnings: [] };
  const r = await readPdf(pdf, { ocr, pages });
  for (const p of r.pages) if (!p.error) geometry.set(p.number, uprightGeometry(p));
  return { geometry, warnings: r.warnings };
}

/** A RawPage as PageGeometry, turned by its OCR rotation so its text is upright. */
export function uprightGeometry(p: RawPage): PageGeometry {
  const q = quarter(p.correctedRotation);
  const r = (b: Box) => (q ? rotateBoxQuarter(b, q) : b);
  const sideways = q === 90 || q === 270;
  return {
    width: sideways ? p.height : p.width,
    height: sideways ? p.width : p.height,
    words: wordsBesideSquares(p.words, p.rects).filter(isLabelWord).map((w) => ({ ...w, box: r(w.box) })),
    segments: p.segments.map((s) => ({ ...r({ x0: Math.min(s.x0, s.x1), y0: Math.min(s.y0, s.y1), x1: Math.max(s.x0, s.x1), y1: Math.max(s.y0, s.y1) }), width: s.width })),
    rects: p.rects.map((x) => ({ ...x, box: r(x.box) })),
    marks: [],
    ...(q ? { turn: q } : {}),
  };
}

const quarter = (deg: number | undefined): QuarterTurn | 0 => {
  const d = (((deg ?? 0) % 360) + 360) % 360;
  return d === 90 || d === 180 || d === 270 ? d : 0;
};

/**
 * OCR reads a checkbox and the option printed right after it as one word ("[No", "|Yes"), with a low
 * confidence because of the box. Such a word is cut at the square's right edge: the part beside the
 * square, without the edge glyphs, is the option's label. Words wholly inside a square (a tick read
 * as "X") are left as they are.
 */
export function wordsBesideSquares(words: RawPage['words'], rects: RawPage['rects']): RawPage['words'] {
  const squares = rects.filter((r) => r.stroked).map((r) => r.box);
  return words.map((w) => {
    const s = squares.find((b) => w.box.x0 < b.x1 && w.box.x1 > b.x1 + 0.5 * (b.x1 - b.x0) &&
      Math.min(w.box.y1, b.y1) - Math.max(w.box.y0, b.y0) > 0.5 * (b.y1 - b.y0) && w.box.x0 >= b.x0 - 1.5 * (b.x1 - b.x0));
    if (!s) return w;
    // edge glyphs: brackets and bars, and a letter-like stroke (I, l, J, 1) or the whole square read as a
    // round letter (O, 0, D, C) before a capital ("JPhone", "ONo")
    const text = w.text.replace(/^[^\p{L}\p{N}]+/u, '').replace(/^[|IlJ1O0oDCc](?=\p{Lu})/u, '');
    if (!/^\p{L}{2,}/u.test(text)) return w;
    // the box cost the word its confidence; the part beside it is read as a word of its own
    return { ...w, text, box: { ...w.box, x0: s.x1 + 0.002 * (s.x1 - s.x0) }, confidence: Math.max(w.confidence, 0.6) };
  });
}

/**
 * OCR reads specks, box edges and shading on scans as short junk words ("~~", "NB", "EE") that would
 * end up in labels. Keep a word when OCR is sure of it, or when it is a real word (3+ letters) read
 * with at least some confidence.
 */
function isLabelWord(w: RawPage['words'][number]): boolean {
  if (w.confidence >= 0.6) return true;
  return w.confidence >= 0.3 && /\p{L}{3,}/u.test(w.text);
}
