import type { RawRect, RawSegment, RawWord } from '@quire/core';
import { otsuThreshold, type GreyImage } from './analysis.js';


/**
 * Ruling lines and checkbox squares found in a page raster, for scans where the PDF drawing that
 * text-layer pages give layout and forms does not exist.
 *
 * Method (O(pixels), two sequential passes): binarize (Otsu), collect horizontal runs row by row and
 * vertical runs column by column with a 1-pixel gap tolerance, reading along the page's skew (the
 * image is sheared, not resampled), join runs of adjacent rows/columns into strokes, and keep the
 * strokes that are long, thin and not flanked by ink (text strokes are short; a chain of serifs has
 * letters standing on it). Short strokes are kept when they bridge two long ones (comb dividers, the
 * sides of narrow boxes); small closed squares are checkbox candidates.
 */

/**
 * A rule in image pixels: its centreline from (x0,y0) to (x1,y1), axis-parallel in the deskewed image
 * (turned by −skew about the image centre; the image itself on an unskewed page), and its thickness.
 */
export interface PixelLine { x0: number; y0: number; x1: number; y1: number; thickness: number }

/** A small closed square (checkbox candidate) in image pixels, as sent (not deskewed); `ink` = dark fraction of its interior. */
export interface PixelSquare { x0: number; y0: number; x1: number; y1: number; thickness: number; ink: number }

export interface RasterRulings {
  horizontal: PixelLine[];
  vertical: PixelLine[];
  squares: PixelSquare[];
  /** Grey level below which a pixel counted as ink. */
  threshold: number;
}

export interface RulingOptions {
  /** Direction of the page's horizontal lines in the image, degrees clockwise (y down), e.g. the OCR analysis skew. */
  skewDeg?: number;
  /** Image pixels per page point (resolution / 72); default: the width of a Letter page (width / 612). */
  pxPerPt?: number;
  /** Ink threshold (0..255); default Otsu's. */
  threshold?: number;
}

/** Shortest ruling kept on its own, in points (shorter strokes are text unless they bridge two rules). */
const MIN_RULE_PT = 16;
/** Shortest stroke considered at all (comb dividers, checkbox sides), in points. */
const MIN_STROKE_PT = 4;
/** Thickest stroke that is still a rule, in points (thicker ink is a filled area or a picture). */
const MAX_THICK_PT = 4;
/** Checkbox squares: side in points. */
const SQUARE_MIN_PT = 6, SQUARE_MAX_PT = 24;
/** Runs must be this dark (gaps of one pixel allowed), so dotted leaders and serif chains are not rules. */
const MIN_FILL = 0.9;
/** A rule is not flanked by ink along more than this fraction of its length (letters standing on serifs are). */
const MAX_FLANK = 0.4;
/** Strokes hugging the image border are scanner edges, not rules (fraction of the side). */
const EDGE_MARGIN = 0.004;
const MAX_LINES = 5000;

interface Run { p: number; a: number; b: number; dark: number }
interface Stroke { p: number; a: number; b: number; thickness: number; p0: number; p1: number }

