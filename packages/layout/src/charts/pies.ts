import type { Box, RawWord } from '@quire/core';
import { unionBox } from '@quire/core';
import { findLegend, type LegendEntry } from './legend.js';
import type { ChartGraphics, ShapeMark } from './marks.js';
import type { DrawnChart, PageSize } from './read-charts.js';

const SAME_POINT = 0.003; // normalized
const MIN_PIE = 0.04; // a pie spans at least this much of the page
const MAX_SHAPES = 300; // more filled shapes than this on a page is a map or a pattern

/**
 * Pies: filled sectors that share one vertex (the centre), their arcs together turning a full circle.
 * Each sector's share is its angle over 360°, measured in points (a page is not square). Categories are
 * the legend labels matched by fill colour; sectors are in drawing order (the series' order).
 */
export function readPies(g: ChartGraphics, words: readonly RawWord[], page: PageSize): DrawnChart[] {
  const sectors = g.shapes.filter((s) => Math.max(s.box.x1 - s.box.x0, s.box.y1 - s.box.y0) >= MIN_PIE / 4 && s.points.length >= 3);
  if (sectors.length > MAX_SHAPES) return []; // a map or a pattern, not a pie: the vertex matching is quadratic
  const groups = new Map<string, { centre: [number, number]; members: ShapeMark[] }>();
  const loose: ShapeMark[] = [];
  const index = new PointIndex(sectors);
  for (const s of sectors) {
    const c = sharedVertex(s, index, page);
    if (!c) { loose.push(s); continue; }
    const key = `${Math.round(c[0] / SAME_POINT)},${Math.round(c[1] / SAME_POINT)}`;
    const grp = groups.get(key) ?? { centre: c, members: [] };
    grp.members.push(s); groups.set(key, grp);
  }
  const pies = [...[...groups.values()].map(({ centre, members }) => ({ members, apexes: members.map(() => centre) })), ...explodedPies(loose, page)];
  const out: DrawnChart[] = [];
  for (const { members, apexes } of pies) {
    const box = unionBox(members.map((m) => m.box))!;
    if (members.length < 2 || Math.max(box.x1 - box.x0, box.y1 - box.y0) < MIN_PIE) continue;
    const spans = members.map((m, i) => sweep(m, apexes[i], page));
    const total = spans.reduce((a, b) => a + b, 0);
    if (Math.abs(total - 2 * Math.PI) > 0.02) continue; // not a full circle: a fan or a decoration
    const legend = findLegend(g, words, box, { x0: box.x0 - 0.3, y0: box.y0 - 0.2, x1: box.x1 + 0.35, y1: box.y1 + 0.2 });
    const ordered = members.map((m, i) => ({ m, share: (spans[i] / total) * 100 })).sort((a, b) => a.m.order - b.m.order);
    const categories = sliceLabels(ordered.map(({ m }) => m), legend);
    const labelled = categories.every((c) => typeof c === 'string');
    out.push({
      box: unionBox([box, ...legend.map((e) => e.box)])!,
      chart: {
        chartType: 'pie', sourceRanges: [],
        series: [{
          name: '', plotType: 'pie', categories: categories.map((c) => (typeof c === 'string' && /^\d+$/.test(c) ? Number(c) : c)),
          values: ordered.map((o) => Number(o.share.toFixed(4))), markBoxes: ordered.map((o) => o.m.box as Box), interpolated: ordered.map(() => true),
        }],
        drawn: {
          confidence: labelled ? 0.95 : 0.8, valueScale: 'share',
          uncertainty: Number((Math.abs(total - 2 * Math.PI) / (2 * Math.PI) * 100 + 0.01).toPrecision(3)),
          note: 'values are each slice\'s share of the pie in percent, from the sector angles; a pie draws no scale, so the absolute values are not recoverable unless printed as data labels',
        },
      },
    });
  }
  return out;
}

/**
 * Exploded pies: sectors pulled out from the centre each keep an apex of their own, none shared. Sectors
 * of one radius whose apexes lie within that radius of each other are one pie (the full-turn check in
 * readPies then confirms it); each sector's angle is measured around its own apex.
 */
