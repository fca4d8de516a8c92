import { type Matrix, type PDFPageProxy, applyMatrix, invertMatrix } from '@quire/format-pdf';

/**
 * Page frame: maps PDF user space to display points (origin top-left, y down, after /Rotate and the
 * crop/media box offset). Normalized = display / (width, height).
 */
export interface PageFrame {
  width: number;
  height: number;
  rotate: number;
  /** user space → display points. */
  toDisplay: Matrix;
  /** display points → user space. */
  toUser: Matrix;
}

/** The page's frame as displayed, or as it would be with another total rotation (the reading frame of sideways text). */
export function pageFrame(page: PDFPageProxy, rotation?: number): PageFrame {
  const vp = page.getViewport({ scale: 1, ...(rotation !== undefined ? { rotation } : {}) });
  const t = vp.transform as Matrix;
  return { width: vp.width, height: vp.height, rotate: rotation ?? page.rotate, toDisplay: t, toUser: invertMatrix(t) };
}

/** Maps a normalized box from one frame of a page to another (e.g. reading frame → display frame). */
export function remapBox(b: readonly number[], from: PageFrame, to: PageFrame): [number, number, number, number] {
  const u0 = applyMatrix(from.toUser, b[0] * from.width, b[1] * from.height), u1 = applyMatrix(from.toUser, b[2] * from.width, b[3] * from.height);
  return roundBox(userRectToNorm(to, [u0[0], u0[1], u1[0], u1[1]]));
}

export function remapPoint(p: readonly number[], from: PageFrame, to: PageFrame): [number, number] {
  const u = applyMatrix(from.toUser, p[0] * from.width, p[1] * from.height);
  const d = applyMatrix(to.toDisplay, u[0], u[1]);
  return [round5(clamp01(d[0] / to.width)), round5(clamp01(d[1] / to.height))];
}

/** A user-space rectangle [x0,y0,x1,y1] → normalized display box [l,t,r,b]. */
export function userRectToNorm(f: PageFrame, r: readonly number[]): [number, number, number, number] {
  const pts = [applyMatrix(f.toDisplay, r[0], r[1]), applyMatrix(f.toDisplay, r[2], r[3]), applyMatrix(f.toDisplay, r[0], r[3]), applyMatrix(f.toDisplay, r[2], r[1])];
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  return [clamp01(Math.min(...xs) / f.width), clamp01(Math.min(...ys) / f.height), clamp01(Math.max(...xs) / f.width), clamp01(Math.max(...ys) / f.height)];
}

export const clamp01 = (n: number) => (n < 0 ? 0 : n > 1 ? 1 : n);
export const round5 = (n: number) => Math.round(n * 1e5) / 1e5;
export const roundBox = (b: readonly number[]): [number, number, number, number] => [round5(b[0]), round5(b[1]), round5(b[2]), round5(b[3])];
