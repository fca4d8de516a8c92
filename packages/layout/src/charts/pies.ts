import type { Box, RawWord } from '@quire/core';
import { unionBox } from '@quire/core';
import { findLegend } from './legend.js';
import type { ChartGraphics, ShapeMark } from './marks.js';
import type { DrawnChart, PageSize } from './read-charts.js';

const SAME_POINT = 0.003; // normalized
const MIN_PIE = 0.04; // a pie spans at least this much of the page

/**
 * Pies: filled sectors that share one vertex (the centre), their arcs together turning a full circle.
 * Each sector's share is its angle over 360°, measured in points (a page is not square). Categories are
 * the legend labels matched by fill colour; sectors are in drawing order (the series' order).
 */
export function readPies(g: ChartGraphics, words: readonly RawWord[], page: PageSize): DrawnChart[] {
  const sectors = g.shapes.filter((s) => Math.max(s.box.x1 - s.box.x0, s.box.y1 - s.box.y0) >= MIN_PIE / 4 && s.points.length >= 3);
  const groups = new Map<string, { centre: [number, number]; members: ShapeMark[] }>();
  for (const s of sectors) {
    const c = sharedVertex(s, sectors, page);
    if (!c) continue;
    const key = `${Math.round(c[0] / SAME_POINT)},${Math.round(c[1] / SAME_POINT)}`;
    const grp = groups.get(key) ?? { centre: c, members: [] };
    grp.members.push(s); groups.set(key, grp);
  }
  const out: DrawnChart[] = [];
  for (const { centre, members } of groups.values()) {
    const box = unionBox(members.map((m) => m.box))!;
    if (members.length < 2 || Math.max(box.x1 - box.x0, box.y1 - box.y0) < MIN_PIE) continue;
    const spans = members.map((m) => sweep(m, centre, page));
    const total = spans.reduce((a, b) => a + b, 0);
    if (Math.abs(total - 2 * Math.PI) > 0.02) continue; // not a full circle: a fan or a decoration
    const legend = findLegend(g, words, box, { x0: box.x0 - 0.3, y0: box.y0 - 0.2, x1: box.x1 + 0.35, y1: box.y1 + 0.2 });
    const ordered = members.map((m, i) => ({ m, share: (spans[i] / total) * 100 })).sort((a, b) => a.m.order - b.m.order);
    const categories = ordered.map(({ m }, i) => legend.find((e) => e.colour === m.colour)?.label ?? i + 1);
    const labelled = ordered.every(({ m }) => legend.some((e) => e.colour === m.colour));
    out.push({
      box: unionBox([box, ...legend.map((e) => e.box)])!,
      chart: {
        chartType: 'pie', sourceRanges: [],
        series: [{
          name: 'Series 1', plotType: 'pie', categories: categories.map((c) => (typeof c === 'string' && /^\d+$/.test(c) ? Number(c) : c)),
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

/** The vertex this sector shares with at least one other sector (or with itself twice: the apex it starts and ends at). */
function sharedVertex(s: ShapeMark, all: readonly ShapeMark[], page: PageSize): [number, number] | null {
  const near = (p: [number, number], q: [number, number]) => Math.abs(p[0] - q[0]) < SAME_POINT && Math.abs(p[1] - q[1]) < SAME_POINT;
  for (const p of s.points) {
    const others = all.filter((o) => o !== s && o.points.some((q) => near(p, q))).length;
    // an apex is not on the arc: it lies inside the sector's bounding box but away from its edge points' circle
    if (others >= 1 && all.filter((o) => o !== s && o.points.some((q) => near(p, q))).every((o) => o.colour !== s.colour)) {
      const count = s.points.filter((q) => near(p, q)).length;
      if (count >= 1 && isApex(p, s, page)) return p;
    }
  }
  return null;
}

/** The apex is the point all other vertices are (nearly) equally far from. */
function isApex(p: [number, number], s: ShapeMark, page: PageSize): boolean {
  const ds = s.points.map((q) => Math.hypot((q[0] - p[0]) * page.width, (q[1] - p[1]) * page.height)).filter((d) => d > SAME_POINT * Math.max(page.width, page.height));
  if (ds.length < 2) return false;
  const max = Math.max(...ds), min = Math.min(...ds);
  return min > 0.9 * max;
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
