import type { Box, ChartData, ChartSeries, RawPage, RawWord } from '@quire/core';
import { unionBox, checkInterrupt } from '@quire/core';
import { findValueAxes, isReversed, type ValueAxis } from './axes.js';
import { findLegend, type LegendEntry } from './legend.js';
import { centreOf, chartGraphics, inside, outlineKey, type BoxMark, type ChartGraphics, type LineMark, type ShapeMark } from './marks.js';
import { readDoughnuts, readPies } from './pies.js';
import { readRadars } from './radar.js';
import { coordinateOf, labelNumber, quantumOf, readValue, roundTo, valueAt, type ValueScale } from './scale.js';

/** A chart recognised in a page's vector drawing, with its series read off the drawing. */
export interface DrawnChart {
  /** Plot area, axis labels and legend together (normalized). */
  box: Box;
  chart: ChartData;
}

/** The page size in points: angles and distances are measured in points, not in normalized units. */
export interface PageSize { width: number; height: number }

/**
 * Charts drawn as vector graphics on one page: value axes (numeric tick labels on a linear or log
 * scale, with grid or axis lines running from them), the marks inside each plot area (bars, polylines,
 * filled areas, scatter markers), legend keys matched to series by colour, category labels along the
 * other axis; and pies (filled sectors around a shared centre). Pure: the page's graphics and words in,
 * chart models out. A drawing with no readable axis and no pie is no chart here (the figure classifier
 * still judges it).
 */
export function readDrawnCharts(raw: RawPage, words: readonly RawWord[]): DrawnChart[] {
  const g = chartGraphics(raw);
  if (!g.boxes.length && !g.lines.length && !g.shapes.length) return [];
  const page: PageSize = { width: raw.width || 612, height: raw.height || 792 };
  const axes = findValueAxes(words, g.rules);
  const charts: DrawnChart[] = [];
  const used = new Set<ValueAxis>();
  for (const a of axes) {
    checkInterrupt();
    if (used.has(a) || a.side === 'right') continue;
    const other = axes.find((b) => b !== a && b.along !== a.along && !used.has(b) && !b.side && overlaps(a.plot, b.plot));
    // a secondary axis on the plot's right edge, beside this one
    const second = a.along === 'y' ? axes.find((b) => b.side === 'right' && !used.has(b) && Math.abs(b.plot.x0 - a.plot.x1) < 0.01
      && Math.min(b.plot.y1, a.plot.y1) - Math.max(b.plot.y0, a.plot.y0) > 0.5 * (a.plot.y1 - a.plot.y0)) : undefined;
    // the plots of the page's other charts: a legend key nearer one of them is that chart's
    const foreign = axes.filter((b) => b !== a && b !== other && b !== second && !b.side && !overlaps(b.plot, a.plot)).map((b) => b.plot);
    let read = other ? readScatter(a.along === 'x' ? a : other, a.along === 'y' ? a : other, g, words, page, foreign) : null;
    // bars against numbered categories: both sides carry numbers, the value axis is the one the bars grow from
    for (const axis of read ? [] : other ? byBarBaseline([a, other], g.boxes) : [a]) {
      read = readCartesian(axis, g, words, new Set([...axis.labels, ...(second?.labels ?? [])]), axis === a ? second : undefined, foreign);
      if (read) break;
    }
    if (!read) continue;
    used.add(a);
    if (other) used.add(other);
    if (second) used.add(second);
    if (charts.some((c) => overlaps(c.box, read.box))) continue;
    charts.push(read);
  }
  for (const polar of [...readPies(g, words, page), ...readRadars(g, words, page)]) if (!charts.some((c) => overlaps(c.box, polar.box))) charts.push(polar);
  for (const ring of readDoughnuts(g, words, page, charts.map((c) => c.box))) if (!charts.some((c) => overlaps(c.box, ring.box))) charts.push(ring);
  return charts.map((c) => withSeriesNames(withTitle(c, words)));
}

/**
 * Series the drawing names nowhere (readers leave '' for them): a chart of one series is titled after
 * that series unless a title is set (office suites' automatic title; a pie's legend names its slices, not
 * the series), so its one series takes the title; others are numbered "Series k" as office suites do.
 */
function withSeriesNames(c: DrawnChart): DrawnChart {
  if (c.chart.series.every((s) => s.name)) return c;
  const fromTitle = c.chart.series.length === 1 && !!c.chart.title;
  const series = c.chart.series.map((s, i) => (s.name ? s : { ...s, name: fromTitle ? c.chart.title! : `Series ${i + 1}` }));
  const drawn = c.chart.drawn && fromTitle ? { ...c.chart.drawn, note: `${c.chart.drawn.note}; the series is named after the chart's title (an office suite titles a one-series chart with its series' name unless a title is set)` } : c.chart.drawn;
  return { ...c, chart: { ...c.chart, series, ...(drawn ? { drawn } : {}) } };
}

const TITLE_REACH = 0.07; // normalized: a chart's title sits just above it

/**
 * The chart's title: the nearest short line of text just above the chart, over it, printed larger than
 * the chart's own labels (a caption or running text above is farther, longer, or no larger).
 */
