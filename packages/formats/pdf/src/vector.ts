import type { RawImage, RawPath, RawRect, RawSegment } from '@quire/core';
import { clusterDrawings } from './clusters.js';
import { type Matrix, IDENTITY, applyMatrix, matrixScale, multiply, normalizedBox } from './matrix.js';
import { type PathSink, classifyPath, parsePath } from './paths.js';

export interface OperatorListLike { fnArray: ArrayLike<number>; argsArray: ArrayLike<unknown> }
export interface VectorContent { segments: RawSegment[]; rects: RawRect[]; paths: RawPath[]; images: RawImage[] }

interface GState {
  ctm: Matrix; lineWidth: number; fill?: [number, number, number]; stroke?: [number, number, number];
  /** Bounding box of the current clipping path, display points; absent = the whole page. */
  clip?: [number, number, number, number];
}

/** Caps per page: a pathological page (millions of hatch strokes) must not blow up memory. */
const MAX_SEGMENTS = 20_000, MAX_RECTS = 20_000, MAX_IMAGES = 2_000, MAX_PATHS = 5_000, MAX_PATH_NUMBERS = 200_000;
const MIN_IMAGE_SIDE = 2; // points

/**
 * Walks a pdf.js operator list with a graphics-state stack (save/restore, cm, form XObject matrices,
 * groups) and collects straight rulings, rectangles, raster image placements and clusters of
 * curves/diagonals (vector drawings). `viewport` maps user space to displayed page points.
 */
