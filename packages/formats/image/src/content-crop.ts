import sharp from 'sharp';
import type { Box, RawPage } from '@quire/core';

/**
 * A photographed receipt or a small document on a large background: the text covers a small part
 * of the frame. OCR's contrast normalisation stretches the 1st–99th percentile of the whole image,
 * and when ink is under 1 % of the pixels that stretch turns paper grain and JPEG noise into black
 * speckle (a receipt in the middle of a white 1080×1527 photo read as nothing but "®" and "«").
 * Cropping to the inked region first keeps ink a real share of the pixels and gives OCR less to read.
 */

/** Long side of the analysis copy. */
const ANALYSIS_SIDE = 800;
/** A pixel darker than this (after a 3×3 median that removes isolated speckle) is ink. */
const INK_LEVEL = 128;
/** Crop only when the inked region is at most this share of the frame: otherwise it is a page. */
const MAX_AREA = 0.5;

/**
 * The region of the (upright) image that holds the ink, normalized, with a margin; undefined when
 * the ink fills most of the frame (a page scan), when there is none, or when it cannot be measured.
 */
export async function contentBox(image: Uint8Array, maxPixels: number): Promise<Box | undefined> {
  let data: Buffer, faint: Buffer, W: number, H: number;
  try {
    const grey = () => sharp(image, { limitInputPixels: maxPixels }).rotate().flatten({ background: '#ffffff' }).toColourspace('b-w')
      .resize({ width: ANALYSIS_SIDE, height: ANALYSIS_SIDE, fit: 'inside', withoutEnlargement: true });
    const r = await grey().median(3).raw().toBuffer({ resolveWithObject: true });
    if (r.info.channels !== 1) return undefined;
    data = r.data; W = r.info.width; H = r.info.height;
    faint = (await grey().raw().toBuffer({ resolveWithObject: true })).data;
  } catch {
    return undefined; // the OCR's own decode reports a broken image
  }
  const rows = new Uint32Array(H), cols = new Uint32Array(W);
  for (let y = 0; y < H; y++) {
    const row = y * W;
    for (let x = 0; x < W; x++) if (data[row + x] < INK_LEVEL) { rows[y]++; cols[x]++; }
  }
  // a row (column) counts as inked when a few pixels of it are: stray dust stays below that
  const ry = span(rows, Math.max(2, W * 0.004)), rx = span(cols, Math.max(2, H * 0.004));
  if (!ry || !rx) return undefined;
  // The dense ink gives where the text is, not where it ends: thin strokes (a title in a light italic, the
  // ends of short lines) are grey at this size and the median takes them out. The box grows until its
  // edges run through blank paper, so the crop never cuts a word.
  const grown = growToBlank(faint, W, H, { x0: rx[0], y0: ry[0], x1: rx[1], y1: ry[1] });
  const margin = 0.02 * Math.max(W, H);
  const x0 = Math.max(0, grown.x0 - margin), x1 = Math.min(W, grown.x1 + margin);
  const y0 = Math.max(0, grown.y0 - margin), y1 = Math.min(H, grown.y1 + margin);
  if ((x1 - x0) * (y1 - y0) > MAX_AREA * W * H) return undefined;
  return { x0: x0 / W, y0: y0 / H, x1: x1 / W, y1: y1 / H };
}

/** Grey levels below the paper's that still count as (faint, thin) ink when the crop's edges are checked. */
const FAINT_INK_DEPTH = 60;
/** Blank paper the crop's edges must find outside the text (wider than the space above a heading), as a share of the image's longer side. */
const BLANK_GAP = 0.05;

/**
 * Grows a pixel box (end exclusive) side by side while the strip just outside a side holds faint ink
 * (a pixel `FAINT_INK_DEPTH` darker than the paper, two in a row or column at least, so lone dust does not
 * count): each side moves to the farthest ink in its strip, until every side has a strip of blank paper.
 */