function withTitle(c: DrawnChart, words: readonly RawWord[]): DrawnChart {
  const inner = words.filter((w) => inside(c.box, ...centreOf(w.box)));
  const labelSize = inner.length ? Math.max(...inner.map((w) => w.fontSize)) : 0;
  const above = words.filter((w) => {
    const cx = (w.box.x0 + w.box.x1) / 2;
    return w.box.y1 <= c.box.y0 + 0.002 && w.box.y1 >= c.box.y0 - TITLE_REACH && cx >= c.box.x0 && cx <= c.box.x1 && w.fontSize > 1.1 * labelSize;
  });
  if (!above.length) return c;
  const nearest = Math.max(...above.map((w) => w.box.y1));
  const line = above.filter((w) => Math.abs(w.box.y1 - nearest) < 0.006).sort((p, q) => p.box.x0 - q.box.x0);
  if (line.length > 12) return c;
  const title = line.map((w) => w.text).join(' ');
  return { box: unionBox([c.box, ...line.map((w) => w.box)])!, chart: { ...c.chart, title } };
}

/** Axes ordered by how many bars in their plot start from one line across them (their baseline). */
function byBarBaseline(axes: ValueAxis[], boxes: readonly BoxMark[]): ValueAxis[] {
  const score = (a: ValueAxis) => {
    const ends = new Map<number, number>();
    for (const b of boxes) {
      if (!inside(a.plot, ...centreOf(b.box), 0.004)) continue;
      for (const e of a.along === 'y' ? [b.box.y0, b.box.y1] : [b.box.x0, b.box.x1]) ends.set(Math.round(e * 500), (ends.get(Math.round(e * 500)) ?? 0) + 1);
    }
    return Math.max(0, ...ends.values());
  };
  return [...axes].sort((p, q) => score(q) - score(p));
}

const overlaps = (a: Box, b: Box) => Math.min(a.x1, b.x1) > Math.max(a.x0, b.x0) && Math.min(a.y1, b.y1) > Math.max(a.y0, b.y0);
const area = (b: Box) => (b.x1 - b.x0) * (b.y1 - b.y0);
const rectilinearLine = (l: LineMark) => l.points.every((p, i) => i === 0 || Math.abs(p[0] - l.points[i - 1][0]) < 1e-3 || Math.abs(p[1] - l.points[i - 1][1]) < 1e-3);

const BAND_GAP = 0.012; // normalized: words of one label column are closer across the page than this (a word space)

type CategoryLabel = { text: string; at: number; box: Box; words: RawWord[] };

/**
 * Category labels: words along the category axis line, grouped into one label per slot. The line is the
 * plot's edge, or `crossing` (a coordinate inside the plot) where the category axis crosses the value axis
 * at 0 between negative and positive values: labels are printed next to that line, over the plot.
 */
function categoryLabels(plot: Box, along: 'x' | 'y', words: readonly RawWord[], exclude: ReadonlySet<RawWord>, side: 'near' | 'far', crossing?: number): CategoryLabel[] {
  // 'near': under the plot (left of it for horizontal bars); 'far': above it (right of it), a reversed value axis' side
  const far = side === 'far';
  const lineAt = crossing ?? (along === 'y' ? (far ? plot.y0 : plot.y1) : (far ? plot.x1 : plot.x0));
  const picked = words.filter((w) => {
    if (exclude.has(w)) return false;
    const [cx, cy] = centreOf(w.box);
    if (along === 'y') {
      const across = cx >= plot.x0 - 0.01 && cx <= plot.x1 + 0.01;
      return across && (far ? w.box.y1 <= lineAt + 0.002 && w.box.y1 >= lineAt - 0.07 : w.box.y0 >= lineAt - 0.002 && w.box.y0 <= lineAt + 0.07);
    }
    const across = cy >= plot.y0 - 0.01 && cy <= plot.y1 + 0.01;
    return across && (far ? w.box.x0 >= lineAt - 0.002 && w.box.x0 <= lineAt + 0.15 : w.box.x1 <= lineAt + 0.002 && w.box.x1 >= lineAt - 0.15);
  });
  if (far && !picked.length) return categoryLabels(plot, along, words, exclude, 'near', crossing);
  // the labels' band: the first line(s) of text next to the axis, not a legend, title or caption further out
  if (picked.length && along === 'y') {
    const size = Math.max(...picked.map((w) => w.box.y1 - w.box.y0));
    const distance = (w: RawWord) => (far ? lineAt - w.box.y1 : w.box.y0 - lineAt);
    const nearest = Math.min(...picked.map(distance));
    for (let i = picked.length - 1; i >= 0; i--) if (distance(picked[i]) > nearest + 2.2 * size) picked.splice(i, 1);
  }
  // beside horizontal bars, the labels' band: the words whose extents across the page join up with the
  // label nearest the axis; cells or a table printed farther out, past a clear gap, are no labels
  if (picked.length && along === 'x') {
    const distance = (w: RawWord) => (far ? w.box.x0 - lineAt : lineAt - w.box.x1);
    const byDistance = [...picked].sort((p, q) => distance(p) - distance(q));
    let edge = far ? byDistance[0].box.x1 : byDistance[0].box.x0;
    const band = new Set<RawWord>();
    for (const w of byDistance) {
      if (far ? w.box.x0 > edge + BAND_GAP : w.box.x1 < edge - BAND_GAP) continue;
      band.add(w);
      edge = far ? Math.max(edge, w.box.x1) : Math.min(edge, w.box.x0);
    }
    for (let i = picked.length - 1; i >= 0; i--) if (!band.has(picked[i])) picked.splice(i, 1);
  }
  // words of one label overlap (or nearly touch) along the category direction; wrapped lines overlap
  const lo = (w: RawWord) => (along === 'y' ? w.box.x0 : w.box.y0), hi = (w: RawWord) => (along === 'y' ? w.box.x1 : w.box.y1);
  const sorted = [...picked].sort((a, b) => lo(a) - lo(b));
  const groups: RawWord[][] = [];
  let end = -Infinity;
  for (const w of sorted) {
    if (groups.length && lo(w) <= end + (along === 'y' ? 0.008 : 0.002)) { groups[groups.length - 1].push(w); end = Math.max(end, hi(w)); }
    else { groups.push([w]); end = hi(w); }
  }
  return groups.map((ws) => {
    const ordered = [...ws].sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
    const box = unionBox(ws.map((w) => w.box))!;
    return { text: ordered.map((w) => w.text).join(' '), at: along === 'y' ? (box.x0 + box.x1) / 2 : (box.y0 + box.y1) / 2, box, words: ws };
  });
}

