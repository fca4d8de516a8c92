import type { Box } from '@quire/core';
import { xAttr, xChild, type XEl } from '@quire/format-ooxml';

/** A rectangle in EMU, in slide coordinates. */
export interface Rect { x: number; y: number; w: number; h: number }

/** Maps a child rectangle of a group into its parent's space (identity at the slide level). */
export type Transform = (r: Rect) => Rect;

export const identity: Transform = (r) => r;

const num = (v: string | undefined) => {
  const n = Number(v);
  return Number.isFinite(n) ? n : 0;
};

/** Reads `a:xfrm` / `p:xfrm` (off + ext) into a rectangle; undefined when absent. */
export function readXfrm(xfrm: XEl | undefined): Rect | undefined {
  const off = xChild(xfrm, 'off'), ext = xChild(xfrm, 'ext');
  if (!off || !ext) return undefined;
  return { x: num(xAttr(off, 'x')), y: num(xAttr(off, 'y')), w: num(xAttr(ext, 'cx')), h: num(xAttr(ext, 'cy')) };
}

/**
 * The transform a group applies to its children: child space (chOff, chExt) is scaled onto the
 * group's own box (off, ext), then mapped by the enclosing groups. Rotation is not applied (boxes
 * stay axis-aligned).
 */
export function groupTransform(xfrm: XEl | undefined, parent: Transform): Transform {
  const box = readXfrm(xfrm);
  const chOff = xChild(xfrm, 'chOff'), chExt = xChild(xfrm, 'chExt');
  if (!box || !chOff || !chExt) return parent;
  const cx = num(xAttr(chOff, 'x')), cy = num(xAttr(chOff, 'y'));
  const cw = num(xAttr(chExt, 'cx')), ch = num(xAttr(chExt, 'cy'));
  const sx = cw > 0 ? box.w / cw : 1, sy = ch > 0 ? box.h / ch : 1;
  return (r) => parent({ x: box.x + (r.x - cx) * sx, y: box.y + (r.y - cy) * sy, w: r.w * sx, h: r.h * sy });
}

const clamp01 = (n: number) => (n < 0 ? 0 : n > 1 ? 1 : n);
const round = (n: number) => Math.round(n * 1e5) / 1e5;

/** Normalizes an EMU rectangle to the slide size (0..1 from the top-left). */
export function toBox(r: Rect | undefined, slideW: number, slideH: number): Box | null {
  if (!r || slideW <= 0 || slideH <= 0) return null;
  return {
    x0: round(clamp01(r.x / slideW)), y0: round(clamp01(r.y / slideH)),
    x1: round(clamp01((r.x + r.w) / slideW)), y1: round(clamp01((r.y + r.h) / slideH)),
  };
}
