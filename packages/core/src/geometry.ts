/** An axis-aligned box normalized to 0..1 with the origin at the page's top-left. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The spec's 8-number polygon: top-left, top-right, bottom-right, bottom-left, normalized 0..1. */
export type Polygon = [number, number, number, number, number, number, number, number];

const round = (n: number) => Math.round(n * 1e5) / 1e5;
const clamp01 = (n: number) => (n < 0 ? 0 : n > 1 ? 1 : n);

export function boxToPolygon(b: Box): Polygon {
  const x0 = round(clamp01(b.x0)), y0 = round(clamp01(b.y0)), x1 = round(clamp01(b.x1)), y1 = round(clamp01(b.y1));
  return [x0, y0, x1, y0, x1, y1, x0, y1];
}

export function unionBox(boxes: readonly Box[]): Box | null {
  if (boxes.length === 0) return null;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const b of boxes) {
    if (b.x0 < x0) x0 = b.x0;
    if (b.y0 < y0) y0 = b.y0;
    if (b.x1 > x1) x1 = b.x1;
    if (b.y1 > y1) y1 = b.y1;
  }
  return { x0, y0, x1, y1 };
}

export const boxArea = (b: Box) => Math.max(0, b.x1 - b.x0) * Math.max(0, b.y1 - b.y0);

export function intersection(a: Box, b: Box): number {
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  return w > 0 && h > 0 ? w * h : 0;
}

export function iou(a: Box, b: Box): number {
  const i = intersection(a, b);
  const u = boxArea(a) + boxArea(b) - i;
  return u > 0 ? i / u : 0;
}

/** True when the centre of `inner` lies inside `outer`. */
export function centreInside(inner: Box, outer: Box): boolean {
  const cx = (inner.x0 + inner.x1) / 2, cy = (inner.y0 + inner.y1) / 2;
  return cx >= outer.x0 && cx <= outer.x1 && cy >= outer.y0 && cy <= outer.y1;
}

export type QuarterTurn = 0 | 90 | 180 | 270;

/** Turns a normalized box a quarter turn clockwise `deg` degrees (the page turns with it). */
export function rotateBoxQuarter(b: Box, deg: QuarterTurn): Box {
  switch (deg) {
    case 0: return { ...b };
    case 90: return { x0: 1 - b.y1, y0: b.x0, x1: 1 - b.y0, y1: b.x1 };
    case 180: return { x0: 1 - b.x1, y0: 1 - b.y1, x1: 1 - b.x0, y1: 1 - b.y0 };
    case 270: return { x0: b.y0, y0: 1 - b.x1, x1: b.y1, y1: 1 - b.x0 };
  }
}

export const inverseQuarterTurn = (deg: QuarterTurn): QuarterTurn => ((360 - deg) % 360) as QuarterTurn;

/**
 * A normalized page box as it lies once the page (`width` × `height` points) is turned `deg` degrees
 * clockwise about its centre, the page keeping its size: a scan's slight skew taken out (`deg` = the skew
 * correction) or put back (−`deg`). `tight`: the box is the axis-aligned bound of a rectangle that was
 * itself turned by −`deg` (a word's box as OCR maps it onto a skewed scan, taller and wider than the word),
 * so the word's own size is recovered rather than the bound grown again; otherwise the result is the bound
 * of the turned box (a block mapped back onto the skewed page).
 */
export function turnBoxSlightly(b: Box, deg: number, width: number, height: number, tight = false): Box {
  const a = (deg * Math.PI) / 180, cos = Math.cos(a), sin = Math.sin(a);
  const cx = ((b.x0 + b.x1) / 2 - 0.5) * width, cy = ((b.y0 + b.y1) / 2 - 0.5) * height;
  const x = cx * cos - cy * sin, y = cx * sin + cy * cos;
  const w0 = (b.x1 - b.x0) * width, h0 = (b.y1 - b.y0) * height;
  const c = Math.abs(cos), s = Math.abs(sin), det = c * c - s * s;
  let w: number, h: number;
  if (tight && det > 0.5) {
    // the bound of a w × h rectangle turned by the angle is (w·c + h·s) × (w·s + h·c): solved for w and h
    w = Math.max((w0 * c - h0 * s) / det, 0.2 * w0);
    h = Math.max((h0 * c - w0 * s) / det, 0.2 * h0);
  } else {
    w = w0 * c + h0 * s;
    h = w0 * s + h0 * c;
  }
  const nx = x / width + 0.5, ny = y / height + 0.5, hw = w / width / 2, hh = h / height / 2;
  return { x0: nx - hw, y0: ny - hh, x1: nx + hw, y1: ny + hh };
}
