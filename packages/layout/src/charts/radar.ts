import type { Box, ChartSeries, RawWord } from '@quire/core';
import { unionBox } from '@quire/core';
import { findLegend } from './legend.js';
import type { ChartGraphics } from './marks.js';
import type { DrawnChart, PageSize } from './read-charts.js';
import { fitScale, labelNumber, quantumOf, readValue } from './scale.js';

type Pt = [number, number];
interface Ring { points: Pt[]; colour: string; centre: Pt; radius: number }

const closedRing = (pts: readonly Pt[]): Pt[] | null => {
  if (pts.length < 4) return null;
  const [a, b] = [pts[0], pts[pts.length - 1]];
  return Math.abs(a[0] - b[0]) < 1e-3 && Math.abs(a[1] - b[1]) < 1e-3 ? pts.slice(0, -1) : null;
};

/**
 * Radar charts: a web of concentric polygons with one corner per category (grid rings), a value axis
 * up the first spoke with numeric labels at the rings, and each series a closed polygon (stroked, or
 * filled for a filled radar) whose corners lie on the spokes. A corner's distance from the centre,
 * through the scale fitted to the labels at the rings, is the value.
 */
export function readRadars(g: ChartGraphics, words: readonly RawWord[], page: PageSize): DrawnChart[] {
  const toPt = (p: Pt): Pt => [p[0] * page.width, p[1] * page.height];
  const rings: Ring[] = [];
  for (const l of g.lines) {
    const pts = closedRing(l.points);
    if (!pts || pts.length < 3) continue;
    const c: Pt = [pts.reduce((s, p) => s + p[0], 0) / pts.length, pts.reduce((s, p) => s + p[1], 0) / pts.length];
    const radius = Math.max(...pts.map((p) => Math.hypot((p[0] - c[0]) * page.width, (p[1] - c[1]) * page.height)));
    rings.push({ points: pts, colour: l.colour, centre: c, radius });
  }
  const out: DrawnChart[] = [];
  if (rings.length > 500) return out; // a pattern of closed outlines, not a radar web: the matching is quadratic
  const usedWebs = new Set<Ring>();
  for (const outer of [...rings].sort((a, b) => b.radius - a.radius)) {
    if (usedWebs.has(outer)) continue;
    const n = outer.points.length;
    // the web: rings of the same paint and corner count around the same centre
    const web = rings.filter((r) => r.colour === outer.colour && r.points.length === n && Math.hypot((r.centre[0] - outer.centre[0]) * page.width, (r.centre[1] - outer.centre[1]) * page.height) < 1.5);
    if (web.length < 2 || n < 3) continue;
    web.forEach((r) => usedWebs.add(r));
    const centre = outer.centre, cPt = toPt(centre);
    // spokes clockwise from 12 o'clock, from the outer ring's corners
    const angleOf = (p: Pt) => { const q = toPt(p); return (Math.atan2(q[0] - cPt[0], -(q[1] - cPt[1])) + 2 * Math.PI) % (2 * Math.PI); };
    const spokes = outer.points.map((p) => ({ p, angle: angleOf(p) })).sort((a, b) => a.angle - b.angle);
    // value labels at the rings' top corners: fit value against the corner's height on the page
    const tops = [centre[1], ...web.map((r) => Math.min(...r.points.map((p) => p[1])))];
    const labels = words.filter((w) => {
      const cy = (w.box.y0 + w.box.y1) / 2;
      // beside the axis up the first spoke, on either side of it
      const gap = Math.min(Math.abs(w.box.x1 - centre[0]), Math.abs(w.box.x0 - centre[0]));
      return labelNumber(w.text) !== null && gap <= 0.03 && cy >= Math.min(...tops) - 0.02 && cy <= centre[1] + 0.02;
    });
    const ticks = labels.map((w) => {
      const cy = (w.box.y0 + w.box.y1) / 2, half = (w.box.y1 - w.box.y0) / 2;
      const at = tops.reduce((best, t) => (Math.abs(t - cy) < Math.abs(best - cy) ? t : best), Infinity);
      return Math.abs(at - cy) <= half ? { at, value: labelNumber(w.text)!, word: w } : null;
    }).filter((t): t is NonNullable<typeof t> => t !== null);
    const scale = fitScale(ticks, false);
    if (!scale) continue;
    const webSet = new Set(web);
    const seriesPolys = [
      ...rings.filter((r) => !webSet.has(r) && r.colour !== outer.colour && r.points.length === n && Math.hypot((r.centre[0] - centre[0]) * page.width, (r.centre[1] - centre[1]) * page.height) <= outer.radius)
        .map((r) => ({ points: r.points, colour: r.colour, filled: false, order: 0 })),
      ...g.shapes.filter((s) => !s.curved && (closedRing(s.points) ?? s.points).length === n && insideRadius(s.box, cPt, outer.radius, page))
        .map((s) => ({ points: closedRing(s.points) ?? s.points, colour: s.colour, filled: true, order: s.order })),
    ];
    // a series' corners lie on the spokes, inside the web (a frame or a legend box with as many corners does not)
    const onSpokes = (pts: readonly Pt[]) => pts.every((p) => {
      const q = toPt(p), r = Math.hypot(q[0] - cPt[0], q[1] - cPt[1]);
      return r <= outer.radius * 1.01 && (r < 1 || spokes.some((sp) => angDist(sp.angle, angleOf(p)) < 0.03));
    });
    for (let i = seriesPolys.length - 1; i >= 0; i--) if (!onSpokes(seriesPolys[i].points)) seriesPolys.splice(i, 1);
    if (!seriesPolys.length) continue;
    const box: Box = unionBox(outer.points.map(([x, y]) => ({ x0: x, y0: y, x1: x, y1: y })))!;
    const legend = findLegend(g, words, box, { x0: box.x0 - 0.3, y0: box.y0 - 0.2, x1: box.x1 + 0.35, y1: box.y1 + 0.2 });
    const categories = spokes.map((s, k) => spokeLabel(s.p, cPt, words, page, labels) ?? k + 1);
    const filled = seriesPolys.some((p) => p.filled);
    const series: ChartSeries[] = seriesPolys.filter((p) => p.filled === filled).map((poly, i) => {
      const values = Array<number | null>(n).fill(null), interpolated = Array<boolean>(n).fill(false), markBoxes = Array<Box | null>(n).fill(null);
      for (const p of poly.points) {
        const a = angleOf(p);
        const k = spokes.reduce((best, s, j) => (angDist(s.angle, a) < angDist(spokes[best].angle, a) ? j : best), 0);
        const q = toPt(p);
        const r = Math.hypot(q[0] - cPt[0], q[1] - cPt[1]);
        const v = readValue(scale, centre[1] - r / page.height);
        if (values[k] === null) { values[k] = v.value; interpolated[k] = v.interpolated; markBoxes[k] = { x0: p[0], y0: p[1], x1: p[0], y1: p[1] }; }
      }
      const name = legend.find((e) => e.colour === poly.colour)?.label ?? legend[i]?.label ?? '';
      return { name, categories, values, interpolated, markBoxes, plotType: filled ? 'radar-filled' : 'radar' };
    });
    out.push({
      box: unionBox([box, ...labels.map((w) => w.box), ...legend.map((e) => e.box)])!,
      chart: {
        chartType: filled ? 'radar-filled' : 'radar', sourceRanges: [], series,
        drawn: {
          confidence: legend.length >= series.length ? 0.9 : 0.8, valueScale: scale.kind, uncertainty: Number((scale.residual + quantumOf(scale, 0)).toPrecision(3)),
          note: `values are the corners' distances from the centre through a ${scale.kind} scale fitted to ${scale.ticks.length} ring labels; values between rings are interpolated`,
        },
      },
    });
  }
  return out;
}

