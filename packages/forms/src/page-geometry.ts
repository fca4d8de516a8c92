import type { RawRect, RawSegment } from '@quire/core';
import { StandardFontEmbedder, StandardFonts } from 'pdf-lib';
import { type MarkedContentReader, type Matrix, type PDFPageProxy, applyMatrix, loadPdfjs, multiply, readPageWords } from '@quire/format-pdf';
import { pageFrame, type PageFrame } from './page-frame.js';
import type { GeoWord, PageGeometry } from './types.js';

const { OPS, AnnotationMode } = await loadPdfjs();
type OperatorList = Awaited<ReturnType<PDFPageProxy['getOperatorList']>>;

/**
 * Reads a page's words and drawing into a PageGeometry (normalized, top-left origin) from one operator
 * list: words built glyph by glyph by format-pdf (as extraction reads them), split further at "____" runs
 * (a fill-in line typed as underscores is not part of its label); drawing read here for what forms need.
 */
export async function readPageGeometry(page: PDFPageProxy, frame: PageFrame): Promise<PageGeometry> {
  const ops = await page.getOperatorList({ annotationMode: AnnotationMode.DISABLE });
  return { width: frame.width, height: frame.height, words: await wordsIn(page, ops, frame), ...readDrawing(ops, frame) };
}

/**
 * Geometry in the page's reading frame: when most text runs sideways on the displayed page (content
 * drawn upright and the page turned by /Rotate, or the reverse), cells are found with the text made
 * horizontal, and `frame` says which frame the normalized coordinates are in.
 */
