/**
 * DB (Differentiable Binarization) post-processing for PP-OCR's text detector, written here (the
 * PaddleOCR reference uses OpenCV's findContours / minAreaRect and pyclipper, none of which we ship):
 * the detector's probability map → thresholded text kernels → connected components → one oriented
 * rectangle per component (principal axes of its pixels) → scored → grown by the "unclip" offset,
 * because DB is trained to predict a kernel shrunk inside the text by that same offset.
 */

/** A text line's box: centre, unit direction along the line, and the full extents along/across it. */
export interface OrientedBox {
  cx: number;
  cy: number;
  /** Unit vector along the text line (ux ≥ 0). */
  ux: number;
  uy: number;
  /** Length along the line and height across it. */
  length: number;
  height: number;
  /** Mean detector probability over the component's pixels. */
  score: number;
}

export interface DbOptions {
  /** Probability above which a pixel is text kernel (PaddleOCR's det_db_thresh). */
  threshold: number;
  /** Mean probability a component needs to be kept (det_db_box_thresh). */
  boxThreshold: number;
  /** Unclip ratio: offset = area × ratio / perimeter of the kernel box (det_db_unclip_ratio). */
  unclipRatio: number;
  /** Kernels whose shorter side is below this many map pixels are noise. */
  minSide: number;
}

export const DB_DEFAULTS: DbOptions = { threshold: 0.3, boxThreshold: 0.6, unclipRatio: 1.5, minSide: 3 };

/**
 * Oriented, unclipped boxes of the text kernels in a probability map (row-major, width × height), in
 * the map's pixel coordinates.
 */
export function dbBoxes(prob: Float32Array, width: number, height: number, opts: DbOptions = DB_DEFAULTS): OrientedBox[] {
  const n = width * height;
  const label = new Int32Array(n); // 0 = unvisited/background, >0 = component id
  const stack = new Int32Array(n);
  const out: OrientedBox[] = [];
  let next = 0;
  for (let start = 0; start < n; start++) {
    if (label[start] !== 0 || prob[start] <= opts.threshold) continue;
    next++;
    // 8-connected flood fill, gathering the moments the box needs in one pass
    let top = 0, count = 0, sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0, sp = 0;
    stack[top++] = start;
    label[start] = next;
    const pixels: number[] = [];
    while (top > 0) {
      const i = stack[--top];
      const x = i % width, y = (i - x) / width;
      pixels.push(i);
      count++; sx += x; sy += y; sxx += x * x; syy += y * y; sxy += x * y; sp += prob[i];
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= width || (dx === 0 && dy === 0)) continue;
          const j = yy * width + xx;
          if (label[j] === 0 && prob[j] > opts.threshold) { label[j] = next; stack[top++] = j; }
        }
      }
    }
    const score = sp / count;
    if (count < opts.minSide * opts.minSide || score < opts.boxThreshold) continue;
    const mx = sx / count, my = sy / count;
    const cxx = sxx / count - mx * mx, cyy = syy / count - my * my, cxy = sxy / count - mx * my;
    // principal axis of the pixels; a compact blob (a single glyph, a dot) keeps the page's axes
    const diff = cxx - cyy, root = Math.sqrt(diff * diff + 4 * cxy * cxy);
    const l1 = (cxx + cyy + root) / 2, l2 = (cxx + cyy - root) / 2;
    let theta = 0.5 * Math.atan2(2 * cxy, diff);
    if (l1 < 2.5 * Math.max(l2, 1e-6) || Math.abs(theta) > Math.PI / 4) theta = 0;
    let ux = Math.cos(theta), uy = Math.sin(theta);
    if (ux < 0) { ux = -ux; uy = -uy; }
    // extents along and across the axis (pixel centres ± half a pixel)
    let a0 = Infinity, a1 = -Infinity, b0 = Infinity, b1 = -Infinity;
    for (const i of pixels) {
      const x = i % width - mx, y = (i - (i % width)) / width - my;
      const a = x * ux + y * uy, b = -x * uy + y * ux;
      if (a < a0) a0 = a; if (a > a1) a1 = a;
      if (b < b0) b0 = b; if (b > b1) b1 = b;
    }
    const w = a1 - a0 + 1, h = b1 - b0 + 1;
    if (Math.min(w, h) < opts.minSide) continue;
    const d = (w * h * opts.unclipRatio) / (2 * (w + h));
    const ca = (a0 + a1) / 2, cb = (b0 + b1) / 2;
    out.push({
      cx: mx + ca * ux - cb * uy, cy: my + ca * uy + cb * ux, ux, uy,
      length: w + 2 * d, height: h + 2 * d, score,
    });
  }
  return out;
}

/** The four corners of a box: top-left, top-right, bottom-right, bottom-left (reading direction). */
export function corners(b: OrientedBox): [number, number][] {
  const hx = (b.ux * b.length) / 2, hy = (b.uy * b.length) / 2;
  const vx = (-b.uy * b.height) / 2, vy = (b.ux * b.height) / 2;
  return [
    [b.cx - hx - vx, b.cy - hy - vy], [b.cx + hx - vx, b.cy + hy - vy],
    [b.cx + hx + vx, b.cy + hy + vy], [b.cx - hx + vx, b.cy - hy + vy],
  ];
}

/** Axis-aligned bounds of a box's corners. */
export function bounds(b: OrientedBox): { x0: number; y0: number; x1: number; y1: number } {
  const c = corners(b);
  return {
    x0: Math.min(...c.map((p) => p[0])), y0: Math.min(...c.map((p) => p[1])),
    x1: Math.max(...c.map((p) => p[0])), y1: Math.max(...c.map((p) => p[1])),
  };
}

/**
 * Boxes in reading order: grouped into rows by vertical overlap of their centres, rows top to bottom,
 * boxes left to right within a row.
 */
export function readingOrder(boxes: OrientedBox[]): OrientedBox[] {
  const sorted = [...boxes].sort((a, b) => a.cy - b.cy);
  const rows: OrientedBox[][] = [];
  for (const b of sorted) {
    const row = rows[rows.length - 1];
    const ref = row?.[0];
    if (ref && Math.abs(b.cy - ref.cy) < 0.5 * Math.min(b.height, ref.height)) row.push(b);
    else rows.push([b]);
  }
  return rows.flatMap((r) => r.sort((a, b) => a.cx - b.cx));
}