/**
 * The category labels of a plot against value axis `a`: when the axis shows negative and positive values,
 * the category axis crosses at 0 inside the plot and its labels sit next to that line (bars hang below it);
 * else, or when none are there (labels moved to the plot's edge), along the plot's edge.
 */
function categoryLabelsOf(P: Box, a: ValueAxis, words: readonly RawWord[], exclude: ReadonlySet<RawWord>, side: 'near' | 'far'): CategoryLabel[] {
  const crossAt = coordinateOf(a.scale, baseline(a.scale));
  const [lo, hi] = a.along === 'y' ? [P.y0, P.y1] : [P.x0, P.x1];
  if (Number.isFinite(crossAt) && crossAt > lo + 0.01 && crossAt < hi - 0.01) {
    const inner = categoryLabels(P, a.along, words, exclude, side, crossAt);
    if (inner.length >= 2) return inner;
  }
  return categoryLabels(P, a.along, words, exclude, side);
}

/**
 * Data labels: a number printed at a mark's end (a bar's top, a point) that agrees with the value read
 * off the scale is the value as printed: exact, not interpolated. Each label serves one mark.
 */
function dataLabels(words: readonly RawWord[], exclude: ReadonlySet<RawWord>, s: ValueScale) {
  const candidates = words.filter((w) => !exclude.has(w)).map((w) => ({ w, v: labelNumber(w.text) })).filter((c): c is { w: RawWord; v: number } => c.v !== null);
  const used = new Set<RawWord>();
  const range = Math.abs(s.ticks[s.ticks.length - 1].value - s.ticks[0].value);
  return (r: { value: number; interpolated: boolean }, [x, y]: [number, number]): { value: number; interpolated: boolean } => {
    let best: { w: RawWord; v: number; d: number } | null = null;
    for (const c of candidates) {
      if (used.has(c.w)) continue;
      const [cx, cy] = centreOf(c.w.box);
      const d = Math.hypot(cx - x, cy - y);
      if (d > 0.03 || Math.abs(c.v - r.value) > Math.max(0.005 * range, 2 * quantumOf(s, r.value))) continue;
      if (!best || d < best.d) best = { ...c, d };
    }
    if (!best) return r;
    used.add(best.w);
    return { value: best.v, interpolated: false };
  };
}

const categoryValue = (text: string): string | number => {
  const n = labelNumber(text);
  return n !== null && /^[-−]?\d+(\.\d+)?$/.test(text.trim()) ? n : text;
};

interface Reading { value: number; interpolated: boolean; box: Box }
type Pt = [number, number];