/** Finds ruling lines and checkbox squares in a greyscale page image. */
export function detectRulings(img: GreyImage, opts: RulingOptions = {}): RasterRulings {
  const { width: W, height: H } = img;
  const threshold = opts.threshold ?? Math.min(200, Math.max(60, sampledOtsu(img)));
  const pxPerPt = opts.pxPerPt ?? W / 612;
  const t = Math.tan(((opts.skewDeg ?? 0) * Math.PI) / 180);
  const minStroke = Math.max(6, Math.round(MIN_STROKE_PT * pxPerPt));
  const minRule = Math.max(12, Math.round(MIN_RULE_PT * pxPerPt));
  const maxThick = Math.max(3, MAX_THICK_PT * pxPerPt);
  const gap = Math.max(1, Math.round(0.25 * pxPerPt));

  const hRuns = horizontalRuns(img, threshold, t, minStroke, gap);
  const vRuns = verticalRuns(img, threshold, t, minStroke, gap);
  const hStrokes = joinRuns(hRuns, maxThick);
  const vStrokes = joinRuns(vRuns, maxThick);

  const flankH = (s: Stroke) => flank(img, threshold, s, t, 'h');
  const flankV = (s: Stroke) => flank(img, threshold, s, t, 'v');
  const longH = hStrokes.filter((s) => s.b - s.a + 1 >= minRule && flankH(s) <= MAX_FLANK);
  const longV = vStrokes.filter((s) => s.b - s.a + 1 >= minRule && flankV(s) <= MAX_FLANK);
  // a short stroke joining two rules at both ends is a rule piece (comb divider, side of a narrow box)
  const tol = (s: Stroke) => s.thickness / 2 + gap + 2;
  const bridges = (s: Stroke, across: Stroke[]) => [s.a, s.b + 1].every((end) => across.some((q) =>
    Math.abs(q.p - end) <= tol(s) + q.thickness / 2 && s.p >= q.a - tol(q) && s.p <= q.b + 1 + tol(q)));
  const shortV = vStrokes.filter((s) => s.b - s.a + 1 < minRule && bridges(s, longH) && flankV(s) <= MAX_FLANK);
  const shortH = hStrokes.filter((s) => s.b - s.a + 1 < minRule && bridges(s, longV) && flankH(s) <= MAX_FLANK);

  const inner = (s: Stroke, side: number, span: number) => {
    const m = EDGE_MARGIN * span;
    return s.p > m && s.p < side - m;
  };
  const horizontal = [...longH, ...shortH].filter((s) => inner(s, H, H)).slice(0, MAX_LINES).map((s) => toLine(s, t, 'h', W / 2, H / 2));
  const vertical = [...longV, ...shortV].filter((s) => inner(s, W, W)).slice(0, MAX_LINES).map((s) => toLine(s, t, 'v', W / 2, H / 2));
  const squares = findSquares(img, threshold, hStrokes, pxPerPt, gap, t);
  return { horizontal, vertical, squares, threshold };
}

/**
 * Row runs of ink read along the skew: pixel x of sheared row `p` is image row p + round(x·tan).
 * Runs allow gaps of `gap` pixels and must be at least `minLen` long and MIN_FILL dark.
 */
function horizontalRuns(img: GreyImage, T: number, t: number, minLen: number, gap: number): Run[] {
  const { data, width: W, height: H } = img;
  // stretches of columns read from the same image row offset: [x, dy] pairs, ending at W
  const stretches: number[] = [];
  let dmin = 0, dmax = 0;
  for (let x = 0; x < W; x++) {
    const d = Math.round(x * t);
    if (x === 0 || d !== stretches[stretches.length - 1]) stretches.push(x, d);
    dmin = Math.min(dmin, d); dmax = Math.max(dmax, d);
  }
  stretches.push(W, 0);
  const runs: Run[] = [];
  for (let p = -dmax; p < H - dmin; p++) {
    let start = -1, last = -2, dark = 0;
    for (let k = 0; k + 2 < stretches.length; k += 2) {
      const y = p + stretches[k + 1];
      if (y < 0 || y >= H) continue;
      const row = y * W, end = stretches[k + 2];
      for (let x = stretches[k]; x < end; x++) {
        if (data[row + x] >= T) continue;
        if (x - last - 1 > gap) {
          if (start >= 0 && last - start + 1 >= minLen && dark >= MIN_FILL * (last - start + 1)) runs.push({ p, a: start, b: last, dark });
          start = x; dark = 0;
        }
        last = x; dark++;
      }
    }
    if (start >= 0 && last - start + 1 >= minLen && dark >= MIN_FILL * (last - start + 1)) runs.push({ p, a: start, b: last, dark });
  }
  return runs;
}

/**
 * Column runs of ink read along the skew: pixel y of sheared column `p` is image column p − round(y·tan).
 * One row-major pass with per-column state; runs come out sorted by column then start.
 */
