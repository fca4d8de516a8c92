import { boxArea, centreInside, type Box, type OcrEngine, type RawImage, type RawPage, type RawWord } from '@quire/core';
import type { PDFPageProxy } from './pdfjs.js';
import { type PageRasterizer, renderPage } from './render.js';

/*
 * Text inside pictures on born-digital pages (a letterhead logo, a table pasted as a screenshot, a
 * scanned signature block) is in no text layer. Large raster images that the page's own text does not
 * cover are rendered from their region and OCR'd, and the words they hold join the page's words at
 * their place. The decision is made from the image placements the operator list already gave
 * (RawPage.images), so a page without images costs nothing more.
 */

export interface EmbeddedImageOcrBudget {
  /** Most pixels rendered for OCR of images on one page. */
  maxPixelsPerPage: number;
  /** Most pixels rendered for OCR of images in one document (shared by its pages, spent in page order). */
  maxPixelsPerDocument: number;
}

export const DEFAULT_EMBEDDED_IMAGE_BUDGET: EmbeddedImageOcrBudget = { maxPixelsPerPage: 12_000_000, maxPixelsPerDocument: 60_000_000 };

/** Per document: what is left of the budget, and what was done (for one summary warning). */
export class EmbeddedImageOcr {
  private left: number;
  read = 0;
  skippedForBudget = 0;
  constructor(readonly budget: EmbeddedImageOcrBudget) { this.left = budget.maxPixelsPerDocument; }

  get pixelsLeft() { return this.left; }
  take(pixels: number): void { this.left -= pixels; }

  summary(): string[] {
    const out: string[] = [];
    if (this.read) out.push(`Text was read by OCR from ${this.read} embedded image(s) on text-layer pages`);
    if (this.skippedForBudget) out.push(`${this.skippedForBudget} embedded image(s) were not OCR'd: over the pixel budget for image OCR`);
    return out;
  }
}

const OCR_DPI = 300;
/** Below this resolution small print in a picture is not worth reading. */
const MIN_DPI = 150;
/** Smallest image worth reading, in points: icons, bullets and rules are not. */
const MIN_WIDTH_PT = 48, MIN_HEIGHT_PT = 16, MIN_AREA_PT2 = 4000;
/** Share of the image that page text may cover before the image counts as covered (a background, a scan's invisible OCR layer). */
const COVERED_SHARE = 0.1;
const COVERED_WORDS = 10;

/** Images worth reading: raster, large enough, not under the page's own text. */
export function imagesToRead(raw: Pick<RawPage, 'width' | 'height' | 'images' | 'words'>): RawImage[] {
  const out: RawImage[] = [];
  for (const im of raw.images) {
    if (im.kind !== 'raster') continue;
    const wPt = (im.box.x1 - im.box.x0) * raw.width, hPt = (im.box.y1 - im.box.y0) * raw.height;
    if (wPt < MIN_WIDTH_PT || hPt < MIN_HEIGHT_PT || wPt * hPt < MIN_AREA_PT2) continue;
    if (covered(im.box, raw.words)) continue;
    // an image inside one already chosen is read with it
    if (out.some((o) => centreInside(im.box, o.box))) continue;
    out.push(im);
  }
  return out;
}

function covered(box: Box, words: readonly RawWord[]): boolean {
  let n = 0, area = 0;
  for (const w of words) {
    if (!centreInside(w.box, box)) continue;
    n++;
    area += boxArea(w.box);
  }
  return n >= COVERED_WORDS || area >= COVERED_SHARE * boxArea(box);
}

/**
 * Words an OCR of a picture can be trusted for: a photo or a drawing reads as a few low-confidence
 * scraps, text reads as words with letters or digits at good confidence.
 */
export function trustedWords(words: readonly RawWord[]): RawWord[] {
  const kept = words.filter((w) => w.confidence >= 0.6 && /[\p{L}\p{N}]/u.test(w.text));
  if (kept.length === 0) return [];
  const mean = kept.reduce((s, w) => s + w.confidence, 0) / kept.length;
  if (kept.length === 1 ? mean >= 0.9 && kept[0].text.length >= 2 : mean >= 0.75) return kept;
  return [];
}

/** Share of a picture that text covers from which it is a picture of text (a paragraph, a letterhead): word boxes of set text cover 15–45 % of their block. */
const TEXT_DENSITY = 0.1;
/** A ruled table's cells are roomier: with a grid of rules, less text suffices. */
const TABLE_TEXT_DENSITY = 0.03;