/** Bars (column/bar), lines and areas against one value axis, categories along the other side. */
function readCartesian(a: ValueAxis, g: ChartGraphics, words: readonly RawWord[], axisWords: ReadonlySet<RawWord>, secondary?: ValueAxis, foreign: readonly Box[] = []): DrawnChart | null {
  const P = a.plot, pad = 0.004;
  const lines = g.lines.filter((l) => !rectilinearLine(l) && l.points.filter(([x, y]) => inside(P, x, y, 0.01)).length >= 0.6 * l.points.length);
  // a small square on a line's vertex is that point's marker, not a bar
  const vertexCells = new Set(lines.flatMap((l) => l.points.map(([x, y]) => `${Math.round(x / 0.003)},${Math.round(y / 0.003)}`)));
  const onVertex = (b: Box) => {
    const [cx, cy] = centreOf(b), i = Math.round(cx / 0.003), j = Math.round(cy / 0.003);
    for (let di = -1; di <= 1; di++) for (let dj = -1; dj <= 1; dj++) if (vertexCells.has(`${i + di},${j + dj}`)) return true;
    return false;
  };
  const vertical = a.along === 'y'; // values up the page; categories left to right
  const reversed = isReversed(a.along, a.scale);
  // a band across the whole plot is no bar: with a reversed axis (numbers growing down a page) a striped
  // table with numbered rows would otherwise read as a chart
  const acrossPlot = (b: Box) => reversed && (vertical ? b.x1 - b.x0 : b.y1 - b.y0) > 0.6 * (vertical ? P.x1 - P.x0 : P.y1 - P.y0);
  const bars = g.boxes.filter((b) => { const [cx, cy] = centreOf(b.box); return inside(P, cx, cy, pad) && area(b.box) < 0.4 * area(P) && !onVertex(b.box) && !acrossPlot(b.box); });
  // an area lies within the plot: a filled outline reaching past it (a chart area's background painted
  // through its clipping outline) is no series
  const areas = g.shapes.filter((s) => !s.curved && inside(P, ...centreOf(s.box), pad) && s.box.x1 - s.box.x0 > 0.3 * (P.x1 - P.x0) && a.along === 'y'
    && inside(P, s.box.x0, s.box.y0, 0.01) && inside(P, s.box.x1, s.box.y1, 0.01));
  const plotted = lines.length + bars.length + areas.length;
  if (!plotted || (!lines.length && !areas.length && bars.length < 2)) return null;
  const reach = { x0: P.x0 - 0.2, y0: P.y0 - 0.15, x1: P.x1 + 0.3, y1: P.y1 + 0.15 };
  const legend = findLegend(g, words, P, reach, foreign);
  const legendWords = words.filter((w) => legend.some((e) => inside(e.box, ...centreOf(w.box))));
  // category labels sit where the category axis crosses the value axis: at its low end, the top (or right) when reversed
  const notCategory = new Set([...axisWords, ...legendWords]);
  const found = categoryLabelsOf(P, a, words, notCategory, reversed ? 'far' : 'near');
  const labels = (vertical && rotatedLabels(found, a.labels, bars, P)) || found;
  const catLo = vertical ? P.x0 : P.y0, catHi = vertical ? P.x1 : P.y1;
  let positions = categoryPositions(labels.map((l) => l.at), catLo, catHi, bars, lines, areas, vertical);
  // areas whose corners miss the label slots: a date axis, its labels at regular dates (often rotated,
  // more of them than points) and the points at their own dates; the outline's corners are the points
  const corners = vertical && !bars.length && !lines.length ? pointPositions(areas, P) : [];
  const dated = corners.length >= 2 && !corners.every((c) => positions.some((p) => Math.abs(p - c) < 0.004));
  if (dated) positions = corners;
  const n = positions.length;
  if (n < 1) return null;
  // a mark or label belongs to the nearest category position
  const slotOf = (c: number) => positions.reduce((best, p, i) => (Math.abs(p - c) < Math.abs(positions[best] - c) ? i : best), 0);
  const categories: (string | number)[] = Array.from({ length: n }, (_, i) => i + 1);
  // on a date axis the points' dates lie between the labelled ones: the categories stay numbered
  if (!dated) for (const l of labels) categories[slotOf(l.at)] = categoryValue(l.text);
  const series: (ChartSeries & { order: number })[] = [];
  // words that are no data labels: the axes', the legend's and the category labels
  const labelWords = new Set([...axisWords, ...legendWords, ...labels.flatMap((l) => l.words)]);
  const printed = dataLabels(words, labelWords, a.scale);
  const stacked = isStacked(bars, vertical);
  const base = baseline(a.scale);
  // [low-value end, high-value end] coordinates of a bar
  const along = (b: Box): [number, number] => {
    const ends: [number, number] = vertical ? [b.y1, b.y0] : [b.x0, b.x1];
    return reversed ? [ends[1], ends[0]] : ends;
  };
  for (const [colour, marks] of splitByRank(byColour(bars), (m) => slotOf(vertical ? (m.box.x0 + m.box.x1) / 2 : (m.box.y0 + m.box.y1) / 2), vertical, stacked)) {
    const values: (number | null)[] = Array(n).fill(null), boxes: (Box | null)[] = Array(n).fill(null), interp: boolean[] = Array(n).fill(false);
    for (const m of marks) {
      const k = slotOf(vertical ? (m.box.x0 + m.box.x1) / 2 : (m.box.y0 + m.box.y1) / 2);
      if (values[k] !== null) continue;
      const [lowAt, highAt] = along(m.box);
      const low = readValue(a.scale, lowAt), high = readValue(a.scale, highAt);
      let r: { value: number; interpolated: boolean };
      if (stacked) {
        const v = readValue(a.scale, highAt);
        r = { value: roundLike(v.value - low.value, a.scale), interpolated: v.interpolated || low.interpolated };
        if (high.value <= base + 1e-12) r = { value: -r.value, interpolated: r.interpolated }; // a segment below the baseline counts down
      } else r = Math.abs(high.value - base) >= Math.abs(low.value - base) ? high : low;
      const end: [number, number] = vertical ? [(m.box.x0 + m.box.x1) / 2, r === low ? lowAt : highAt] : [r === low ? lowAt : highAt, (m.box.y0 + m.box.y1) / 2];
      r = printed(r, end);
      values[k] = r.value; boxes[k] = m.box; interp[k] = r.interpolated;
    }
    series.push({ name: nameFor(colour, legend, 'fill') ?? '', categories, values, markBoxes: boxes, interpolated: interp, plotType: vertical ? 'column' : 'bar', order: Math.min(...marks.map((m) => m.order)) });
  }
  // a secondary axis carries a combination chart's lines (its columns stay on this axis); with no bars, the
  // last series (by legend key, else as drawn): a spreadsheet moves a later series onto the secondary axis
  const rank = (colour: string, kind: 'fill' | 'stroke', order: number) => legend.find((e) => e.colour === colour && e.kind === kind)?.order ?? order;
  const lastSeries = secondary && vertical && !bars.length
    ? [...byColour(lines).map(([c, m]) => ({ c, r: rank(c, 'stroke', m[0].order) })), ...byColour(areas).map(([c, m]) => ({ c, r: rank(c, 'fill', m[0].order) }))].sort((p, q) => q.r - p.r)[0]?.c
    : undefined;
  const axisOf = (colour: string): ValueAxis => (secondary && vertical && (bars.length ? true : colour === lastSeries) ? secondary : a);
  const lineAxis = secondary && vertical && (bars.length || lastSeries !== undefined) ? secondary : a;
  const printedOnSecondary = lineAxis === a ? printed : dataLabels(words, labelWords, lineAxis.scale);
  for (const [colour, marks] of byColour(lines)) {
    const onAxis = bars.length ? lineAxis : axisOf(colour);
    const printedOnLines = onAxis === a ? printed : printedOnSecondary;
    // a smoothed line is a curve sampled between its points: per category, the vertex nearest the
    // category's position is the point (a plain polyline has just that vertex in each slot)
    const nearest = Array<Pt | null>(n).fill(null);
    for (const m of marks) for (const [x, y] of m.points) {
      const c = vertical ? x : y, k = slotOf(c), best = nearest[k];
      if (!best || Math.abs(c - positions[k]) < Math.abs((vertical ? best[0] : best[1]) - positions[k]) - 1e-9) nearest[k] = [x, y];
    }
    const readings = nearest.map((p): Reading | null => {
      if (!p) return null;
      const r = readValue(onAxis.scale, vertical ? p[1] : p[0]);
      return { ...printedOnLines(r, p), box: { x0: p[0], y0: p[1], x1: p[0], y1: p[1] } };
    });
    series.push(lineSeries(nameFor(colour, legend, 'stroke'), categories, readings, 'line', marks[0].order));
  }
  // areas: the top edge carries the values; a bottom edge off the baseline is the series below (stacked)
  const near = n > 1 ? 0.25 * Math.min(...positions.slice(1).map((p, i) => Math.abs(p - positions[i]))) : 0.01;
  let areaStacked = false;
  const outlines = byColour(areas).map(([colour, marks]) => {
    const tops = Array<Pt | null>(n).fill(null), bottoms = Array<number | null>(n).fill(null);
    for (const m of marks) for (const [x, y] of m.points) {
      const k = slotOf(x);
      if (Math.abs(positions[k] - x) > near) continue;
      // the value edge is the one farther from the baseline: the top, or the bottom on a reversed axis
      if (!tops[k] || (reversed ? y > tops[k]![1] : y < tops[k]![1])) tops[k] = [x, y];
      if (bottoms[k] === null || (reversed ? y < bottoms[k]! : y > bottoms[k]!)) bottoms[k] = y;
    }
    return { colour, marks, tops, bottoms };
  });
  for (const o of outlines) {
    const { scale } = axisOf(o.colour);
    const baseAt = coordinateOf(scale, baseline(scale));
    // stacked: the bottom edge runs along another series' top edge, not along the baseline
    const onBase = o.bottoms.every((b) => b === null || Math.abs(b - baseAt) < 0.002);
    const onOther = !onBase && outlines.some((u) => u !== o && o.bottoms.every((b, k) => b === null || (u.tops[k] !== null && Math.abs(u.tops[k]![1] - b) < 0.002)));
    if (onOther) areaStacked = true;
    const readings = o.tops.map((t, k): Reading | null => {
      if (!t) return null;
      const top = readValue(scale, t[1]);
      if (!onOther) return { ...top, box: { x0: t[0], y0: t[1], x1: t[0], y1: t[1] } };
      const below = readValue(scale, o.bottoms[k]!);
      return { value: roundLike(top.value - below.value, scale), interpolated: top.interpolated || below.interpolated, box: { x0: t[0], y0: t[1], x1: t[0], y1: o.bottoms[k]! } };
    });
    series.push(lineSeries(nameFor(o.colour, legend, 'fill'), categories, readings, 'area', o.marks[0].order));
  }
  if (!series.length) return null;
  // an area under a line with the same values is that line's shading, not a series of its own
  const shading = series.filter((s) => s.plotType === 'area' && series.some((o) => o.plotType === 'line' && sameValues(o.values, s.values, a.scale)));
  for (const s of shading) series.splice(series.indexOf(s), 1);
  series.sort((p, q) => p.order - q.order);
  // the legend keys are drawn in series order, whatever order the plot paints its series in (areas back to
  // front, the last series first): when each series has a key of its own, the keys give the order
  const keyOrder = new Map(series.map((s) => [s, legend.find((e) => e.label === s.name)?.order]));
  if (series.every((s) => s.name && keyOrder.get(s) !== undefined) && new Set(keyOrder.values()).size === series.length) series.sort((p, q) => keyOrder.get(p)! - keyOrder.get(q)!);
  const kinds = [...new Set(series.map((s) => s.plotType!))];
  let chartType = kinds.join('+');
  if (stacked && kinds.length === 1) chartType += percentStacked(bars, a.scale, vertical) ? '-percent-stacked' : '-stacked';
  if (areaStacked && kinds.length === 1) chartType += percentStackedAreas(outlines.map((o) => o.tops), a.scale) ? '-percent-stacked' : '-stacked';
  const named = series.filter((s) => s.name).length;
  const box = unionBox([P, ...a.labels.map((w) => w.box), ...(lineAxis === a ? [] : lineAxis.labels.map((w) => w.box)), ...labels.map((l) => l.box), ...legend.map((e) => e.box)])!;
  const onSecondary = lineAxis === a ? [] : bars.length ? series.filter((s) => s.plotType === 'line').map((s) => s.name || 'a line')
    : [nameFor(lastSeries!, legend, lines.some((l) => l.colour === lastSeries) ? 'stroke' : 'fill') ?? 'the last series'];
  return {
    box,
    chart: {
      chartType,
      series: series.map(({ order: _order, ...s }, i) => ({ ...s, name: s.name || legendFallback(legend, i) || '' })),
      sourceRanges: [],
      drawn: {
        confidence: confidence(0.75, labels.length === n, named === series.length),
        valueScale: a.scale.kind,
        uncertainty: uncertaintyOf(a.scale),
        note: readingNote(a.scale, labels.length === n) + (onSecondary.length ? `; ${onSecondary.join(', ')} read against the secondary (right-hand) axis, ${bars.length ? 'as a combination chart draws its lines' : 'the axis a spreadsheet gives a later series (the drawing does not say which series uses it)'}` : ''),
      },
    },
  };
}