export function extractVector(ops: OperatorListLike, OPS: Record<string, number>, viewport: Matrix, W: number, H: number): VectorContent {
  const sink: PathSink = { segments: [], rects: [], paths: [], pieces: [], straightCentres: [] };
  const images: RawImage[] = [];
  const stack: GState[] = [];
  let gs: GState = { ctm: IDENTITY, lineWidth: 1 };
  let clipNext = false; // a W / W* operator: the next path also becomes the clipping path
  const strokeOps = new Set([OPS.stroke, OPS.closeStroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
  const fillOps = new Set([OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
  const imageOps = new Set([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject]);
  const addImage = (m: Matrix) => {
    const t = multiply(viewport, m);
    const pts = [applyMatrix(t, 0, 0), applyMatrix(t, 1, 0), applyMatrix(t, 1, 1), applyMatrix(t, 0, 1)];
    let box = normalizedBox(pts, W, H);
    if (gs.clip) { // an image shows only inside the clipping path
      const [cx0, cy0, cx1, cy1] = gs.clip;
      box = { x0: Math.max(box.x0, cx0 / W), y0: Math.max(box.y0, cy0 / H), x1: Math.min(box.x1, cx1 / W), y1: Math.min(box.y1, cy1 / H) };
      if (box.x1 <= box.x0 || box.y1 <= box.y0) return;
    }
    if ((box.x1 - box.x0) * W < MIN_IMAGE_SIDE || (box.y1 - box.y0) * H < MIN_IMAGE_SIDE) return;
    // some producers paint the same image twice (e.g. once per optional-content state): keep one
    if (images.length < MAX_IMAGES && !images.some((im) => sameBox(im.box, box))) images.push({ box, kind: 'raster' });
  };
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i];
    const args = ops.argsArray[i] as unknown[] | null;
    switch (fn) {
      case OPS.save: case OPS.beginGroup: stack.push(gs); gs = { ...gs }; break;
      case OPS.restore: case OPS.endGroup: case OPS.paintFormXObjectEnd: gs = stack.pop() ?? gs; break;
      case OPS.paintFormXObjectBegin: {
        stack.push(gs); gs = { ...gs };
        const m = args?.[0];
        if (isMatrix(m)) gs.ctm = multiply(gs.ctm, m);
        break;
      }
      case OPS.transform: if (args && isMatrix(args)) gs.ctm = multiply(gs.ctm, args); break;
      case OPS.setLineWidth: gs.lineWidth = Number(args?.[0]) || 0; break;
      case OPS.setGState: applyGState(gs, args?.[0]); break;
      case OPS.setFillRGBColor: gs.fill = parseHex(args?.[0]); break;
      case OPS.setFillTransparent: case OPS.setFillColorN: gs.fill = undefined; break;
      case OPS.setStrokeRGBColor: gs.stroke = parseHex(args?.[0]); break;
      case OPS.setStrokeTransparent: case OPS.setStrokeColorN: gs.stroke = undefined; break;
      case OPS.clip: case OPS.eoClip: clipNext = true; break;
      case OPS.constructPath: {
        const paint = Number(args?.[0]);
        const stroked = strokeOps.has(paint), filled = fillOps.has(paint);
        const data = (args?.[1] as ArrayLike<number>[] | undefined)?.[0];
        const clipping = clipNext;
        clipNext = false;
        if (!data || (!stroked && !filled && !clipping)) break;
        const t = multiply(viewport, gs.ctm);
        const subs = parsePath(data, t);
        if (clipping) gs.clip = intersect(gs.clip, pathBox(subs));
        if (!stroked && !filled) break; // clipping path (W n): nothing is drawn
        classifyPath(subs, { stroked, filled, lineWidth: gs.lineWidth * matrixScale(t), fill: gs.fill, stroke: gs.stroke, clip: gs.clip }, { width: W, height: H }, sink);
        break;
      }
      case OPS.shadingFill: {
        // a gradient painted through the current clip (gradient-filled bars, areas, legend keys)
        if (!gs.clip || sink.paths.length >= MAX_PATHS) break;
        const [x0, y0, x1, y1] = gs.clip;
        if (x1 - x0 < 0.5 || y1 - y0 < 0.5 || (x1 - x0) * (y1 - y0) > 0.9 * W * H) break;
        const r = (v: number, d: number) => Math.round((v / d) * 1e6) / 1e6;
        sink.paths.push({ subpaths: [[r(x0, W), r(y0, H), r(x1, W), r(y0, H), r(x1, W), r(y1, H), r(x0, W), r(y1, H), r(x0, W), r(y0, H)]], closed: [true], filled: true, stroked: false, curved: false, shading: true });
        break;
      }
      case OPS.paintImageXObjectRepeat: case OPS.paintImageMaskXObjectRepeat: {
        // (objId, sx, sy, positions) or (img, sx, skewX, skewY, sy, positions)
        const a = args ?? [];
        const m: number[] = fn === OPS.paintImageXObjectRepeat ? [Number(a[1]), 0, 0, Number(a[2])] : [Number(a[1]), Number(a[2]), Number(a[3]), Number(a[4])];
        const positions = (fn === OPS.paintImageXObjectRepeat ? a[3] : a[5]) as ArrayLike<number> | undefined;
        for (let k = 0; positions && k + 1 < positions.length && k < 4000; k += 2) addImage(multiply(gs.ctm, [m[0], m[1], m[2], m[3], positions[k], positions[k + 1]]));
        break;
      }
      default:
        if (imageOps.has(fn)) addImage(gs.ctm);
    }
  }
  const drawings = clusterDrawings(sink.pieces, sink.straightCentres, W, H);
  return {
    segments: sink.segments.slice(0, MAX_SEGMENTS),
    rects: sink.rects.slice(0, MAX_RECTS),
    paths: capPaths(sink.paths),
    images: [...images, ...drawings],
  };
}

/** Painted paths kept for chart reading, within a count and a coordinate budget (maps and hatching stop early). */
function capPaths(paths: RawPath[]): RawPath[] {
  const out: RawPath[] = [];
  let numbers = 0;
  for (const p of paths) {
    numbers += p.subpaths.reduce((n, sp) => n + sp.length, 0);
    if (out.length >= MAX_PATHS || numbers > MAX_PATH_NUMBERS) break;
    out.push(p);
  }
  return out;
}

type Bounds = [number, number, number, number];

/** Bounding box of a parsed path (control points included: a safe over-estimate of a clip). */
function pathBox(subs: ReturnType<typeof parsePath>): Bounds {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  const add = ([x, y]: [number, number]) => { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); };
  for (const sp of subs) {
    add(sp.start);
    for (const e of sp.edges) {
      add(e.a); add(e.b);
      if (e.box) { add([e.box[0], e.box[1]]); add([e.box[2], e.box[3]]); }
    }
  }
  return x0 <= x1 ? [x0, y0, x1, y1] : [0, 0, 0, 0];
}

function intersect(a: Bounds | undefined, b: Bounds): Bounds {
  if (!a) return b;
  const r: Bounds = [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  return r[2] >= r[0] && r[3] >= r[1] ? r : [r[0], r[1], r[0], r[1]];
}

const sameBox = (a: RawImage['box'], b: RawImage['box']) =>
  Math.abs(a.x0 - b.x0) < 1e-4 && Math.abs(a.y0 - b.y0) < 1e-4 && Math.abs(a.x1 - b.x1) < 1e-4 && Math.abs(a.y1 - b.y1) < 1e-4;

function isMatrix(m: unknown): m is Matrix {
  return Array.isArray(m) || ArrayBuffer.isView(m) ? (m as ArrayLike<number>).length === 6 && Array.from(m as ArrayLike<number>).every(Number.isFinite) : false;
}

function applyGState(gs: GState, entries: unknown): void {
  if (!Array.isArray(entries)) return;
  for (const e of entries) if (Array.isArray(e) && e[0] === 'LW' && typeof e[1] === 'number') gs.lineWidth = e[1];
}

function parseHex(v: unknown): [number, number, number] | undefined {
  if (typeof v !== 'string' || !/^#[0-9a-f]{6}$/i.test(v)) return undefined;
  const n = parseInt(v.slice(1), 16);
  const c = (x: number) => Math.round((x / 255) * 1000) / 1000;
  return [c((n >> 16) & 255), c((n >> 8) & 255), c(n & 255)];
}