function verticalRuns(img: GreyImage, T: number, t: number, minLen: number, gap: number): Run[] {
  const { data, width: W, height: H } = img;
  const dx = new Int32Array(H);
  let dmin = 0, dmax = 0;
  for (let y = 0; y < H; y++) { dx[y] = -Math.round(y * t); dmin = Math.min(dmin, dx[y]); dmax = Math.max(dmax, dx[y]); }
  // column p = x - dx[y]; p ranges over [-dmax, W - 1 - dmin]
  const N = W + dmax - dmin, off = dmax;
  const start = new Int32Array(N).fill(-1), last = new Int32Array(N).fill(-2), dark = new Int32Array(N);
  const byCol: Run[][] = Array.from({ length: N }, () => []);
  const close = (k: number) => {
    const len = last[k] - start[k] + 1;
    if (start[k] >= 0 && len >= minLen && dark[k] >= MIN_FILL * len) byCol[k].push({ p: k - off, a: start[k], b: last[k], dark: dark[k] });
  };
  for (let y = 0; y < H; y++) {
    const row = y * W, shift = off - dx[y];
    for (let x = 0; x < W; x++) {
      if (data[row + x] >= T) continue;
      const k = x + shift;
      if (y - last[k] - 1 > gap) { close(k); start[k] = y; dark[k] = 0; }
      last[k] = y; dark[k]++;
    }
  }
  for (let k = 0; k < N; k++) close(k);
  return byCol.flat();
}

/**
 * Joins runs of adjacent rows (columns) that overlap into strokes; a stroke thicker than `maxThick`
 * (ink per unit length) is a filled area, not a rule. Runs arrive sorted by p then a.
 */
function joinRuns(runs: Run[], maxThick: number): Stroke[] {
  const n = runs.length;
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  const find = (i: number): number => { while (parent[i] !== i) { parent[i] = parent[parent[i]]; i = parent[i]; } return i; };
  let prevStart = 0, prevEnd = 0; // runs of the previous p: [prevStart, prevEnd)
  let i = 0;
  while (i < n) {
    let j = i;
    while (j < n && runs[j].p === runs[i].p) j++;
    const adjacent = prevEnd > prevStart && runs[prevStart].p === runs[i].p - 1;
    if (adjacent) {
      let k = prevStart;
      for (let r = i; r < j; r++) {
        while (k < prevEnd && runs[k].b < runs[r].a) k++;
        for (let q = k; q < prevEnd && runs[q].a <= runs[r].b; q++) {
          const ra = find(r), rb = find(q);
          if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
        }
      }
    }
    prevStart = i; prevEnd = j; i = j;
  }
  const acc = new Map<number, { a: number; b: number; p0: number; p1: number; ink: number; pw: number }>();
  for (let r = 0; r < n; r++) {
    const root = find(r), run = runs[r];
    const g = acc.get(root);
    if (!g) acc.set(root, { a: run.a, b: run.b, p0: run.p, p1: run.p, ink: run.dark, pw: run.p * run.dark });
    else {
      g.a = Math.min(g.a, run.a); g.b = Math.max(g.b, run.b);
      g.p0 = Math.min(g.p0, run.p); g.p1 = Math.max(g.p1, run.p);
      g.ink += run.dark; g.pw += run.p * run.dark;
    }
  }
  const out: Stroke[] = [];
  for (const g of acc.values()) {
    const thickness = g.ink / (g.b - g.a + 1);
    // a thin stroke may drift across a few rows over its length where the skew estimate is off
    if (thickness > maxThick || g.p1 - g.p0 + 1 > 3 * thickness + 4 + 0.02 * (g.b - g.a)) continue;
    out.push({ p: g.pw / g.ink + 0.5, a: g.a, b: g.b, thickness, p0: g.p0, p1: g.p1 });
  }
  return out;
}

/**
 * Fraction of the stroke's length with ink just outside it on the busier side (two pixels beyond its
 * edge). A rule crosses other rules now and then; the stems standing on a chain of serifs cover much of it.
 */
