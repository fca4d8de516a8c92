import type { RawPath, RawRect, RawSegment } from '@quire/core';
import { type Matrix, applyMatrix } from './matrix.js';

/** pdf.js ≥ 5 packs a path into one Float32Array of draw codes (DrawOPS). */
const MOVE = 0, LINE = 1, CURVE = 2, QUAD = 3, CLOSE = 4;

export type Pt = [number, number];
/**
 * One edge of a subpath, display points. `box`: bounding box of a curve with its control points;
 * `closing`: the edge back to the start that a close (h) added, rather than a line-to of the path.
 */
export interface Edge { a: Pt; b: Pt; curved: boolean; box?: [number, number, number, number]; closing?: true }
export interface Subpath { start: Pt; edges: Edge[]; closed: boolean }

/** A non-rectilinear part of a painted path (curve, diagonal), in display points; input of the drawing clustering. */
export interface Piece {
  x0: number; y0: number; x1: number; y1: number; count: number;
  /**
   * A stroked-only closed outline (a frame or rounded box drawn around a figure or a text box): it
   * groups what lies inside it, but being near another outline does not make them one drawing.
   */
  outline?: boolean;
}

export interface PathSink {
  segments: RawSegment[];
  rects: RawRect[];
  /** Painted subpaths that are not rectangles, with their paint (chart marks: polylines, sectors, markers). */
  paths: RawPath[];
  pieces: Piece[];
  /** Rectilinear things drawn (for counting paths inside a drawing), display-point centres. */
  straightCentres: Pt[];
}

export interface PaintStyle {
  stroked: boolean;
  filled: boolean;
  /** Stroke width in display points. */
  lineWidth: number;
  fill?: [number, number, number];
  stroke?: [number, number, number];
  /** Current clipping box in display points: drawing pieces are cut to it (what is clipped away is not drawn). */
  clip?: [number, number, number, number];
}

export interface PageFrame { width: number; height: number }

const AXIS_TOL = 0.5; // display points: an edge within this of horizontal/vertical is a ruling
const THIN_RULE = 1.5; // filled rects thinner than this (points) are rules drawn as fills

/** Parses pathData into subpaths with every point already mapped to display points by `m`. */
export function parsePath(data: ArrayLike<number>, m: Matrix): Subpath[] {
  const subs: Subpath[] = [];
  let cur: Subpath | null = null, pos: Pt | null = null;
  for (let k = 0; k < data.length;) {
    const op = data[k++];
    if (op === MOVE) {
      pos = applyMatrix(m, data[k], data[k + 1]); k += 2;
      cur = { start: pos, edges: [], closed: false }; subs.push(cur);
    } else if (op === LINE || op === CURVE || op === QUAD) {
      const n = op === LINE ? 2 : op === CURVE ? 6 : 4;
      const pts: Pt[] = [];
      for (let i = 0; i < n; i += 2) pts.push(applyMatrix(m, data[k + i], data[k + i + 1]));
      k += n;
      const end = pts[pts.length - 1];
      if (!cur || !pos) { cur = { start: end, edges: [], closed: false }; subs.push(cur); pos = end; continue; }
      const edge: Edge = { a: pos, b: end, curved: op !== LINE };
      if (edge.curved) edge.box = bboxOf([pos, ...pts]);
      cur.edges.push(edge); pos = end;
    } else if (op === CLOSE) {
      if (cur && pos) {
        if (Math.abs(pos[0] - cur.start[0]) > 1e-3 || Math.abs(pos[1] - cur.start[1]) > 1e-3) cur.edges.push({ a: pos, b: cur.start, curved: false, closing: true });
        cur.closed = true; pos = cur.start;
      }
    } else break; // unknown code: stop rather than misread the rest
  }
  return subs;
}

function bboxOf(pts: Pt[]): [number, number, number, number] {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of pts) { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); }
  return [x0, y0, x1, y1];
}

const isAxis = (e: Edge) => !e.curved && (Math.abs(e.a[0] - e.b[0]) < AXIS_TOL || Math.abs(e.a[1] - e.b[1]) < AXIS_TOL);

/** The subpath as an axis-aligned rectangle, or null: 4 corners joined by straight axis-aligned edges, closed (or filled). */
function asRect(sp: Subpath, filled: boolean): [number, number, number, number] | null {
  const edges = sp.edges.filter((e) => Math.hypot(e.a[0] - e.b[0], e.a[1] - e.b[1]) > 1e-3);
  if (edges.length < 3 || edges.length > 4 || !edges.every(isAxis)) return null;
  const last = edges[edges.length - 1].b;
  const returns = Math.abs(last[0] - sp.start[0]) < AXIS_TOL && Math.abs(last[1] - sp.start[1]) < AXIS_TOL;
  if (!(sp.closed || returns || filled)) return null;
  if (edges.length === 3 && !(filled || sp.closed)) return null;
  const pts = [sp.start, ...edges.map((e) => e.b)];
  const [x0, y0, x1, y1] = bboxOf(pts);
  // every corner must sit on the bounding box corners, otherwise it is an L or Z shape
  const onCorner = pts.every(([x, y]) => (Math.abs(x - x0) < AXIS_TOL || Math.abs(x - x1) < AXIS_TOL) && (Math.abs(y - y0) < AXIS_TOL || Math.abs(y - y1) < AXIS_TOL));
  return onCorner ? [x0, y0, x1, y1] : null;
}

/**
 * Classifies one painted path. Rectangles (re, or closed 4-corner paths) → rects; a stroked rectangle
 * also contributes its four edges as segments (tables drawn as cell frames), a filled one thinner than
 * 1.5pt is a rule and contributes its centre line. Other straight stroked edges that are horizontal or
 * vertical → segments. Curves and diagonals → pieces for the drawing (chart) clustering.
 */