function explodedPies(loose: readonly ShapeMark[], page: PageSize): { members: ShapeMark[]; apexes: [number, number][] }[] {
  const withApex = loose.flatMap((s) => {
    const apex = s.points.find((p) => isApex(p, s, page));
    if (!apex) return [];
    const r = Math.max(...s.points.map((q) => Math.hypot((q[0] - apex[0]) * page.width, (q[1] - apex[1]) * page.height)));
    return [{ s, apex, r }];
  });
  const out: { members: ShapeMark[]; apexes: [number, number][] }[] = [];
  const used = new Set<ShapeMark>();
  for (const seed of withApex) {
    if (used.has(seed.s)) continue;
    const group = withApex.filter((o) => !used.has(o.s) && Math.abs(o.r - seed.r) < 0.1 * seed.r
      && Math.hypot((o.apex[0] - seed.apex[0]) * page.width, (o.apex[1] - seed.apex[1]) * page.height) < seed.r);
    if (group.length < 2) continue;
    for (const o of group) used.add(o.s);
    out.push({ members: group.map((o) => o.s), apexes: group.map((o) => o.apex) });
  }
  return out;
}

/** The vertex this sector shares with at least one other sector (or with itself twice: the apex it starts and ends at). */
function sharedVertex(s: ShapeMark, index: PointIndex, page: PageSize): [number, number] | null {
  const near = (p: [number, number], q: [number, number]) => Math.abs(p[0] - q[0]) < SAME_POINT && Math.abs(p[1] - q[1]) < SAME_POINT;
  for (const p of s.points) {
    const others = index.shapesNear(p).filter((o) => o !== s);
    // an apex is not on the arc: it lies inside the sector's bounding box but away from its edge points' circle
    if (others.length >= 1 && others.every((o) => o.colour !== s.colour)) {
      const count = s.points.filter((q) => near(p, q)).length;
      if (count >= 1 && isApex(p, s, page)) return p;
    }
  }
  return null;
}

/**
 * The shapes with a vertex near a point, from a grid of SAME_POINT cells: looking up each vertex's
 * neighbours in every other shape's vertex list was quadratic in the page's vertices, and pages of filled
 * table cells and maps have thousands.
 */
class PointIndex {
  private readonly cells = new Map<string, { shape: ShapeMark; p: [number, number] }[]>();
  constructor(shapes: readonly ShapeMark[]) {
    for (const shape of shapes) for (const p of shape.points) {
      const key = this.key(Math.floor(p[0] / SAME_POINT), Math.floor(p[1] / SAME_POINT));
      const cell = this.cells.get(key);
      if (cell) cell.push({ shape, p }); else this.cells.set(key, [{ shape, p }]);
    }
  }
  private key(i: number, j: number): string { return `${i},${j}`; }
  /** Distinct shapes with a vertex within SAME_POINT of p on both axes. */
  shapesNear(p: [number, number]): ShapeMark[] {
    const i = Math.floor(p[0] / SAME_POINT), j = Math.floor(p[1] / SAME_POINT);
    const out = new Set<ShapeMark>();
    for (let di = -1; di <= 1; di++) for (let dj = -1; dj <= 1; dj++) {
      for (const e of this.cells.get(this.key(i + di, j + dj)) ?? []) {
        if (Math.abs(e.p[0] - p[0]) < SAME_POINT && Math.abs(e.p[1] - p[1]) < SAME_POINT) out.add(e.shape);
      }
    }
    return [...out];
  }
}

/** The apex is the point all other vertices are (nearly) equally far from; stops at the first pair that says no. */
function isApex(p: [number, number], s: ShapeMark, page: PageSize): boolean {
  const eps = SAME_POINT * Math.max(page.width, page.height);
  let min = Infinity, max = 0, n = 0;
  for (const q of s.points) {
    const d = Math.hypot((q[0] - p[0]) * page.width, (q[1] - p[1]) * page.height);
    if (d <= eps) continue;
    n++;
    if (d < min) min = d;
    if (d > max) max = d;
    if (min <= 0.9 * max) return false;
  }
  return n >= 2;
}