function flank(img: GreyImage, T: number, s: Stroke, t: number, dir: 'h' | 'v'): number {
  const { data, width: W, height: H } = img;
  const before = s.p0 - 2, after = s.p1 + 2;
  let nb = 0, na = 0, n = 0;
  for (let q = s.a; q <= s.b; q++) {
    n++;
    if (dir === 'h') {
      const d = Math.round(q * t);
      const y0 = before + d, y1 = after + d;
      if (y0 >= 0 && y0 < H && data[y0 * W + q] < T) nb++;
      if (y1 >= 0 && y1 < H && data[y1 * W + q] < T) na++;
    } else {
      const d = -Math.round(q * t);
      const x0 = before + d, x1 = after + d;
      if (x0 >= 0 && x0 < W && data[q * W + x0] < T) nb++;
      if (x1 >= 0 && x1 < W && data[q * W + x1] < T) na++;
    }
  }
  return n ? Math.max(nb, na) / n : 1;
}

/**
 * The stroke as an axis-parallel line of the deskewed image (turned by −skew about its centre, to
 * first order in the skew): every rule of a skewed grid then meets its crossing rules exactly, which
 * tilted lines squared off one by one would not.
 */
function toLine(s: Stroke, t: number, dir: 'h' | 'v', cx: number, cy: number): PixelLine {
  if (dir === 'h') {
    const y = s.p + cx * t, dx = (s.p - cy) * t;
    return { x0: s.a + dx, y0: y, x1: s.b + 1 + dx, y1: y, thickness: s.thickness };
  }
  const x = s.p - cy * t, dy = (s.p - cx) * t;
  return { x0: x, y0: s.a - dy, x1: x, y1: s.b + 1 - dy, thickness: s.thickness };
}

/**
 * Checkbox squares: a short horizontal stroke with another of the same extent below it at a square's
 * distance, straight walls down both sides between them that stop at the corners, and paper all
 * around. The interior's ink fraction says whether it is ticked.
 */
function findSquares(img: GreyImage, T: number, h: Stroke[], pxPerPt: number, gap: number, t: number): PixelSquare[] {
  const { data, width: W, height: H } = img;
  const lo = SQUARE_MIN_PT * pxPerPt, hi = SQUARE_MAX_PT * pxPerPt;
  // strokes in image rows (undo the shear at the stroke's middle; a checkbox is too small to tilt)
  const cands = h.filter((s) => s.b - s.a + 1 >= lo && s.b - s.a + 1 <= hi)
    .map((s) => ({ y: s.p + ((s.a + s.b + 1) / 2) * t, a: s.a, b: s.b, thickness: s.thickness }))
    .sort((x, y) => x.y - y.y);
  const dark = (x: number, y: number) => {
    const X = Math.round(x), Y = Math.round(y);
    return X >= 0 && Y >= 0 && X < W && Y < H && data[Y * W + X] < T;
  };
  // rows of a wall with ink in its band and paper just outside it (a letter's curve bulges out)
  const wall = (inner0: number, inner1: number, outside: number, y0: number, y1: number) => {
    let hit = 0, n = 0;
    for (let y = Math.round(y0); y <= Math.round(y1); y++) {
      n++;
      if (dark(outside, y)) continue;
      for (let x = Math.round(inner0); x <= Math.round(inner1); x++) if (dark(x, y)) { hit++; break; }
    }
    return n ? hit / n : 0;
  };
  const out: PixelSquare[] = [];
  const used = new Set<number>();
  for (let i = 0; i < cands.length; i++) {
    if (used.has(i)) continue;
    const top = cands[i];
    const w = top.b - top.a + 1, slack = Math.max(2, gap + 1, 0.12 * w);
    for (let j = i + 1; j < cands.length; j++) {
      const bot = cands[j];
      const side = bot.y - top.y;
      if (side > 1.3 * w + 2) break;
      if (used.has(j) || side < 0.75 * w - 2) continue;
      if (Math.abs(bot.a - top.a) > slack || Math.abs(bot.b - top.b) > slack) continue;
      const th = Math.max(top.thickness, bot.thickness, 1);
      const y0 = top.y - th / 2, y1 = bot.y + th / 2;
      const x0 = Math.min(top.a, bot.a), x1 = Math.max(top.b, bot.b);
      const out0 = x0 - 3 - gap, out1 = x1 + 3 + gap;
      if (wall(x0 - 1, x0 + th + 1, out0, y0 + th, y1 - th) < 0.85 || wall(x1 - th - 1, x1 + 1, out1, y0 + th, y1 - th) < 0.85) continue;
      // the walls and edges stop at the corners (a comb's cells or a grid's do not)
      // (two pixels in a row along the stroke, so a speck of noise does not count)
      const d = 3 + gap;
      const beyond = [
        [x0 + th / 2, y0 - d, 0, -1], [x0 + th / 2, y1 + d, 0, 1], [x1 - th / 2, y0 - d, 0, -1], [x1 - th / 2, y1 + d, 0, 1],
        [x0 - d, y0 + th / 2, -1, 0], [x1 + d, y0 + th / 2, 1, 0], [x0 - d, y1 - th / 2, -1, 0], [x1 + d, y1 - th / 2, 1, 0],
      ].some(([x, y, dx, dy]) => dark(x, y) && dark(x + dx, y + dy));
      if (beyond) continue;
      // a box stands alone: the ring just outside it is paper (a letter's strokes go on: the leg of an R, an E's spine)
      if (ringInk(img, T, x0 - th / 2 - gap - 2, y0 - th / 2 - gap - 2, x1 + th / 2 + gap + 2, y1 + th / 2 + gap + 2) > MAX_RING_INK) continue;
      // interior ink, inset past the walls
      const m = th + 2;
      let ink = 0, n = 0;
      for (let y = Math.round(y0 + th + m); y <= Math.round(y1 - th - m); y++) {
        for (let x = Math.round(x0 + m); x <= Math.round(x1 - m); x++) { n++; if (dark(x, y)) ink++; }
      }
      out.push({ x0, y0, x1: x1 + 1, y1, thickness: th, ink: n ? ink / n : 0 });
      used.add(i); used.add(j);
      break;
    }
  }
  return out;
}

