import { type Matrix, IDENTITY, matrixScale, multiply } from './matrix.js';
import { type Subpath, parsePath } from './paths.js';
import { type PDFPageProxy, loadPdfjs } from './pdfjs.js';

export interface OperatorListLike { fnArray: ArrayLike<number>; argsArray: ArrayLike<unknown> }
export type Rgb = [number, number, number];
/** A box in display points: x0, y0, x1, y1. */
export type Bounds = [number, number, number, number];

/** One painted path (a constructPath that fills or strokes), every point already in display points. */
export interface PaintedPath {
  subpaths: Subpath[];
  stroked: boolean;
  filled: boolean;
  /** Stroke width in display points: the line width scaled by the CTM (0 is PDF's thinnest line). */
  lineWidth: number;
  /**
   * Paint colours, exact (channel / 255 of the colour pdf.js resolved to RGB); absent when no colour was
   * set (PDF's default is black) or the paint is a pattern or transparent.
   */
  fill?: Rgb;
  stroke?: Rgb;
  /** Bounding box of the current clipping path; absent = the whole page. */
  clip?: Bounds;
  /** Painted inside marked content tagged with one of PaintWalkOptions.flagTags. */
  flagged: boolean;
}

export interface PaintVisitor {
  path?(p: PaintedPath): void;
  /** A raster image or image mask placed by `m` (maps the unit square to user space), under `clip`. */
  image?(m: Matrix, clip: Bounds | undefined): void;
  /**
   * A shading painted (`sh`) through the current clip. `region`: the clipping outline the paint fills when
   * it is no rectangle (a gradient-filled sector or area is exported as its outline set as the clip, a
   * clip to the outline's bounding box, then `sh`); `shadingId`: the operator's shading object, for its colours.
   */
  shading?(clip: Bounds | undefined, region: Subpath[] | undefined, shadingId: string | undefined): void;
}

export interface PaintWalkOptions {
  /** Marked-content tags (BMC/BDC) whose paths come back `flagged`, as words do in readPageWords. */
  flagTags?: ReadonlySet<string>;
}

/** `shape`: the last clipping path that is no rectangle, with its box (the clip's outline while rectangles only trim around it). */
interface GState { ctm: Matrix; lineWidth: number; fill?: Rgb; stroke?: Rgb; clip?: Bounds; shape?: { subpaths: Subpath[]; box: Bounds } }

/**
 * The one walk over a pdf.js operator list that reads a page's drawing: a graphics-state stack
 * (save/restore, cm, form XObject matrices, groups, line width from gs), fill and stroke colours, the
 * clipping box and marked-content tags. Extraction (extractVector: rulings, rects, chart paths, images)
 * and forms (rules, boxes, check marks) both read the drawing through it. `viewport` maps user space to
 * the frame's points.
 */