/**
 * Where the categories sit along the category axis, in category order (left to right; bottom to top
 * for horizontal bars). Evenly spaced labels give the pitch, and the grid is carried to both ends of
 * the axis: a category whose label was dropped (crowded, or an empty trailing one) keeps its place,
 * whether the categories sit between tick marks (bars) or on them (areas, some lines). Without labels,
 * the marks' own grouping gives the count, one per equal slot.
 */
function categoryPositions(labelsAt: number[], lo: number, hi: number, bars: readonly BoxMark[], lines: readonly LineMark[], areas: readonly ShapeMark[], vertical: boolean): number[] {
  let pos: number[] = [];
  const at = [...labelsAt].sort((p, q) => p - q);
  if (at.length >= 2) {
    const gaps = at.slice(1).map((v, i) => v - at[i]).sort((p, q) => p - q);
    const pitch = gaps[Math.floor(gaps.length / 2)];
    const regular = pitch > 0 && at.every((v, i) => i === 0 || Math.abs((v - at[i - 1]) / pitch - Math.round((v - at[i - 1]) / pitch)) < 0.15);
    if (regular) {
      let start = at[0];
      while (start - pitch >= lo - 0.26 * pitch) start -= pitch;
      for (let p = start; p <= hi + 0.26 * pitch && pos.length < 10_000; p += pitch) pos.push(p);
    } else pos = at;
  } else if (at.length === 1) pos = at;
  else {
    let n = 0;
    if (lines.length) n = Math.max(...lines.map((l) => l.points.length));
    else if (areas.length) n = Math.floor(Math.max(...areas.map((s) => s.points.length)) / 2);
    else {
      const spans = bars.map((b) => (vertical ? [b.box.x0, b.box.x1] : [b.box.y0, b.box.y1]) as [number, number]).sort((p, q) => p[0] - q[0]);
      let end = -Infinity;
      for (const [a, b] of spans) { if (a > end + 1e-3) n++; end = Math.max(end, b); }
    }
    pos = Array.from({ length: n }, (_, i) => lo + ((i + 0.5) * (hi - lo)) / n);
  }
  return vertical ? pos : pos.reverse();
}

