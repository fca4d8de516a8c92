import type { RawImage, RawWord } from '@quire/core';
import { isGarbageChar } from './normalize.js';

export type TextLayerVerdict = { usable: true; blank?: boolean } | { usable: false; reason: 'no-text' | 'garbage' | 'scan-with-stray-text' };

/**
 * Decides per page whether the text layer can be trusted or the page must be OCR'd:
 * - no text and nothing drawn that could hold text (no raster image, no vector drawing) → a blank page,
 *   or one holding only form fields and rulings: nothing to OCR ("blank", usable);
 * - no text otherwise → OCR ("no-text");
 * - more than 40% of the non-space characters are U+FFFD, private-use or control characters → the
 *   fonts have no usable Unicode mapping (subset fonts without ToUnicode, broken encodings) → OCR;
 * - fewer than 3 words on a page that is mostly one raster image (a scan carrying only a stamped page
 *   number or Bates id) → OCR, so the scan's body is read.
 * Anything else is used as is: a readable invisible OCR layer from a scanner is kept (it is usually
 * better than re-OCR at our resolution), and a mostly-clean layer with a few odd glyphs is kept.
 */
export function judgeTextLayer(words: readonly RawWord[], images: readonly RawImage[]): TextLayerVerdict {
  let total = 0, bad = 0;
  for (const w of words) {
    for (const ch of w.text) {
      const c = ch.codePointAt(0)!;
      if (c === 0x20) continue;
      total++;
      if (isGarbageChar(c)) bad++;
    }
  }
  if (total === 0) return images.length === 0 ? { usable: true, blank: true } : { usable: false, reason: 'no-text' };
  if (bad / total > 0.4) return { usable: false, reason: 'garbage' };
  if (words.length < 3 && rasterCoverage(images) >= 0.5) return { usable: false, reason: 'scan-with-stray-text' };
  return { usable: true };
}

/** Share of the page covered by raster images (sum of areas, capped at 1: strips of one scan add up). */
export function rasterCoverage(images: readonly RawImage[]): number {
  let area = 0;
  for (const im of images) if (im.kind === 'raster') area += Math.max(0, im.box.x1 - im.box.x0) * Math.max(0, im.box.y1 - im.box.y0);
  return Math.min(1, area);
}
