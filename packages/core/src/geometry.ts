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
