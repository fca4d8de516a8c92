import type { PDFPage } from 'pdf-lib';
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

/** The same user→display transform pdf.js's viewport uses (scale 1), computed from pdf-lib's page. */
export function pdfLibPageFrame(page: PDFPage, rotation?: number): PageFrame {
  const crop = page.getCropBox(), media = page.getMediaBox();
  const x0 = Math.max(crop.x, media.x), y0 = Math.max(crop.y, media.y);
  const x1 = Math.min(crop.x + crop.width, media.x + media.width), y1 = Math.min(crop.y + crop.height, media.y + media.height);
  const [vx0, vy0, vx1, vy1] = x1 > x0 && y1 > y0 ? [x0, y0, x1, y1] : [media.x, media.y, media.x + media.width, media.y + media.height];
  const rotate = (((rotation ?? page.getRotation().angle) % 360) + 360) % 360;
  const cx = (vx0 + vx1) / 2, cy = (vy0 + vy1) / 2;
  const [A, B, C, D] = rotate === 90 ? [0, 1, 1, 0] : rotate === 180 ? [-1, 0, 0, 1] : rotate === 270 ? [0, -1, -1, 0] : [1, 0, 0, -1];
  const swap = A === 0;
  const width = swap ? vy1 - vy0 : vx1 - vx0, height = swap ? vx1 - vx0 : vy1 - vy0;
  const offX = swap ? Math.abs(cy - vy0) : Math.abs(cx - vx0), offY = swap ? Math.abs(cx - vx0) : Math.abs(cy - vy0);
  const t: Matrix = [A, B, C, D, offX - A * cx - C * cy, offY - B * cx - D * cy];
  return { width, height, rotate, toDisplay: t, toUser: invertMatrix(t) };
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