export function growToBlank(grey: Uint8Array, W: number, H: number, box: { x0: number; y0: number; x1: number; y1: number }): { x0: number; y0: number; x1: number; y1: number } {
  const hist = new Uint32Array(256);
  for (let i = 0; i < grey.length; i++) hist[grey[i]]++;
  // the paper: the level of the brightest 60 % of the pixels' lower edge (most of a page is paper)
  let seen = 0, paper = 255;
  for (let v = 0; v < 256; v++) { seen += hist[v]; if (seen >= 0.4 * grey.length) { paper = v; break; } }
  const ink = paper - FAINT_INK_DEPTH;
  if (ink <= 0) return box;
  const gap = Math.max(3, Math.round(BLANK_GAP * Math.max(W, H)));
  let { x0, y0, x1, y1 } = box;
  const colInk = (x: number) => { let n = 0; for (let y = y0; y < y1; y++) if (grey[y * W + x] < ink && ++n >= 2) return true; return false; };
  const rowInk = (y: number) => { let n = 0; for (let x = x0; x < x1; x++) if (grey[y * W + x] < ink && ++n >= 2) return true; return false; };
  for (let changed = true; changed;) {
    changed = false;
    for (let x = Math.max(0, x0 - gap); x < x0; x++) if (colInk(x)) { x0 = x; changed = true; break; }
    for (let x = Math.min(W, x1 + gap) - 1; x >= x1; x--) if (colInk(x)) { x1 = x + 1; changed = true; break; }
    for (let y = Math.max(0, y0 - gap); y < y0; y++) if (rowInk(y)) { y0 = y; changed = true; break; }
    for (let y = Math.min(H, y1 + gap) - 1; y >= y1; y--) if (rowInk(y)) { y1 = y + 1; changed = true; break; }
  }
  return { x0, y0, x1, y1 };
}

function span(counts: Uint32Array, min: number): [number, number] | undefined {
  let a = -1, b = -1;
  for (let i = 0; i < counts.length; i++) if (counts[i] >= min) { if (a < 0) a = i; b = i; }
  return a < 0 ? undefined : [a, b + 1];
}

/** The upright pixels of `box` as PNG, and the box snapped to whole pixels. */
export async function cropTo(image: Uint8Array, box: Box, maxPixels: number): Promise<{ png: Uint8Array; box: Box; width: number; height: number }> {
  const meta = await sharp(image, { limitInputPixels: maxPixels }).metadata();
  const W = meta.autoOrient?.width ?? meta.width!, H = meta.autoOrient?.height ?? meta.height!;
  const left = Math.floor(box.x0 * W), top = Math.floor(box.y0 * H);
  const width = Math.max(1, Math.min(W - left, Math.ceil(box.x1 * W) - left)), height = Math.max(1, Math.min(H - top, Math.ceil(box.y1 * H) - top));
  const png = await sharp(image, { limitInputPixels: maxPixels }).rotate().extract({ left, top, width, height }).png({ compressionLevel: 1 }).toBuffer();
  return { png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), box: { x0: left / W, y0: top / H, x1: (left + width) / W, y1: (top + height) / H }, width, height };
}

/** A page read from the crop `box`, put back on the whole page (`widthPt` × `heightPt`). */
export function uncropPage(page: RawPage, box: Box, widthPt: number, heightPt: number): RawPage {
  const sx = box.x1 - box.x0, sy = box.y1 - box.y0;
  const b = (r: Box): Box => ({ x0: box.x0 + r.x0 * sx, y0: box.y0 + r.y0 * sy, x1: box.x0 + r.x1 * sx, y1: box.y0 + r.y1 * sy });
  return {
    ...page,
    width: widthPt, height: heightPt,
    words: page.words.map((w) => ({ ...w, box: b(w.box) })),
    segments: page.segments.map((s) => ({ ...b(s), width: s.width })),
    rects: page.rects.map((r) => ({ ...r, box: b(r.box) })),
    images: page.images.map((r) => ({ ...r, box: b(r.box) })),
    widgets: page.widgets.map((r) => ({ ...r, box: b(r.box) })),
  };
}
