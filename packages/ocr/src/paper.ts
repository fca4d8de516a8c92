import type { Box } from '@quire/core';
import { otsuThreshold, type GreyImage } from './analysis.js';

/**
 * The sheet of paper in a photo taken on a darker surface (a receipt on a desk), found on a downscaled
 * grey image: pixels brighter than Otsu's threshold, the largest 4-connected region of them, its
 * bounding box. On an ordinary scan the paper between the letters is one region that spans the whole
 * image, so nothing is cropped; on a photo the surface around the sheet is dark and its edge would
 * otherwise be read as text lines (turning the page's orientation) and as junk words.
 */
export interface PaperRegion {
  /** The paper's bounding box (with a small margin), normalized 0..1 on the image. */
  box: Box;
  /**
   * Per pixel of the analysed image: 1 where it is surface around the sheet (dark and connected to
   * the image border without crossing the paper), to be painted white before OCR.
   */
  surface: Uint8Array;
  width: number;
  height: number;
}

/** The sheet must be at least this share of the image: smaller bright spots are not a document. */
const MIN_PAPER_SHARE = 0.08;
/** Cropping pays only when it takes away at least this share of the image. */
const MIN_CROPPED_SHARE = 0.08;
/** Outside the sheet's box at most this share of the pixels may be bright (else the "surface" is more paper). */
const MAX_BRIGHT_OUTSIDE = 0.25;
/** The surface must be this much darker than the paper (grey levels, medians), as a desk is under a receipt. */
const MIN_CONTRAST = 60;
/** Margin kept around the sheet, as a share of the image's longer side. */
const MARGIN = 0.01;

export function findPaper(img: GreyImage): PaperRegion | null {
  const { width: W, height: H, data } = img;
  if (W < 16 || H < 16) return null;
  const t = otsuThreshold(img);
  const label = new Int32Array(W * H).fill(-1);
  const queue = new Int32Array(W * H);
  let best = { id: -1, size: 0, x0: 0, y0: 0, x1: 0, y1: 0 };
  let next = 0;
  for (let start = 0; start < W * H; start++) {
    if (data[start] <= t || label[start] !== -1) continue;
    const id = next++;
    let head = 0, tail = 0, x0 = W, y0 = H, x1 = 0, y1 = 0;
    label[start] = id;
    queue[tail++] = start;
    while (head < tail) {
      const p = queue[head++];
      const x = p % W, y = (p - x) / W;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
      const visit = (q: number) => {
        if (data[q] > t && label[q] === -1) { label[q] = id; queue[tail++] = q; }
      };
      if (x > 0) visit(p - 1);
      if (x < W - 1) visit(p + 1);
      if (y > 0) visit(p - W);
      if (y < H - 1) visit(p + W);
    }
    if (tail > best.size) best = { id, size: tail, x0, y0, x1, y1 };
  }
  if (best.size < MIN_PAPER_SHARE * W * H) return null;
  const m = Math.round(MARGIN * Math.max(W, H));
  const bx0 = Math.max(0, best.x0 - m), by0 = Math.max(0, best.y0 - m);
  const bx1 = Math.min(W, best.x1 + 1 + m), by1 = Math.min(H, best.y1 + 1 + m);
  const boxArea = (bx1 - bx0) * (by1 - by0);
  if (boxArea > (1 - MIN_CROPPED_SHARE) * W * H) return null;

  // What lies outside the box must be a darker surface, not more of a page (a form with a wide frame).
  const outside: number[] = [], paper: number[] = [];
  let brightOutside = 0, nOutside = 0;
  const stride = Math.max(1, Math.floor(Math.sqrt((W * H) / 40_000)));
  for (let y = 0; y < H; y += stride) {
    for (let x = 0; x < W; x += stride) {
      const p = y * W + x;
      if (x >= bx0 && x < bx1 && y >= by0 && y < by1) {
        if (label[p] === best.id) paper.push(data[p]);
        continue;
      }
      nOutside++;
      outside.push(data[p]);
      if (data[p] > t) brightOutside++;
    }
  }
  if (nOutside === 0 || brightOutside > MAX_BRIGHT_OUTSIDE * nOutside) return null;
  if (median(paper) - median(outside) < MIN_CONTRAST) return null;

  return { box: { x0: bx0 / W, y0: by0 / H, x1: bx1 / W, y1: by1 / H }, surface: surroundings(label, best.id, W, H), width: W, height: H };
}

/**
 * Pixels that are not the sheet and reach the image border without crossing it (flood fill from the
 * border), grown by one pixel so the sheet's blurred edge goes too. Ink on the sheet is enclosed by
 * paper and stays.
 */
function surroundings(label: Int32Array, paperId: number, W: number, H: number): Uint8Array {
  const out = new Uint8Array(W * H);
  const queue = new Int32Array(W * H);
  let tail = 0;
  const seed = (p: number) => {
    if (label[p] !== paperId && !out[p]) { out[p] = 1; queue[tail++] = p; }
  };
  for (let x = 0; x < W; x++) { seed(x); seed((H - 1) * W + x); }
  for (let y = 0; y < H; y++) { seed(y * W); seed(y * W + W - 1); }
  for (let head = 0; head < tail; head++) {
    const p = queue[head];
    const x = p % W;
    if (x > 0) seed(p - 1);
    if (x < W - 1) seed(p + 1);
    if (p >= W) seed(p - W);
    if (p < (H - 1) * W) seed(p + W);
  }
  const grown = out.slice();
  for (let p = 0; p < W * H; p++) {
    if (!out[p]) continue;
    const x = p % W;
    if (x > 0) grown[p - 1] = 1;
    if (x < W - 1) grown[p + 1] = 1;
    if (p >= W) grown[p - W] = 1;
    if (p < (H - 1) * W) grown[p + W] = 1;
  }
  return grown;
}

/** The paper cut out of the full-resolution image, its surroundings painted white; `crop` in source pixels. */
export function cropToPaper(grey: GreyImage, paper: PaperRegion): { image: GreyImage; crop: PixelCrop } {
  const x0 = Math.floor(paper.box.x0 * grey.width), y0 = Math.floor(paper.box.y0 * grey.height);
  const x1 = Math.ceil(paper.box.x1 * grey.width), y1 = Math.ceil(paper.box.y1 * grey.height);
  const w = x1 - x0, h = y1 - y0;
  const data = new Uint8Array(w * h);
  const sx = paper.width / grey.width, sy = paper.height / grey.height;
  for (let y = 0; y < h; y++) {
    const my = Math.min(paper.height - 1, Math.floor((y + y0) * sy)) * paper.width;
    const src = (y + y0) * grey.width + x0;
    for (let x = 0; x < w; x++) {
      const mx = Math.min(paper.width - 1, Math.floor((x + x0) * sx));
      data[y * w + x] = paper.surface[my + mx] ? 255 : grey.data[src + x];
    }
  }
  return { image: { data, width: w, height: h }, crop: { x: x0, y: y0, width: w, height: h, srcWidth: grey.width, srcHeight: grey.height } };
}

/** A rectangle of the source image, in its pixels. */
export interface PixelCrop { x: number; y: number; width: number; height: number; srcWidth: number; srcHeight: number }

/** A box normalized on the crop → normalized on the whole source image. */
export function uncropBox(c: PixelCrop, b: Box): Box {
  return {
    x0: (c.x + b.x0 * c.width) / c.srcWidth, y0: (c.y + b.y0 * c.height) / c.srcHeight,
    x1: (c.x + b.x1 * c.width) / c.srcWidth, y1: (c.y + b.y1 * c.height) / c.srcHeight,
  };
}

const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[xs.length >> 1] : 0);