/** Angle a sector turns around the centre, in radians, measured in points. */
function sweep(s: ShapeMark, c: [number, number], page: PageSize): number {
  const arc = arcOf(s.points, c);
  let total = 0;
  for (let i = 1; i < arc.length; i++) {
    const a0 = Math.atan2((arc[i - 1][1] - c[1]) * page.height, (arc[i - 1][0] - c[0]) * page.width);
    const a1 = Math.atan2((arc[i][1] - c[1]) * page.height, (arc[i][0] - c[0]) * page.width);
    let d = a1 - a0;
    while (d > Math.PI) d -= 2 * Math.PI;
    while (d < -Math.PI) d += 2 * Math.PI;
    total += d;
  }
  return Math.abs(total);
}

/** The arc's points in drawing order: the outline's cycle read from just after the centre to just before it. */
function arcOf(points: readonly [number, number][], c: [number, number]): [number, number][] {
  const isCentre = (q: [number, number]) => Math.abs(q[0] - c[0]) < SAME_POINT && Math.abs(q[1] - c[1]) < SAME_POINT;
  const pts = points.length > 1 && points[0][0] === points[points.length - 1][0] && points[0][1] === points[points.length - 1][1] ? points.slice(0, -1) : [...points];
  const n = pts.length;
  const start = pts.findIndex((q, i) => isCentre(q) && !isCentre(pts[(i + 1) % n]));
  if (start < 0) return [];
  const arc: [number, number][] = [];
  for (let k = 1; k < n && !isCentre(pts[(start + k) % n]); k++) arc.push(pts[(start + k) % n]);
  return arc;
}

/**
 * Doughnuts: ring segments (filled, curved, no apex) around one centre, the centre of the ring they
 * close together. A segment's share is the angle its outline spans. Concentric rings are separate
 * series, outermost last (the order office suites draw them in: the first series innermost).
 */
export function readDoughnuts(g: ChartGraphics, words: readonly RawWord[], page: PageSize, taken: readonly Box[]): DrawnChart[] {
  // curved outlines, or arcs flattened into many straight edges
  const segs = g.shapes.filter((s) => (s.curved || s.points.length >= 8) && s.points.length >= 4 && !taken.some((b) => centreIn(b, s.box)));
  if (segs.length > MAX_SHAPES) return [];
  const out: DrawnChart[] = [];
  const used = new Set<ShapeMark>();
  for (const seed of segs) {
    if (used.has(seed)) continue;
    // the segments that touch, transitively: one doughnut
    const group = [seed];
    used.add(seed);
    for (let i = 0; i < group.length; i++) for (const s of segs) if (!used.has(s) && touches(group[i].box, s.box)) { used.add(s); group.push(s); }
    if (group.length < 2) continue;
    const box = unionBox(group.map((m) => m.box))!;
    const w = (box.x1 - box.x0) * page.width, h = (box.y1 - box.y0) * page.height;
    if (Math.abs(w - h) > 0.05 * Math.max(w, h) || Math.max(box.x1 - box.x0, box.y1 - box.y0) < MIN_PIE) continue;
    // the centre: a circle through the outer edge's points (the box misses the arcs' extremes between end points)
    const guess: [number, number] = [((box.x0 + box.x1) / 2) * page.width, ((box.y0 + box.y1) / 2) * page.height];
    const all = group.flatMap((m) => m.points.map(([x, y]) => [x * page.width, y * page.height] as [number, number]));
    const far = Math.max(...all.map(([x, y]) => Math.hypot(x - guess[0], y - guess[1])));
    const c = fitCircle(all.filter(([x, y]) => Math.hypot(x - guess[0], y - guess[1]) > 0.8 * far)) ?? guess;
    const R = Math.max(...all.map(([x, y]) => Math.hypot(x - c[0], y - c[1])));
    const polar = group.map((m) => {
      const rs = m.points.map(([x, y]) => Math.hypot(x * page.width - c[0], y * page.height - c[1]));
      return { m, rIn: Math.min(...rs), rOut: Math.max(...rs), span: angularSpan(m.points.map(([x, y]) => Math.atan2(y * page.height - c[1], x * page.width - c[0]))) };
    });
    if (polar.some((p) => p.rIn < 0.2 * R)) continue; // an apex at the centre: a pie (readPies)
    // rings: segments with the same inner and outer radius
    const rings: (typeof polar)[] = [];
    for (const p of [...polar].sort((a, b) => a.rIn - b.rIn)) {
      const ring = rings.find((r) => Math.abs(r[0].rIn - p.rIn) < 0.03 * R && Math.abs(r[0].rOut - p.rOut) < 0.03 * R);
      if (ring) ring.push(p); else rings.push([p]);
    }
    const totals = rings.map((r) => r.reduce((t, p) => t + p.span, 0));
    if (totals.some((t) => Math.abs(t - 2 * Math.PI) > 0.03)) continue;
    const legend = findLegend(g, words, box, { x0: box.x0 - 0.3, y0: box.y0 - 0.2, x1: box.x1 + 0.35, y1: box.y1 + 0.2 });
    const series = rings.map((ring, i) => {
      const ordered = [...ring].sort((a, b) => a.m.order - b.m.order);
      const categories = sliceLabels(ordered.map(({ m }) => m), legend);
      return {
        name: '', plotType: 'doughnut', categories: categories.map((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v)),
        values: ordered.map((o) => Number(((o.span / totals[i]) * 100).toFixed(4))), markBoxes: ordered.map((o) => o.m.box as Box), interpolated: ordered.map(() => true),
      };
    });
    out.push({
      box: unionBox([box, ...legend.map((e) => e.box)])!,
      chart: {
        chartType: 'doughnut', sourceRanges: [], series,
        drawn: {
          confidence: legend.length ? 0.9 : 0.8, valueScale: 'share', uncertainty: 0.1,
          note: 'values are each segment\'s share of its ring in percent, from the angle it spans; a doughnut draws no scale, so absolute values are not recoverable unless printed as data labels',
        },
      },
    });
  }
  return out;
}

