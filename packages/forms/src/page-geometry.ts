import type { RawRect, RawSegment } from '@quire/core';
import { StandardFontEmbedder, StandardFonts } from 'pdf-lib';
import { type MarkedContentReader, type PDFPageProxy, type Pt, type Rgb, type Subpath, loadPdfjs, readPageWords, walkPaint } from '@quire/format-pdf';
import { pageFrame, type PageFrame } from './page-frame.js';
import type { GeoWord, PageGeometry } from './types.js';

const { OPS, AnnotationMode } = await loadPdfjs();
type OperatorList = Awaited<ReturnType<PDFPageProxy['getOperatorList']>>;

/**
 * Reads a page's words and drawing into a PageGeometry (normalized, top-left origin) from one operator
 * list: words built glyph by glyph by format-pdf (as extraction reads them), split further at "____" runs
 * (a fill-in line typed as underscores is not part of its label); drawing through format-pdf's walkPaint.
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

type Drawing = Pick<PageGeometry, 'segments' | 'rects' | 'marks'>;
const BLACK: Rgb = [0, 0, 0];

/**
 * The page's own drawing, read through format-pdf's operator-list walk (the one extraction reads
 * rulings and charts with) and sorted into what forms needs: rules, boxes and marks (check marks,
 * circles). Annotations are left out (their appearances are not page content, and pdf.js gives them
 * without their placement); shapes inside /QuireFill or /Tx marked content are flagged `fill` (Quire's
 * check marks, a field's drawing), like the words there.
 */
function readDrawing(ops: OperatorList, f: PageFrame): Required<Drawing> {
  const out: Required<Drawing> = { segments: [], rects: [], marks: [] };
  // outlines stroked in white (no ink: a flattened comment's frame, a Separation tint of 0) show only on
  // a tinted fill; on bare paper they draw nothing a person sees and close no box
  const unseen: Required<Drawing> = { segments: [], rects: [], marks: [] };
  walkPaint(ops, OPS as unknown as Record<string, number>, f.toDisplay, {
    path: (p) => {
      const before = { s: out.segments.length, r: out.rects.length, m: out.marks.length };
      // no colour set is PDF's default, black; a pattern paint is taken as dark too
      for (const sp of p.subpaths) addShape(out, sp, f, p.stroked, p.filled, p.fill ?? BLACK, p.lineWidth);
      if (p.flagged) {
        for (const x of [...out.segments.slice(before.s), ...out.rects.slice(before.r), ...out.marks.slice(before.m)]) x.fillIn = true;
      }
      if (p.stroked && !p.filled && p.stroke && isWhite(p.stroke)) {
        unseen.segments.push(...out.segments.splice(before.s));
        unseen.rects.push(...out.rects.splice(before.r));
        unseen.marks.push(...out.marks.splice(before.m));
      }
    },
  }, { flagTags: FILL_TAGS });
  const tints = out.rects.filter((r) => r.filled && r.fill && !isWhite(r.fill)).map((r) => r.box);
  const onTint = (b: { x0: number; y0: number; x1: number; y1: number }) => tints.some((t) => b.x0 >= t.x0 - 1e-3 && b.x1 <= t.x1 + 1e-3 && b.y0 >= t.y0 - 1e-3 && b.y1 <= t.y1 + 1e-3);
  out.segments.push(...unseen.segments.filter(onTint));
  out.rects.push(...unseen.rects.filter((r) => onTint(r.box)));
  out.marks.push(...unseen.marks.filter((m) => onTint(m.box)));
  return out;
}

/** Light enough to be a background, not ink (every channel at least 240 of 255). */
const isWhite = (c: Rgb) => c.every((v) => Math.round(v * 255) >= 240);

/**
 * One subpath as forms reads it. Its rules differ from extraction's (paths.ts classifyPath): a filled
 * rectangle up to 2.5pt thin is a rule only (not also a box), white fills are background, and curves and
 * diagonals are kept as marks (check marks, radio circles) rather than clustered into drawings.
 */
