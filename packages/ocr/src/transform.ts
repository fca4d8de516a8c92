import type { Box } from '@quire/core';

/**
 * How the image tesseract read was made from the page image: scaled by `scale`, then rotated by
 * `angle` degrees clockwise about its centre onto a canvas of `outWidth`×`outHeight` (sharp's
 * rotate enlarges the canvas to fit). `toPage` undoes it, giving normalized page coordinates.
 */
export interface ImageTransform {
  srcWidth: number;
  srcHeight: number;
  /** Size after scaling, before rotating. */
  scaledWidth: number;
  scaledHeight: number;
  angle: number;
  outWidth: number;
  outHeight: number;
}

/** Maps a point of the OCR image back to the page, normalized 0..1 from the top-left. */
export function toPage(t: ImageTransform, x: number, y: number): [number, number] {
  const a = (-t.angle * Math.PI) / 180;
  const dx = x - t.outWidth / 2, dy = y - t.outHeight / 2;
  const sx = dx * Math.cos(a) - dy * Math.sin(a) + t.scaledWidth / 2;
  const sy = dx * Math.sin(a) + dy * Math.cos(a) + t.scaledHeight / 2;
  return [sx / t.scaledWidth, sy / t.scaledHeight];
}

const clamp01 = (n: number) => (n < 0 ? 0 : n > 1 ? 1 : n);

/** The axis-aligned page box covering an OCR-image box (all four corners mapped back). */
export function boxToPage(t: ImageTransform, b: { x0: number; y0: number; x1: number; y1: number }): Box {
  const corners = [toPage(t, b.x0, b.y0), toPage(t, b.x1, b.y0), toPage(t, b.x1, b.y1), toPage(t, b.x0, b.y1)];
  const xs = corners.map((c) => c[0]), ys = corners.map((c) => c[1]);
  return {
    x0: clamp01(Math.min(...xs)), y0: clamp01(Math.min(...ys)),
    x1: clamp01(Math.max(...xs)), y1: clamp01(Math.max(...ys)),
  };
}

/** Normalizes an angle in degrees to (-180, 180]. */
export function normalizeAngle(deg: number): number {
  let a = deg % 360;
  if (a <= -180) a += 360;
  if (a > 180) a -= 360;
  return a;
}

/** Splits a clockwise correction angle into its quarter turn (0/90/180/270) and the residual skew. */
export function splitRotation(angle: number): { quarter: 0 | 90 | 180 | 270; skew: number } {
  const a = normalizeAngle(angle);
  const k = Math.round(a / 90) * 90;
  const quarter = (((k % 360) + 360) % 360) as 0 | 90 | 180 | 270;
  return { quarter, skew: a - k };
}

/**
 * Rotates a normalized page box by a quarter turn clockwise (`deg` ∈ 0/90/180/270): the box as it
 * lies on the page once the page itself is turned. Layout can use it with `correctedRotation` to
 * work on an upright frame and map its results back with the inverse turn (360 - deg).
 */
// The geometry lives in core (layout's callers need it too); re-exported for existing importers.
export { rotateBoxQuarter } from '@quire/core';
