import type { Box } from '@quire/core';

/** A PDF affine matrix [a b c d e f]: x' = a·x + c·y + e, y' = b·x + d·y + f. */
export type Matrix = [number, number, number, number, number, number];

export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** m × n: apply n first, then m (PDF's "cm" concatenation order is mul(ctm, cm)). */
export function multiply(m: readonly number[], n: readonly number[]): Matrix {
  return [
    m[0] * n[0] + m[2] * n[1], m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3], m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4], m[1] * n[4] + m[3] * n[5] + m[5],
  ];
}

export function applyMatrix(m: readonly number[], x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

/** The inverse of m (identity for a singular matrix, which maps everything onto a line). */
export function invertMatrix(m: readonly number[]): Matrix {
  const det = m[0] * m[3] - m[1] * m[2];
  if (Math.abs(det) < 1e-12) return [...IDENTITY];
  return [m[3] / det, -m[1] / det, -m[2] / det, m[0] / det, (m[2] * m[5] - m[3] * m[4]) / det, (m[1] * m[4] - m[0] * m[5]) / det];
}

/** Geometric mean scale of a matrix (how a line width scales). */
export const matrixScale = (m: readonly number[]) => Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));

const clamp01 = (n: number) => (n < 0 ? 0 : n > 1 ? 1 : n);
const r6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** Bounding box of display-point corners, normalized to 0..1 by the page size and clamped. */
export function normalizedBox(pts: readonly [number, number][], w: number, h: number): Box {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of pts) {
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return { x0: r6(clamp01(x0 / w)), y0: r6(clamp01(y0 / h)), x1: r6(clamp01(x1 / w)), y1: r6(clamp01(y1 / h)) };
}