/**
 * Whether a picture is mostly text (a letterhead, a screenshot of a paragraph or of a ruled table)
 * rather than a picture with some labels in it (a chart, a map, a diagram, a photo with a caption).
 */
export function isPictureOfText(words: readonly RawWord[], segments: readonly { x0: number; y0: number; x1: number; y1: number }[]): boolean {
  const density = words.reduce((s, w) => s + boxArea(w.box), 0);
  if (density >= TEXT_DENSITY) return true;
  const horizontal = segments.filter((s) => Math.abs(s.y1 - s.y0) < Math.abs(s.x1 - s.x0)).length;
  const vertical = segments.length - horizontal;
  return density >= TABLE_TEXT_DENSITY && horizontal >= 3 && vertical >= 3;
}

/** Maps a normalized box of the region `r` (0..1 within it) to the page's normalized coordinates. */
const toPage = (b: Box, r: Box): Box => ({
  x0: r.x0 + b.x0 * (r.x1 - r.x0), y0: r.y0 + b.y0 * (r.y1 - r.y0),
  x1: r.x0 + b.x1 * (r.x1 - r.x0), y1: r.y0 + b.y1 * (r.y1 - r.y0),
});

export interface EmbeddedOcrContext {
  ocr: OcrEngine;
  state: EmbeddedImageOcr;
  maxPixels: number;
  rasterizer?: PageRasterizer;
}

/**
 * OCR of the page's large uncovered images. An image whose reading is trusted becomes text: its words
 * (and the rulings OCR found in it: a table pasted as a picture keeps its grid) join the page, and the
 * image leaves the page's images (it was text, not a figure). Other images stay as they were.
 */
export async function readEmbeddedImages(page: PDFPageProxy, raw: RawPage, ctx: EmbeddedOcrContext): Promise<RawPage> {
  const targets = imagesToRead(raw);
  if (targets.length === 0) return raw;
  let pageLeft = ctx.state.budget.maxPixelsPerPage;
  const read = new Set<RawImage>();
  const words: RawWord[] = [], segments: RawPage['segments'] = [], rects: RawPage['rects'] = [];
  for (const im of targets) {
    const wPt = (im.box.x1 - im.box.x0) * raw.width, hPt = (im.box.y1 - im.box.y0) * raw.height;
    const pixelsAt = (dpi: number) => Math.ceil((wPt * dpi) / 72) * Math.ceil((hPt * dpi) / 72);
    const allowed = Math.min(pageLeft, ctx.state.pixelsLeft, ctx.maxPixels);
    let dpi = Math.min(OCR_DPI, Math.floor(72 * Math.sqrt(allowed / Math.max(1, wPt * hPt))));
    while (dpi >= MIN_DPI && pixelsAt(dpi) > allowed) dpi--; // rounding up to whole pixels
    if (dpi < MIN_DPI) { ctx.state.skippedForBudget++; continue; }
    ctx.state.take(pixelsAt(dpi));
    pageLeft -= pixelsAt(dpi);
    const { png } = await renderPage(page, { dpi, grey: true, box: im.box, maxPixels: ctx.maxPixels }, undefined, ctx.rasterizer);
    const got = await ctx.ocr.recognize(png, { number: raw.number, widthPt: wPt, heightPt: hPt });
    // a turned reading would need the page turned with it; a picture's text is read upright or not at all
    if (got.correctedRotation) continue;
    const kept = trustedWords(got.words ?? []);
    if (kept.length === 0) continue;
    ctx.state.read++;
    const inPage = kept.map((w) => ({ ...w, box: toPage(w.box, im.box) }));
    if (!isPictureOfText(kept, got.segments ?? [])) {
      // labels of a chart, a map or a diagram: the picture stays a figure and the words become its
      // text (layout gives a figure the words inside it), not running text of the page
      words.push(...inPage);
      continue;
    }
    read.add(im);
    words.push(...inPage);
    const scale = Math.max(wPt, hPt) / Math.max(raw.width, raw.height);
    for (const s of got.segments ?? []) {
      const b = toPage({ x0: s.x0, y0: s.y0, x1: s.x1, y1: s.y1 }, im.box);
      segments.push({ ...b, width: s.width * scale });
    }
    for (const r of got.rects ?? []) rects.push({ ...r, box: toPage(r.box, im.box) });
  }
  if (words.length === 0) return raw;
  return {
    ...raw,
    words: [...raw.words, ...words],
    segments: [...raw.segments, ...segments],
    rects: [...raw.rects, ...rects],
    images: raw.images.filter((im) => !read.has(im) && !(im.kind === 'raster' && [...read].some((r) => centreInside(im.box, r.box)))),
  };
}