const angDist = (a: number, b: number) => { const d = Math.abs(a - b) % (2 * Math.PI); return Math.min(d, 2 * Math.PI - d); };

function insideRadius(b: Box, c: Pt, radius: number, page: PageSize): boolean {
  const cx = ((b.x0 + b.x1) / 2) * page.width, cy = ((b.y0 + b.y1) / 2) * page.height;
  return Math.hypot(cx - c[0], cy - c[1]) < radius;
}

/** The category label beyond a spoke's end: the words nearest to a point a little further out along it. */
function spokeLabel(end: Pt, c: Pt, words: readonly RawWord[], page: PageSize, exclude: readonly RawWord[]): string | null {
  const e: Pt = [end[0] * page.width, end[1] * page.height];
  const len = Math.hypot(e[0] - c[0], e[1] - c[1]) || 1;
  const target: Pt = [e[0] + ((e[0] - c[0]) / len) * 12, e[1] + ((e[1] - c[1]) / len) * 12];
  const dist = (w: RawWord) => Math.hypot(((w.box.x0 + w.box.x1) / 2) * page.width - target[0], ((w.box.y0 + w.box.y1) / 2) * page.height - target[1]);
  const near = words.filter((w) => !exclude.includes(w) && dist(w) < 40).sort((a, b) => dist(a) - dist(b));
  if (!near.length) return null;
  const first = near[0];
  const line = near.filter((w) => Math.abs(w.box.y0 - first.box.y0) < 0.004).sort((a, b) => a.box.x0 - b.box.x0);
  return line.map((w) => w.text).join(' ');
}