export async function readPageGeometryUpright(page: PDFPageProxy, markedContent?: MarkedContentReader): Promise<{ geo: PageGeometry; frame: PageFrame }> {
  const ops = await page.getOperatorList({ annotationMode: AnnotationMode.DISABLE });
  // read unrotated, a word's angle on the page is its angle in user space (clockwise, as y points down)
  const unrotated = pageFrame(page, 0);
  const plain = await wordsIn(page, ops, unrotated, markedContent);
  const weight = new Map<number, number>();
  for (const w of plain) {
    const deg = (360 - (w.angle ?? 0)) % 360;
    weight.set(deg, (weight.get(deg) ?? 0) + w.text.length);
  }
  const textDeg = [...weight.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? page.rotate;
  const frame = pageFrame(page, textDeg === page.rotate % 360 ? undefined : textDeg);
  const words = frame.rotate % 360 === 0 ? plain : await wordsIn(page, ops, frame, markedContent);
  return { geo: { width: frame.width, height: frame.height, words, ...readDrawing(ops, frame) }, frame };
}

export const FILL_TAG = 'QuireFill';
/** Text and shapes inside /Tx (a field's appearance) or /QuireFill (Quire's overlays) are filled-in values, never labels. */
const FILL_TAGS = new Set([FILL_TAG, 'Tx']);

type FrameWord = GeoWord & { angle?: number };

async function wordsIn(page: PDFPageProxy, ops: OperatorList, f: PageFrame, markedContent?: MarkedContentReader): Promise<FrameWord[]> {
  const words = await readPageWords(page, ops, { viewport: f.toDisplay, width: f.width, height: f.height, flagTags: FILL_TAGS, markedContent });
  return words.flatMap(({ flagged, direction: _direction, ...w }) => splitUnderscores(flagged ? { ...w, fill: true } : w));
}

const helv = StandardFontEmbedder.for(StandardFonts.Helvetica as unknown as Parameters<typeof StandardFontEmbedder.for>[0]);
function advance(text: string): number {
  let w = 0;
  for (const ch of text) {
    try { w += helv.widthOfTextAtSize(ch, 1); } catch { w += 0.55; }
  }
  return w;
}

/**
 * "Name:______" drawn without a space is one word; the underscore run is a fill-in line of its own.
 * Positions inside a horizontal word are estimated with Helvetica's advance widths, close enough to
 * place the line and attribute text to cells.
 */
function splitUnderscores(w: FrameWord): FrameWord[] {
  if (!/__/.test(w.text) || /^_+$/.test(w.text) || (w.angle ?? 0) !== 0) return [w];
  const parts = [...w.text.matchAll(/_{2,}|[^\s_]+(?:_(?!_)[^\s_]*)*|_/g)];
  const total = advance(w.text) || 1, width = w.box.x1 - w.box.x0;
  const out = parts.map((m): FrameWord => {
    const x0 = w.box.x0 + (advance(w.text.slice(0, m.index)) / total) * width;
    const x1 = w.box.x0 + (advance(w.text.slice(0, m.index + m[0].length)) / total) * width;
    const { endOfRun: _end, ...rest } = w;
    return { ...rest, text: m[0], box: { ...w.box, x0, x1 } };
  });
  if (w.endOfRun && out.length) out[out.length - 1].endOfRun = true;
  return out;
}

const STROKE_OPS = new Set<number>([OPS.stroke, OPS.closeStroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
const FILL_OPS = new Set<number>([OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);

interface SubPath { pts: [number, number][]; curve: boolean; closed: boolean }

type Drawing = Pick<PageGeometry, 'segments' | 'rects' | 'marks'>;

/**
 * The page's own drawing. Annotations are left out (their appearances are not page content, and
 * pdf.js gives them without their placement); shapes inside /QuireFill or /Tx marked content are
 * flagged `fill` (Quire's check marks, a field's drawing), like the words there.
 */
function readDrawing({ fnArray, argsArray }: OperatorList, f: PageFrame): Required<Drawing> {
  const out: Required<Drawing> = { segments: [], rects: [], marks: [] };
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  let fill = '#000000', lineWidth = 1;
  const stack: { ctm: Matrix; fill: string; lineWidth: number }[] = [];
  const tags: string[] = [];
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i], args = argsArray[i];
    // the tag arrives as a PDF name object ({ name }) or as a string, depending on the operator
    if (fn === OPS.beginMarkedContent || fn === OPS.beginMarkedContentProps) tags.push(String(args?.[0]?.name ?? args?.[0] ?? ''));
    else if (fn === OPS.endMarkedContent) tags.pop();
    else if (fn === OPS.save || fn === OPS.paintFormXObjectBegin) {
      stack.push({ ctm, fill, lineWidth });
      if (fn === OPS.paintFormXObjectBegin && args?.[0]?.length === 6) ctm = multiply(ctm, Array.from(args[0] as ArrayLike<number>));
    } else if (fn === OPS.restore || fn === OPS.paintFormXObjectEnd) {
      const s = stack.pop();
      if (s) ({ ctm, fill, lineWidth } = s);
    } else if (fn === OPS.transform) ctm = multiply(ctm, args);
    else if (fn === OPS.setFillRGBColor) fill = String(args[0]);
    else if (fn === OPS.setLineWidth) lineWidth = Number(args[0]);
    else if (fn === OPS.constructPath) {
      const paintOp = args[0] as number;
      const data = args[1]?.[0] as ArrayLike<number> | undefined;
      if (!data || (!STROKE_OPS.has(paintOp) && !FILL_OPS.has(paintOp))) continue;
      const m = multiply(f.toDisplay, ctm);
      const widthPt = lineWidth * Math.sqrt(Math.abs(m[0] * m[3] - m[1] * m[2]));
      const before = { s: out.segments.length, r: out.rects.length, m: out.marks.length };
      for (const sp of subPaths(data, m)) addShape(out, sp, f, STROKE_OPS.has(paintOp), FILL_OPS.has(paintOp), fill, widthPt);
      if (tags.some((t) => FILL_TAGS.has(t))) {
        for (const x of [...out.segments.slice(before.s), ...out.rects.slice(before.r), ...out.marks.slice(before.m)]) x.fillIn = true;
      }
    }
  }
  return out;
}

function subPaths(d: ArrayLike<number>, m: Matrix): SubPath[] {
  const res: SubPath[] = [];
  let cur: SubPath | null = null;
  for (let k = 0; k < d.length;) {
    const op = d[k++];
    if (op === 0) { cur = { pts: [applyMatrix(m, d[k], d[k + 1])], curve: false, closed: false }; res.push(cur); k += 2; }
    else if (op === 1) { cur?.pts.push(applyMatrix(m, d[k], d[k + 1])); k += 2; }
    else if (op === 2) { if (cur) { cur.curve = true; cur.pts.push(applyMatrix(m, d[k], d[k + 1]), applyMatrix(m, d[k + 2], d[k + 3]), applyMatrix(m, d[k + 4], d[k + 5])); } k += 6; }
    else if (op === 3) { if (cur) { cur.curve = true; cur.pts.push(applyMatrix(m, d[k], d[k + 1]), applyMatrix(m, d[k + 2], d[k + 3])); } k += 4; }
    else if (op === 4) { if (cur) cur.closed = true; }
    else break;
  }
  return res;
}

const isWhite = (hex: string) => /^#(f[a-f0-9]){3}$/i.test(hex) || /^#f{6}$/i.test(hex);

function addShape(out: Required<Drawing>, sp: SubPath, f: PageFrame, stroked: boolean, filled: boolean, fill: string, widthPt: number) {
  const xs = sp.pts.map((p) => p[0]), ys = sp.pts.map((p) => p[1]);
  const bx0 = Math.min(...xs), bx1 = Math.max(...xs), by0 = Math.min(...ys), by1 = Math.max(...ys);
  const norm = { x0: bx0 / f.width, y0: by0 / f.height, x1: bx1 / f.width, y1: by1 / f.height };
  const wNorm = widthPt / Math.max(f.width, f.height);
  if (!sp.curve && isAxisRect(sp)) {
    const thin = Math.min(bx1 - bx0, by1 - by0) < 2.5;
    if (filled && thin && !isWhite(fill)) {
      // a rule drawn as a thin filled rectangle
      if (bx1 - bx0 >= by1 - by0) out.segments.push({ x0: norm.x0, y0: (norm.y0 + norm.y1) / 2, x1: norm.x1, y1: (norm.y0 + norm.y1) / 2, width: (by1 - by0) / Math.max(f.width, f.height) });
      else out.segments.push({ x0: (norm.x0 + norm.x1) / 2, y0: norm.y0, x1: (norm.x0 + norm.x1) / 2, y1: norm.y1, width: (bx1 - bx0) / Math.max(f.width, f.height) });
      return;
    }
    if (filled && !stroked && isWhite(fill)) return;
    const rect: RawRect = { box: norm, filled, stroked };
    if (filled) rect.fill = hexToRgb(fill);
    out.rects.push(rect);
    if (stroked) pushRectEdges(out.segments, norm, wNorm);
    return;
  }
  if (!sp.curve && stroked) {
    let straight = true;
    for (let i = 1; i < sp.pts.length; i++) {
      const [p, q] = [sp.pts[i - 1], sp.pts[i]];
      if (Math.abs(p[1] - q[1]) < 0.8 && Math.abs(p[0] - q[0]) > 0.5) out.segments.push(seg(p[0], p[1], q[0], p[1], f, wNorm));
      else if (Math.abs(p[0] - q[0]) < 0.8 && Math.abs(p[1] - q[1]) > 0.5) out.segments.push(seg(p[0], p[1], p[0], q[1], f, wNorm));
      else straight = false;
    }
    if (straight) return;
  }
  if (bx1 - bx0 < 0.3 && by1 - by0 < 0.3) return;
  if (filled && isWhite(fill) && !stroked) return;
  // a white-filled outline (a radio button's background) is an empty shape
  out.marks.push({ box: norm, closedCurve: sp.curve && (sp.closed || near(sp.pts[0], sp.pts[sp.pts.length - 1])), filled: filled && !(stroked && isWhite(fill)) });
}

const near = (p: [number, number], q: [number, number]) => Math.abs(p[0] - q[0]) < 0.5 && Math.abs(p[1] - q[1]) < 0.5;

function isAxisRect(sp: SubPath): boolean {
  let pts = sp.pts;
  if (pts.length === 5 && near(pts[0], pts[4])) pts = pts.slice(0, 4);
  if (pts.length !== 4) return false;
  for (let i = 0; i < 4; i++) {
    const p = pts[i], q = pts[(i + 1) % 4];
    if (Math.abs(p[0] - q[0]) > 0.5 && Math.abs(p[1] - q[1]) > 0.5) return false;
  }
  return true;
}

function seg(x0: number, y0: number, x1: number, y1: number, f: PageFrame, width: number): RawSegment {
  return { x0: Math.min(x0, x1) / f.width, y0: Math.min(y0, y1) / f.height, x1: Math.max(x0, x1) / f.width, y1: Math.max(y0, y1) / f.height, width };
}

function pushRectEdges(segs: RawSegment[], b: { x0: number; y0: number; x1: number; y1: number }, width: number) {
  segs.push({ x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y0, width }, { x0: b.x0, y0: b.y1, x1: b.x1, y1: b.y1, width },
    { x0: b.x0, y0: b.y0, x1: b.x0, y1: b.y1, width }, { x0: b.x1, y0: b.y0, x1: b.x1, y1: b.y1, width });
}

function hexToRgb(hex: string): [number, number, number] | undefined {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  return m ? [parseInt(m[1], 16) / 255, parseInt(m[2], 16) / 255, parseInt(m[3], 16) / 255] : undefined;
}

/** True when a page has no text and no drawing worth detecting on: an image-only (scanned) page. */
export async function pageHasImages(page: PDFPageProxy): Promise<boolean> {
  const { fnArray } = await page.getOperatorList({ annotationMode: AnnotationMode.DISABLE });
  return fnArray.some((fn) => fn === OPS.paintImageXObject || fn === OPS.paintInlineImageXObject || fn === OPS.paintImageMaskXObject);
}