/**
 * Category labels printed at a slant under columns (crowded categories): the words' boxes overlap one
 * another, so grouping by overlap joins them all. Each slanted label ends at its slot (its upper right
 * end), so each word goes to the slot nearest its right edge; the slots are the columns' clusters, evenly
 * spaced over the plot. Null when the labels are level (word boxes no taller than the axis' labels) or
 * there are no column clusters to give the slots.
 */
function rotatedLabels(found: readonly CategoryLabel[], axisLabels: readonly RawWord[], bars: readonly BoxMark[], P: Box): CategoryLabel[] | null {
  const ws = found.flatMap((l) => l.words);
  if (!ws.length || !bars.length || !axisLabels.length) return null;
  const level = Math.max(...axisLabels.map((w) => w.box.y1 - w.box.y0));
  // a slanted word's box is taller than a level label's; short words ("1") stay short even when slanted
  if (!ws.some((w) => w.box.y1 - w.box.y0 > 2 * level)) return null;
  const spans = bars.map((b) => [b.box.x0, b.box.x1] as [number, number]).sort((p, q) => p[0] - q[0]);
  let n = 0, end = -Infinity;
  for (const [x0, x1] of spans) { if (x0 > end + 1e-3) n++; end = Math.max(end, x1); }
  if (n <= found.length) return null;
  const slot = (x: number) => Math.max(0, Math.min(n - 1, Math.floor(((x - P.x0) / (P.x1 - P.x0)) * n)));
  const groups = new Map<number, RawWord[]>();
  for (const w of ws) groups.set(slot(w.box.x1), [...(groups.get(slot(w.box.x1)) ?? []), w]);
  return [...groups.entries()].sort((p, q) => p[0] - q[0]).map(([k, list]) => {
    const ordered = [...list].sort((p, q) => p.box.x0 - q.box.x0);
    return { text: ordered.map((w) => w.text).join(' '), at: P.x0 + ((k + 0.5) * (P.x1 - P.x0)) / n, box: unionBox(list.map((w) => w.box))!, words: list };
  });
}

/**
 * The x positions of an area chart's points: the corners of the area outlines (their top edge's
 * vertices), merged when closer than a hair. Empty without areas. (A line's vertices may be a smoothed
 * curve's samples or a marker's outline: no such reading for lines.)
 */
function pointPositions(areas: readonly ShapeMark[], P: Box): number[] {
  const xs: number[] = [];
  for (const a of areas) for (const [x] of a.points) xs.push(x);
  const sorted = xs.filter((x) => x >= P.x0 - 0.002 && x <= P.x1 + 0.002).sort((p, q) => p - q);
  const out: number[] = [];
  for (const x of sorted) if (!out.length || x - out[out.length - 1] > 0.002) out.push(x);
  // a smoothed curve has a vertex every few points: no corners to read
  return out.length > 100 ? [] : out;
}

function byColour<T extends { colour: string; order: number }>(marks: readonly T[]): [string, T[]][] {
  const m = new Map<string, T[]>();
  for (const x of [...marks].sort((a, b) => a.order - b.order)) m.set(x.colour, [...(m.get(x.colour) ?? []), x]);
  return [...m.entries()];
}

/**
 * Bars of one paint that stand side by side in one category are different series painted alike (a
 * gradient, a pattern, one colour for all): the k-th bar of each category from the axis' start is series k.
 */
function splitByRank(groups: [string, BoxMark[]][], slot: (m: BoxMark) => number, vertical: boolean, stacked: boolean): [string, BoxMark[]][] {
  return groups.flatMap(([colour, marks]): [string, BoxMark[]][] => {
    const bySlot = new Map<number, BoxMark[]>();
    for (const m of marks) bySlot.set(slot(m), [...(bySlot.get(slot(m)) ?? []), m]);
    if (stacked || Math.max(...[...bySlot.values()].map((l) => l.length)) < 2) return [[colour, marks]];
    const ranks: BoxMark[][] = [];
    for (const list of bySlot.values()) {
      list.sort((p, q) => (vertical ? p.box.x0 - q.box.x0 : q.box.y1 - p.box.y1));
      list.forEach((m, k) => { (ranks[k] ??= []).push(m); });
    }
    return ranks.map((r, k) => [`${colour}#${k + 1}`, r] as [string, BoxMark[]]);
  });
}