function addShape(out: Required<Drawing>, sp: Subpath, f: PageFrame, stroked: boolean, filled: boolean, fill: Rgb, widthPt: number) {
  // the points the path was drawn through (a close adds none); a curve's box takes in its control points
  const pts: Pt[] = [sp.start, ...sp.edges.filter((e) => !e.closing).map((e) => e.b)];
  const curve = sp.edges.some((e) => e.curved);
  const extent = [...pts, ...sp.edges.flatMap((e): Pt[] => (e.box ? [[e.box[0], e.box[1]], [e.box[2], e.box[3]]] : []))];
  const xs = extent.map((p) => p[0]), ys = extent.map((p) => p[1]);
  const bx0 = Math.min(...xs), bx1 = Math.max(...xs), by0 = Math.min(...ys), by1 = Math.max(...ys);
  const norm = { x0: bx0 / f.width, y0: by0 / f.height, x1: bx1 / f.width, y1: by1 / f.height };
  const wNorm = widthPt / Math.max(f.width, f.height);
  if (!curve && isAxisRect(pts)) {
    const thin = Math.min(bx1 - bx0, by1 - by0) < 2.5;
    if (filled && thin && !isWhite(fill)) {
      // a rule drawn as a thin filled rectangle
      if (bx1 - bx0 >= by1 - by0) out.segments.push({ x0: norm.x0, y0: (norm.y0 + norm.y1) / 2, x1: norm.x1, y1: (norm.y0 + norm.y1) / 2, width: (by1 - by0) / Math.max(f.width, f.height) });
      else out.segments.push({ x0: (norm.x0 + norm.x1) / 2, y0: norm.y0, x1: (norm.x0 + norm.x1) / 2, y1: norm.y1, width: (bx1 - bx0) / Math.max(f.width, f.height) });
      return;
    }
    if (filled && !stroked && isWhite(fill)) return;
    const rect: RawRect = { box: norm, filled, stroked };
    if (filled) rect.fill = fill;
    out.rects.push(rect);
    if (stroked) pushRectEdges(out.segments, norm, wNorm);
    return;
  }
  if (!curve && stroked) {
    let straight = true;
    for (let i = 1; i < pts.length; i++) {
      const [p, q] = [pts[i - 1], pts[i]];
      if (Math.abs(p[1] - q[1]) < 0.8 && Math.abs(p[0] - q[0]) > 0.5) out.segments.push(seg(p[0], p[1], q[0], p[1], f, wNorm));
      else if (Math.abs(p[0] - q[0]) < 0.8 && Math.abs(p[1] - q[1]) > 0.5) out.segments.push(seg(p[0], p[1], p[0], q[1], f, wNorm));
      else straight = false;
    }
    if (straight) return;
  }
  if (bx1 - bx0 < 0.3 && by1 - by0 < 0.3) return;
  if (filled && isWhite(fill) && !stroked) return;
  // a white-filled outline (a radio button's background) is an empty shape
  const inked = filled && !(stroked && isWhite(fill));
  // a filled shape covering little of its box is a piece of an outline: viewers flatten a checkbox's or
  // radio button's bevelled border as two such pieces (top-left dark, bottom-right light)
  const hollow = inked && pts.length >= 3 && polygonArea(pts) < HOLLOW_SHARE * (bx1 - bx0) * (by1 - by0);
  out.marks.push({ box: norm, closedCurve: curve && (sp.closed || near(pts[0], pts[pts.length - 1])), filled: inked, ...(hollow ? { hollow } : {}), ...(curve ? { curved: true } : {}) });
}

/** Below this share of its box a filled shape is an outline piece (an L-shaped frame side covers ~10 %, a crescent ~30 %; a dot or a disc ≥ 50 %). */
const HOLLOW_SHARE = 0.4;

/** The shoelace area of a polygon through the points (a curve counted by its end points). */
function polygonArea(pts: readonly Pt[]): number {
  let a = 0;
  for (let i = 0; i < pts.length; i++) {
    const [x0, y0] = pts[i], [x1, y1] = pts[(i + 1) % pts.length];
    a += x0 * y1 - x1 * y0;
  }
  return Math.abs(a) / 2;
}

const near = (p: Pt, q: Pt) => Math.abs(p[0] - q[0]) < 0.5 && Math.abs(p[1] - q[1]) < 0.5;

function isAxisRect(points: Pt[]): boolean {
  let pts = points;
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
