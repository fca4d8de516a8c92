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
  let data: Buffer, W: number, H: number;
  try {
    const r = await sharp(image, { limitInputPixels: maxPixels }).rotate().flatten({ background: '#ffffff' }).toColourspace('b-w')
      .resize({ width: ANALYSIS_SIDE, height: ANALYSIS_SIDE, fit: 'inside', withoutEnlargement: true })
      .median(3).raw().toBuffer({ resolveWithObject: true });
    if (r.info.channels !== 1) return undefined;
    data = r.data; W = r.info.width; H = r.info.height;
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
  const margin = 0.02 * Math.max(W, H);
  const x0 = Math.max(0, rx[0] - margin), x1 = Math.min(W, rx[1] + margin);
  const y0 = Math.max(0, ry[0] - margin), y1 = Math.min(H, ry[1] + margin);
  if ((x1 - x0) * (y1 - y0) > MAX_AREA * W * H) return undefined;
  return { x0: x0 / W, y0: y0 / H, x1: x1 / W, y1: y1 / H };
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