export function walkPaint(ops: OperatorListLike, OPS: Record<string, number>, viewport: Matrix, visit: PaintVisitor, opts: PaintWalkOptions = {}): void {
  const stack: GState[] = [];
  let gs: GState = { ctm: IDENTITY, lineWidth: 1 };
  let clipNext = false; // a W / W* operator: the next path also becomes the clipping path
  const tags: string[] = [];
  const strokeOps = new Set([OPS.stroke, OPS.closeStroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
  const fillOps = new Set([OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
  const imageOps = imageOpsOf(OPS);
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
      // the tag arrives as a PDF name object ({ name }) or as a string, depending on the operator
      case OPS.beginMarkedContent: case OPS.beginMarkedContentProps: {
        const tag = args?.[0] as { name?: unknown } | string | undefined;
        tags.push(String((typeof tag === 'object' ? tag?.name : undefined) ?? tag ?? ''));
        break;
      }
      case OPS.endMarkedContent: tags.pop(); break;
      case OPS.constructPath: {
        const paint = Number(args?.[0]);
        const stroked = strokeOps.has(paint), filled = fillOps.has(paint);
        const data = (args?.[1] as ArrayLike<number>[] | undefined)?.[0];
        const clipping = clipNext;
        clipNext = false;
        if (!data || (!stroked && !filled && !clipping)) break;
        const t = multiply(viewport, gs.ctm);
        const subpaths = parsePath(data, t);
        if (clipping) {
          const box = pathBox(subpaths);
          gs.clip = intersect(gs.clip, box);
          if (!isRectangle(subpaths)) gs.shape = { subpaths, box };
        }
        if (!stroked && !filled) break; // clipping path (W n): nothing is drawn
        const flagged = !!opts.flagTags && tags.some((tag) => opts.flagTags!.has(tag));
        visit.path?.({ subpaths, stroked, filled, lineWidth: gs.lineWidth * matrixScale(t), fill: gs.fill, stroke: gs.stroke, clip: gs.clip, flagged });
        break;
      }
      case OPS.shadingFill: {
        // the outline is what is painted when the clip's rectangles leave all of it showing
        const region = gs.shape && gs.clip && within(gs.shape.box, gs.clip) ? gs.shape.subpaths : undefined;
        visit.shading?.(gs.clip, region, typeof args?.[0] === 'string' ? args[0] : undefined);
        break;
      }
      case OPS.paintImageXObjectRepeat: case OPS.paintImageMaskXObjectRepeat: {
        if (!visit.image) break;
        // (objId, sx, sy, positions) or (img, sx, skewX, skewY, sy, positions)
        const a = args ?? [];
        const m: number[] = fn === OPS.paintImageXObjectRepeat ? [Number(a[1]), 0, 0, Number(a[2])] : [Number(a[1]), Number(a[2]), Number(a[3]), Number(a[4])];
        const positions = (fn === OPS.paintImageXObjectRepeat ? a[3] : a[5]) as ArrayLike<number> | undefined;
        for (let k = 0; positions && k + 1 < positions.length && k < 4000; k += 2) visit.image(multiply(gs.ctm, [m[0], m[1], m[2], m[3], positions[k], positions[k + 1]]), gs.clip);
        break;
      }
      default:
        if (imageOps.has(fn)) visit.image?.(gs.ctm, gs.clip);
    }
  }
}

const imageOpsOf = (OPS: Record<string, number>) => new Set([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageMaskXObject]);

/** True when a page paints an image (a raster or an image mask, one placement at least): scanned pages do. */
export async function pageHasImages(page: PDFPageProxy): Promise<boolean> {
  const pdfjs = await loadPdfjs();
  const { fnArray } = await page.getOperatorList({ annotationMode: pdfjs.AnnotationMode.DISABLE });
  const imageOps = imageOpsOf(pdfjs.OPS as unknown as Record<string, number>);
  return Array.prototype.some.call(fnArray, (fn: number) => imageOps.has(fn));
}

/** Bounding box of a parsed path (control points included: a safe over-estimate of a clip). */
function pathBox(subs: Subpath[]): Bounds {
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

/** One closed subpath of four straight axis-aligned sides: a rectangle (it cuts a clip's box, it draws no outline). */
function isRectangle(subs: Subpath[]): boolean {
  if (subs.length !== 1) return false;
  const edges = subs[0].edges.filter((e) => Math.hypot(e.a[0] - e.b[0], e.a[1] - e.b[1]) > 1e-3);
  return edges.length <= 4 && edges.every((e) => !e.curved && (Math.abs(e.a[0] - e.b[0]) < 0.01 || Math.abs(e.a[1] - e.b[1]) < 0.01));
}

/** Box `a` inside box `b` (within half a point): `b` trims nothing of `a`. */
const within = (a: Bounds, b: Bounds) => a[0] >= b[0] - 0.5 && a[1] >= b[1] - 0.5 && a[2] <= b[2] + 0.5 && a[3] <= b[3] + 0.5;

function intersect(a: Bounds | undefined, b: Bounds): Bounds {
  if (!a) return b;
  const r: Bounds = [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  return r[2] >= r[0] && r[3] >= r[1] ? r : [r[0], r[1], r[0], r[1]];
}

function isMatrix(m: unknown): m is Matrix {
  return Array.isArray(m) || ArrayBuffer.isView(m) ? (m as ArrayLike<number>).length === 6 && Array.from(m as ArrayLike<number>).every(Number.isFinite) : false;
}

function applyGState(gs: GState, entries: unknown): void {
  if (!Array.isArray(entries)) return;
  for (const e of entries) if (Array.isArray(e) && e[0] === 'LW' && typeof e[1] === 'number') gs.lineWidth = e[1];
}

function parseHex(v: unknown): Rgb | undefined {
  if (typeof v !== 'string' || !/^#[0-9a-f]{6}$/i.test(v)) return undefined;
  const n = parseInt(v.slice(1), 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}