/** Bars of different colours sharing a category span and touching end to end: a stack. */
function isStacked(bars: readonly BoxMark[], vertical: boolean): boolean {
  for (const p of bars) for (const q of bars) {
    if (p === q || p.colour === q.colour) continue;
    const [p0, p1, q0, q1] = vertical ? [p.box.x0, p.box.x1, q.box.x0, q.box.x1] : [p.box.y0, p.box.y1, q.box.y0, q.box.y1];
    const shared = Math.min(p1, q1) - Math.max(p0, q0);
    if (shared < 0.8 * Math.min(p1 - p0, q1 - q0)) continue;
    const touch = vertical ? Math.abs(p.box.y0 - q.box.y1) < 0.002 || Math.abs(p.box.y1 - q.box.y0) < 0.002
      : Math.abs(p.box.x0 - q.box.x1) < 0.002 || Math.abs(p.box.x1 - q.box.x0) < 0.002;
    if (touch) return true;
  }
  return false;
}

/** Stacks that all end at the axis' 100 (labels printed as percents): percent-stacked. */
function percentStacked(bars: readonly BoxMark[], s: ValueScale, vertical: boolean): boolean {
  if (!s.ticks.some((t) => t.word.text.includes('%'))) return false;
  const at100 = coordinateOf(s, 100);
  const ends = bars.flatMap((b) => (vertical ? [b.box.y0, b.box.y1] : [b.box.x0, b.box.x1]));
  // the stacks' far end (the highest value any bar reaches) on the 100 line, whichever way the axis runs
  const far = ends.reduce((best, c) => (valueAt(s, c) > valueAt(s, best) ? c : best), ends[0]);
  return Math.abs(at100 - far) < 0.003;
}

/** Stacked areas whose top edge runs along the axis' 100 at every category, on a percent axis: percent-stacked. */
function percentStackedAreas(tops: readonly (readonly (Pt | null)[])[], s: ValueScale): boolean {
  if (!s.ticks.some((t) => t.word.text.includes('%'))) return false;
  const at100 = coordinateOf(s, 100);
  const n = Math.max(0, ...tops.map((t) => t.length));
  for (let k = 0; k < n; k++) {
    const ys = tops.map((t) => t[k]).filter((p): p is Pt => !!p).map((p) => p[1]);
    if (!ys.length) continue;
    // the stack's far end: the top edge reaching the highest value, whichever way the axis runs
    const far = ys.reduce((best, y) => (valueAt(s, y) > valueAt(s, best) ? y : best), ys[0]);
    if (Math.abs(far - at100) >= 0.003) return false;
  }
  return true;
}

/** The value bars grow from: 0 when the axis shows it, else the axis end nearest 0 (the log axis' floor). */
function baseline(s: ValueScale): number {
  const vs = s.ticks.map((t) => t.value);
  const lo = Math.min(...vs), hi = Math.max(...vs);
  return s.kind === 'log' ? lo : Math.max(lo, Math.min(hi, 0));
}

const roundLike = (v: number, s: ValueScale) => roundTo(v, quantumOf(s, v));

const sameValues = (p: readonly (number | null)[], q: readonly (number | null)[], s: ValueScale) =>
  p.length === q.length && p.every((v, i) => v === null || q[i] === null || Math.abs(v - q[i]!) <= 2 * quantumOf(s, v) + s.residual);

function lineSeries(name: string | null, categories: (string | number)[], readings: (Reading | null)[], plotType: string, order: number): ChartSeries & { order: number } {
  return {
    name: name ?? '', categories, plotType, order,
    values: readings.map((r) => r?.value ?? null), markBoxes: readings.map((r) => r?.box ?? null), interpolated: readings.map((r) => r?.interpolated ?? false),
  };
}

function nameFor(colour: string, legend: readonly LegendEntry[], kind: 'fill' | 'stroke'): string | null {
  if (colour === 'none' || colour.includes('#')) return null; // no paint to match: the legend is matched by position
  return (legend.find((e) => e.colour === colour && e.kind === kind) ?? legend.find((e) => e.colour === colour))?.label ?? null;
}

/** An unmatched series (no paint colour known, e.g. a gradient) takes the legend label in the same position, if the legend has one per series. */
const legendFallback = (legend: readonly LegendEntry[], i: number): string | null => legend[i]?.label ?? null;

const confidence = (base: number, labelled: boolean, named: boolean) => Math.min(0.97, base + (labelled ? 0.1 : 0) + (named ? 0.1 : 0));

function uncertaintyOf(s: ValueScale): number {
  // drawing coordinates are stored to 1e-6 of the page; the tick fit adds its own residual
  const perUnit = s.kind === 'log' ? Math.abs(s.slope) * Math.LN10 * 10 ** (s.slope * s.ticks[s.ticks.length - 1].at + s.intercept) : Math.abs(s.slope);
  return Number((s.residual + 2e-6 * perUnit).toPrecision(3));
}

function readingNote(s: ValueScale, labelled: boolean): string {
  const first = s.ticks[0].value, last = s.ticks[s.ticks.length - 1].value;
  return `values read from the drawing through a ${s.kind} axis fitted to ${s.ticks.length} tick labels (${first} … ${last}); ` +
    'values between ticks are interpolated (see interpolated and uncertainty)' + (labelled ? '' : '; category labels were not found, categories are numbered');
}

