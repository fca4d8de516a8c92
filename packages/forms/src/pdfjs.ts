import { createRequire } from 'node:module';
import path from 'node:path';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { QuireError } from '@quire/core';
import { loadPdfjs } from '@quire/format-pdf';

// Through format-pdf's loader, never a direct import: pdf.js's legacy build replaces JSON.parse,
// JSON.stringify and Array#push process-wide with slow core-js versions, and the loader puts the
// native ones back (a direct import here slowed every request of the gateway that imports this package).
const pdfjs = await loadPdfjs();

export type PdfJsDoc = PDFDocumentProxy;
export type PdfJsPage = PDFPageProxy;
/** Affine matrix [a b c d e f]. */
export type Matrix = [number, number, number, number, number, number];

const require = createRequire(import.meta.url);
/** pdfjs-dist's own resource folders (read-only library assets, not user data). */
export const PDFJS_DIR = path.dirname(require.resolve('pdfjs-dist/package.json'));

const PDFJS_OPTS = {
  standardFontDataUrl: path.join(PDFJS_DIR, 'standard_fonts') + '/',
  cMapUrl: path.join(PDFJS_DIR, 'cmaps') + '/',
  cMapPacked: true,
  wasmUrl: path.join(PDFJS_DIR, 'wasm') + '/',
  iccUrl: path.join(PDFJS_DIR, 'iccs') + '/',
  isEvalSupported: false,
  verbosity: 0,
};

export const OPS = pdfjs.OPS;
export const AnnotationMode = pdfjs.AnnotationMode;

/** Opens a PDF with pdf.js (a copy of the bytes: pdf.js detaches the buffer it is given). */
export async function openPdfJs(bytes: Uint8Array): Promise<PdfJsDoc> {
  try {
    return await pdfjs.getDocument({ data: new Uint8Array(bytes), ...PDFJS_OPTS }).promise;
  } catch (e) {
    const msg = (e as Error).message ?? String(e);
    if (/password/i.test(msg)) throw new QuireError('FILE_003', 'The PDF is password-protected', { reason: msg });
    throw new QuireError('FILE_003', 'The PDF could not be read', { reason: msg });
  }
}

export const mul = (m: readonly number[], n: readonly number[]): Matrix => [
  m[0] * n[0] + m[2] * n[1], m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3], m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4], m[1] * n[4] + m[3] * n[5] + m[5],
];
export const apply = (m: readonly number[], x: number, y: number): [number, number] => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
export function invert(m: readonly number[]): Matrix {
  const det = m[0] * m[3] - m[1] * m[2];
  if (Math.abs(det) < 1e-12) return [1, 0, 0, 1, 0, 0];
  return [m[3] / det, -m[1] / det, -m[2] / det, m[0] / det, (m[2] * m[5] - m[3] * m[4]) / det, (m[1] * m[4] - m[0] * m[5]) / det];
}

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
export function pageFrame(page: PdfJsPage, rotation?: number): PageFrame {
  const vp = page.getViewport({ scale: 1, ...(rotation !== undefined ? { rotation } : {}) });
  const t = vp.transform as Matrix;
  return { width: vp.width, height: vp.height, rotate: rotation ?? page.rotate, toDisplay: t, toUser: invert(t) };
}

/** Maps a normalized box from one frame of a page to another (e.g. reading frame → display frame). */
export function remapBox(b: readonly number[], from: PageFrame, to: PageFrame): [number, number, number, number] {
  const u0 = apply(from.toUser, b[0] * from.width, b[1] * from.height), u1 = apply(from.toUser, b[2] * from.width, b[3] * from.height);
  return roundBox(userRectToNorm(to, [u0[0], u0[1], u1[0], u1[1]]));
}

export function remapPoint(p: readonly number[], from: PageFrame, to: PageFrame): [number, number] {
  const u = apply(from.toUser, p[0] * from.width, p[1] * from.height);
  const d = apply(to.toDisplay, u[0], u[1]);
  return [round5(clamp01(d[0] / to.width)), round5(clamp01(d[1] / to.height))];
}

/** A user-space rectangle [x0,y0,x1,y1] → normalized display box [l,t,r,b]. */
export function userRectToNorm(f: PageFrame, r: readonly number[]): [number, number, number, number] {
  const pts = [apply(f.toDisplay, r[0], r[1]), apply(f.toDisplay, r[2], r[3]), apply(f.toDisplay, r[0], r[3]), apply(f.toDisplay, r[2], r[1])];
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  return [clamp01(Math.min(...xs) / f.width), clamp01(Math.min(...ys) / f.height), clamp01(Math.max(...xs) / f.width), clamp01(Math.max(...ys) / f.height)];
}

export const clamp01 = (n: number) => (n < 0 ? 0 : n > 1 ? 1 : n);
export const round5 = (n: number) => Math.round(n * 1e5) / 1e5;
export const roundBox = (b: readonly number[]): [number, number, number, number] => [round5(b[0]), round5(b[1]), round5(b[2]), round5(b[3])];