/** Fraction of the ring around a checkbox that may be inked (a tick overshooting the box, a touching label). */
const MAX_RING_INK = 0.12;

/** Ink fraction of the ring around a box: the whole ring's and its busiest side's. */
function ringInk(img: GreyImage, T: number, x0: number, y0: number, x1: number, y1: number): number {
  const { data, width: W, height: H } = img;
  const X0 = Math.round(x0), Y0 = Math.round(y0), X1 = Math.round(x1), Y1 = Math.round(y1);
  const dark = (x: number, y: number) => (x < 0 || y < 0 || x >= W || y >= H || data[y * W + x] < T ? 1 : 0);
  const sides = [0, 0, 0, 0];
  for (let x = X0; x <= X1; x++) { sides[0] += dark(x, Y0); sides[1] += dark(x, Y1); }
  for (let y = Y0; y <= Y1; y++) { sides[2] += dark(X0, y); sides[3] += dark(X1, y); }
  const w = X1 - X0 + 1, h = Y1 - Y0 + 1;
  const total = (sides[0] + sides[1] + sides[2] + sides[3]) / (2 * w + 2 * h);
  const busiest = Math.max(sides[0] / w, sides[1] / w, sides[2] / h, sides[3] / h);
  return Math.max(total, busiest / 2);
}

/** Interior ink above this fraction means the box is ticked (an X or a check fills 10–40% of it). */
const TICKED_INK = 0.06;

/**
 * Rulings in a RawPage's terms (normalized to the image, which is the page as displayed): lines as
 * axis-parallel segments at their mean position, squares as stroked rectangles with their four edges
 * (as PDF drawing gives them), and a ticked square's ink as a dark filled rectangle inside it.
 */