/** x against y: markers or polylines between two value axes. */
function readScatter(x: ValueAxis, y: ValueAxis, g: ChartGraphics, words: readonly RawWord[], page: PageSize, foreign: readonly Box[] = []): DrawnChart | null {
  const P: Box = { x0: x.plot.x0, x1: x.plot.x1, y0: y.plot.y0, y1: y.plot.y1 };
  const pad = 0.01;
  const bars = g.boxes.filter((b) => inside(P, ...centreOf(b.box), pad) && Math.max(b.box.x1 - b.box.x0, b.box.y1 - b.box.y0) > 0.03);
  if (bars.length >= 2) return null; // bars against a numeric category axis: read as a column/bar chart
  // markers, and round bubbles of any size (bubble charts)
  const markers = [...g.shapes.filter((s) => inside(P, ...centreOf(s.box), pad) && (Math.max(s.box.x1 - s.box.x0, s.box.y1 - s.box.y0) < 0.03 || (s.curved && area(s.box) < 0.25 * area(P)))),
    ...g.boxes.filter((b) => inside(P, ...centreOf(b.box), pad) && Math.max(b.box.x1 - b.box.x0, b.box.y1 - b.box.y0) < 0.03)];
  const lines = g.lines.filter((l) => !rectilinearLine(l) && l.points.every(([px, py]) => inside(P, px, py, pad)));
  if (!markers.length && !lines.length) return null;
  const legend = findLegend(g, words, P, { x0: P.x0 - 0.2, y0: P.y0 - 0.15, x1: P.x1 + 0.3, y1: P.y1 + 0.15 }, foreign);
  const series: ChartSeries[] = [];
  // markers of one colour split by outline: series painted alike keep their own marker shapes
  type Group = { colour: string; pts: Pt[]; boxes: Box[] | null; outline: string | null };
  const groups: Group[] = markers.length ? byColour(markers).flatMap(([colour, ms]): Group[] => {
    const shapes = new Map<string, (BoxMark | ShapeMark)[]>();
    for (const m of ms) shapes.set(outlineKey(m), [...(shapes.get(outlineKey(m)) ?? []), m]);
    const split: [string | null, (BoxMark | ShapeMark)[]][] = shapes.size > 1 ? [...shapes.entries()] : [[null, ms]];
    return split.map(([outline, list]) => ({ colour, pts: list.map((m) => centreOf(m.box)), boxes: list.map((m) => m.box), outline }));
  }) : byColour(lines).map(([colour, ls]) => ({ colour, pts: ls.flatMap((l) => l.points), boxes: null, outline: null }));
  // bubbles: round marks whose sizes differ; a bubble's area is its size, known only relative to the largest
  const diameters = markers.map((m) => Math.min((m.box.x1 - m.box.x0) * page.width, (m.box.y1 - m.box.y0) * page.height));
  const bubbles = markers.length >= 2 && Math.max(...diameters) > 1.3 * Math.min(...diameters);
  const largest = Math.max(0, ...diameters);
  const keyOrder: (number | undefined)[] = [];
  for (const { colour, pts, boxes, outline } of groups) {
    const key = outline ? legend.find((e) => e.colour === colour && e.outline === outline) : undefined;
    keyOrder.push(key?.order ?? legend.find((e) => e.label === nameFor(colour, legend, markers.length ? 'fill' : 'stroke'))?.order);
    const xs = pts.map(([px]) => readValue(x.scale, px)), ys = pts.map(([, py]) => readValue(y.scale, py));
    series.push({
      name: (outline ? key?.label : nameFor(colour, legend, markers.length ? 'fill' : 'stroke')) ?? '', categories: xs.map((r) => r.value), xValues: xs.map((r) => r.value),
      values: ys.map((r) => r.value), interpolated: ys.map((r, i) => r.interpolated || xs[i].interpolated), plotType: bubbles ? 'bubble' : 'scatter',
      markBoxes: boxes ? boxes.map((b) => ({ ...b })) : pts.map(([px, py]) => ({ x0: px, y0: py, x1: px, y1: py })),
      ...(bubbles && boxes ? { bubbleSizes: boxes.map((b) => Number(((Math.min((b.x1 - b.x0) * page.width, (b.y1 - b.y0) * page.height) / largest) ** 2).toFixed(4))) } : {}),
    });
  }
  // series in the legend keys' order (the plot may paint the last series first), when each has its own key
  if (series.length > 1 && keyOrder.every((o) => o !== undefined) && new Set(keyOrder).size === series.length) {
    const ranked = series.map((s, i) => [s, keyOrder[i]!] as const).sort((p, q) => p[1] - q[1]);
    series.splice(0, series.length, ...ranked.map(([s]) => s));
  }
  const box = unionBox([P, ...x.labels.map((w) => w.box), ...y.labels.map((w) => w.box), ...legend.map((e) => e.box)])!;
  return {
    box,
    chart: {
      chartType: bubbles ? 'bubble' : 'scatter', sourceRanges: [],
      series,
      drawn: {
        confidence: confidence(0.75, true, series.every((s) => s.name)),
        valueScale: y.scale.kind, uncertainty: Math.max(uncertaintyOf(x.scale), uncertaintyOf(y.scale)),
        note: `x and y read from the drawing through axes fitted to their tick labels (x: ${x.scale.kind}, y: ${y.scale.kind}); values between ticks are interpolated`
          + (bubbles ? '; bubble sizes are relative to the largest bubble (1), from their areas: the drawing has no size scale' : ''),
      },
    },
  };
}