/**
 * Each slice's category: the legend label whose key has the slice's colour; when the slices share colours
 * (one gradient or one fill for the whole series) and the legend has a key per slice, the k-th key drawn
 * names the k-th slice drawn (an office suite draws both in category order). Unnamed slices are numbered.
 */
function sliceLabels(slices: readonly ShapeMark[], legend: readonly LegendEntry[]): (string | number)[] {
  const alike = new Set(slices.map((m) => m.colour)).size < slices.length;
  if (alike && legend.length === slices.length) return [...legend].sort((a, b) => a.order - b.order).map((e) => e.label);
  return slices.map((m, k) => legend.find((e) => e.colour === m.colour)?.label ?? k + 1);
}

const centreIn = (b: Box, m: Box) => { const x = (m.x0 + m.x1) / 2, y = (m.y0 + m.y1) / 2; return x >= b.x0 && x <= b.x1 && y >= b.y0 && y <= b.y1; };
const touches = (a: Box, b: Box) => a.x0 - 0.003 <= b.x1 && b.x0 - 0.003 <= a.x1 && a.y0 - 0.003 <= b.y1 && b.y0 - 0.003 <= a.y1;

/** The smallest arc holding every angle: a full turn less the largest gap between neighbouring angles. */
function angularSpan(angles: number[]): number {
  const a = angles.map((x) => (x + 2 * Math.PI) % (2 * Math.PI)).sort((p, q) => p - q);
  let gap = a[0] + 2 * Math.PI - a[a.length - 1];
  for (let i = 1; i < a.length; i++) gap = Math.max(gap, a[i] - a[i - 1]);
  return 2 * Math.PI - gap;
}

/** Least-squares circle centre through points (x² + y² + a·x + b·y + c = 0), or null when they are too few or collinear. */
function fitCircle(pts: readonly [number, number][]): [number, number] | null {
  if (pts.length < 3) return null;
  // normal equations of the algebraic fit, 3×3, solved by Cramer's rule
  let sxx = 0, sxy = 0, syy = 0, sx = 0, sy = 0, sxz = 0, syz = 0, sz = 0;
  const n = pts.length;
  for (const [x, y] of pts) {
    const z = x * x + y * y;
    sxx += x * x; sxy += x * y; syy += y * y; sx += x; sy += y; sxz += x * z; syz += y * z; sz += z;
  }
  const m = [[sxx, sxy, sx], [sxy, syy, sy], [sx, sy, n]], r = [-sxz, -syz, -sz];
  const det = (a: number[][]) => a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
  const d = det(m);
  if (Math.abs(d) < 1e-9) return null;
  const col = (k: number) => m.map((row, i) => row.map((v, j) => (j === k ? r[i] : v)));
  const a = det(col(0)) / d, b = det(col(1)) / d;
  return [-a / 2, -b / 2];
}