export function rulingsToRaw(r: RasterRulings, img: { width: number; height: number }, page: { widthPt: number; heightPt: number }): { segments: RawSegment[]; rects: RawRect[] } {
  const W = img.width, H = img.height;
  const ptPerPx = (page.widthPt / W + page.heightPt / H) / 2;
  const norm = Math.max(page.widthPt, page.heightPt);
  const widthOf = (px: number) => r6((px * ptPerPx) / norm);
  const segments: RawSegment[] = [];
  const rects: RawRect[] = [];
  for (const l of r.horizontal) {
    const y = c01((l.y0 + l.y1) / 2 / H);
    segments.push({ x0: c01(Math.min(l.x0, l.x1) / W), y0: y, x1: c01(Math.max(l.x0, l.x1) / W), y1: y, width: widthOf(l.thickness) });
  }
  for (const l of r.vertical) {
    const x = c01((l.x0 + l.x1) / 2 / W);
    segments.push({ x0: x, y0: c01(Math.min(l.y0, l.y1) / H), x1: x, y1: c01(Math.max(l.y0, l.y1) / H), width: widthOf(l.thickness) });
  }
  for (const s of r.squares) {
    const box = { x0: c01(s.x0 / W), y0: c01(s.y0 / H), x1: c01(s.x1 / W), y1: c01(s.y1 / H) };
    rects.push({ box, filled: false, stroked: true });
    const w = widthOf(s.thickness);
    segments.push(
      { x0: box.x0, y0: box.y0, x1: box.x1, y1: box.y0, width: w }, { x0: box.x0, y0: box.y1, x1: box.x1, y1: box.y1, width: w },
      { x0: box.x0, y0: box.y0, x1: box.x0, y1: box.y1, width: w }, { x0: box.x1, y0: box.y0, x1: box.x1, y1: box.y1, width: w },
    );
    if (s.ink >= TICKED_INK) {
      const ix = 0.15 * (box.x1 - box.x0), iy = 0.15 * (box.y1 - box.y0);
      rects.push({ box: { x0: box.x0 + ix, y0: box.y0 + iy, x1: box.x1 - ix, y1: box.y1 - iy }, filled: true, stroked: false, fill: [0, 0, 0] });
    }
  }
  return { segments: segments.map(round), rects: rects.map((x) => ({ ...x, box: { x0: r6(x.box.x0), y0: r6(x.box.y0), x1: r6(x.box.x1), y1: r6(x.box.y1) } })) };
}

const r6 = (n: number) => Math.round(n * 1e6) / 1e6;
const c01 = (n: number) => (n < 0 ? 0 : n > 1 ? 1 : n);
const round = (s: RawSegment): RawSegment => ({ x0: r6(s.x0), y0: r6(s.y0), x1: r6(s.x1), y1: r6(s.y1), width: s.width });

/** Otsu's threshold over about 300k evenly spaced pixels (the full histogram costs more than the line search). */
function sampledOtsu(img: GreyImage): number {
  const step = Math.max(1, Math.floor(img.data.length / 300_000)) | 1; // odd, so samples do not fall in the same columns
  if (step === 1) return otsuThreshold(img);
  const n = Math.floor(img.data.length / step);
  const sample = new Uint8Array(n);
  for (let i = 0, j = 0; j < n; i += step, j++) sample[j] = img.data[i];
  return otsuThreshold({ data: sample, width: n, height: 1 });
}

/**
 * Drops horizontal segments that only underline text (a link, an emphasised heading): words sit right
 * on them along nearly their whole length and the line does not run on past the words. A fill-in line
 * with a value on it keeps running past the value, and table rules are mostly free of words.
 */
export function dropTextUnderlines(segments: RawSegment[], words: readonly RawWord[]): RawSegment[] {
  return segments.filter((s) => {
    if (s.y0 !== s.y1 || s.x1 - s.x0 <= 0) return true;
    const y = s.y0, len = s.x1 - s.x0;
    const on = words.filter((w) => {
      const h = w.box.y1 - w.box.y0;
      return y >= w.box.y0 + 0.5 * h && y <= w.box.y1 + 0.35 * h && w.box.x1 > s.x0 && w.box.x0 < s.x1;
    });
    if (!on.length) return true;
    const h = Math.max(...on.map((w) => w.box.y1 - w.box.y0));
    const x0 = Math.min(...on.map((w) => w.box.x0)), x1 = Math.max(...on.map((w) => w.box.x1));
    let covered = 0, reach = s.x0;
    for (const w of [...on].sort((a, b) => a.box.x0 - b.box.x0)) {
      const a = Math.max(reach, w.box.x0), b = Math.min(s.x1, w.box.x1);
      if (b > a) { covered += b - a; reach = b; }
    }
    const runsOn = s.x0 < x0 - h || s.x1 > x1 + h;
    return !(covered >= 0.8 * len && !runsOn);
  });
}