export function classifyPath(subs: Subpath[], style: PaintStyle, page: PageFrame, sink: PathSink): void {
  const W = page.width, H = page.height, norm = Math.max(W, H);
  const lw = Math.max(style.lineWidth, 0.25);
  const seg = (x0: number, y0: number, x1: number, y1: number, width: number) => {
    if (Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0)) < 0.5) return;
    const s: RawSegment = { x0: Math.min(x0, x1) / W, y0: Math.min(y0, y1) / H, x1: Math.max(x0, x1) / W, y1: Math.max(y0, y1) / H, width: width / norm };
    if (s.x1 < 0 || s.y1 < 0 || s.x0 > 1 || s.y0 > 1) return; // off the page
    sink.segments.push(roundSeg(s));
    sink.straightCentres.push([(x0 + x1) / 2, (y0 + y1) / 2]);
  };
  const kept: RawPath = { subpaths: [], closed: [], filled: style.filled, stroked: style.stroked, curved: false };
  if (style.filled && style.fill) kept.fill = style.fill;
  if (style.stroked && style.stroke) kept.stroke = style.stroke;
  for (const sp of subs) {
    const r = asRect(sp, style.filled);
    if (r) {
      const [x0, y0, x1, y1] = r, w = x1 - x0, h = y1 - y0;
      const fullPage = w * h > 0.9 * W * H;
      if (w > 1e-3 && h > 1e-3 && !(fullPage && !style.stroked) && x1 > 0 && y1 > 0 && x0 < W && y0 < H) {
        const rect: RawRect = { box: clampBox(x0 / W, y0 / H, x1 / W, y1 / H), filled: style.filled, stroked: style.stroked };
        if (style.filled && style.fill) rect.fill = style.fill;
        sink.rects.push(rect);
      }
      if (style.stroked) {
        seg(x0, y0, x1, y0, lw); seg(x0, y1, x1, y1, lw); seg(x0, y0, x0, y1, lw); seg(x1, y0, x1, y1, lw);
      } else if (style.filled && Math.min(w, h) < THIN_RULE) {
        if (w >= h) seg(x0, (y0 + y1) / 2, x1, (y0 + y1) / 2, Math.max(h, 0.25));
        else seg((x0 + x1) / 2, y0, (x0 + x1) / 2, y1, Math.max(w, 0.25));
      }
      continue;
    }
    keepSubpath(kept, sp, W, H);
    let piece: Piece | null = null;
    for (const e of sp.edges) {
      if (isAxis(e)) {
        if (style.stroked) seg(e.a[0], e.a[1], e.b[0], e.b[1], lw);
        continue;
      }
      const [bx0, by0, bx1, by1] = e.box ?? bboxOf([e.a, e.b]);
      if (!piece) piece = { x0: bx0, y0: by0, x1: bx1, y1: by1, count: 0 };
      piece.x0 = Math.min(piece.x0, bx0); piece.y0 = Math.min(piece.y0, by0);
      piece.x1 = Math.max(piece.x1, bx1); piece.y1 = Math.max(piece.y1, by1);
      piece.count++;
    }
    if (piece && style.clip) {
      const [cx0, cy0, cx1, cy1] = style.clip;
      piece.x0 = Math.max(piece.x0, cx0); piece.y0 = Math.max(piece.y0, cy0);
      piece.x1 = Math.min(piece.x1, cx1); piece.y1 = Math.min(piece.y1, cy1);
      if (piece.x1 < piece.x0 || piece.y1 < piece.y0) piece = null; // entirely clipped away
    }
    if (piece) {
      const last = sp.edges.length ? sp.edges[sp.edges.length - 1].b : sp.start;
      const closed = sp.closed || (Math.abs(last[0] - sp.start[0]) < AXIS_TOL && Math.abs(last[1] - sp.start[1]) < AXIS_TOL);
      if (style.stroked && !style.filled && closed && sp.edges.length >= 4) piece.outline = true;
      sink.pieces.push(piece);
    }
  }
  if (kept.subpaths.length) sink.paths.push(kept);
}

const MAX_PATH_POINTS = 4_000; // per subpath: a plotted series has far fewer; hatching and glyph outlines are cut

/** Adds a subpath's vertices (normalized, curve end points only) to the painted path kept for chart reading. */
function keepSubpath(kept: RawPath, sp: Subpath, W: number, H: number): void {
  if (sp.edges.length === 0 || sp.edges.length > MAX_PATH_POINTS) return;
  const pts = [r6(sp.start[0] / W), r6(sp.start[1] / H)];
  for (const e of sp.edges) { pts.push(r6(e.b[0] / W), r6(e.b[1] / H)); if (e.curved) kept.curved = true; }
  const last = sp.edges[sp.edges.length - 1].b;
  kept.subpaths.push(pts);
  kept.closed.push(sp.closed || (Math.abs(last[0] - sp.start[0]) < AXIS_TOL && Math.abs(last[1] - sp.start[1]) < AXIS_TOL));
}

const r6 = (n: number) => Math.round(n * 1e6) / 1e6;
const c01 = (n: number) => (n < 0 ? 0 : n > 1 ? 1 : n);
const clampBox = (x0: number, y0: number, x1: number, y1: number) => ({ x0: r6(c01(x0)), y0: r6(c01(y0)), x1: r6(c01(x1)), y1: r6(c01(y1)) });
const roundSeg = (s: RawSegment): RawSegment => ({ x0: r6(c01(s.x0)), y0: r6(c01(s.y0)), x1: r6(c01(s.x1)), y1: r6(c01(s.y1)), width: r6(s.width) });
