import type { Box, RawWord } from '@quire/core';
import { fitScale, labelNumber, type ValueScale } from './scale.js';


/** A value axis found on the page: its scale, its direction and the plot area its grid/axis lines bound. */
export interface ValueAxis {
  /** 'y': labels in a column left of the plot (values up the page); 'x': labels in a row below it. */
  along: 'x' | 'y';
  scale: ValueScale;
  plot: Box;
  labels: RawWord[];
  /**
   * 'right': a secondary value axis, labels right of a plot's vertical axis line with tick marks and no grid
   * lines of its own; its plot box is that line (the plot itself is its primary axis'). Some series of the
   * chart are drawn against it (a combination chart's line over columns).
   */
  side?: 'right';
}

const ALIGN = 0.006; // normalized: labels of one axis share a right edge (y) or a centre line (x)
const MIN_RULE = 0.08; // a grid or axis line spans at least this much of the page
const REACH = 0.035; // gap allowed between the labels and the lines they label

/** Groups items whose key lies within `tol` of the group's first member. */
function groupBy<T>(items: readonly T[], key: (t: T) => number, tol: number): T[][] {
  const sorted = [...items].sort((a, b) => key(a) - key(b));
  const groups: T[][] = [];
  for (const it of sorted) {
    const g = groups[groups.length - 1];
    if (g && key(it) - key(g[0]) <= tol) g.push(it); else groups.push([it]);
  }
  return groups;
}

/**
 * Value axes: runs of numeric labels that fit a linear or log scale and that long rules (grid or axis
 * lines) start right next to. A column of numbers in a table or a row of years in the text fits a scale
 * too, but no rule of a plot area runs from it, so it is no axis.
 */
export function findValueAxes(words: readonly RawWord[], rules: readonly Box[]): ValueAxis[] {
  const numeric = words.map((w) => ({ w, v: labelNumber(w.text) })).filter((n): n is { w: RawWord; v: number } => n.v !== null);
  const axes: ValueAxis[] = [];
  // y axes: right-aligned column, value grows up the page
  // right-aligned columns first (the usual), then left-aligned ones; a run found both ways counts once
  const seen = new Set<string>();
  const columns = [...groupBy(numeric, (n) => n.w.box.x1, ALIGN), ...groupBy(numeric, (n) => n.w.box.x0, ALIGN)];
  for (const g of columns) {
    for (const run of splitRuns(g, (n) => (n.w.box.y0 + n.w.box.y1) / 2)) {
      const key = run.map((n) => numeric.indexOf(n)).sort((p, q) => p - q).join(',');
      if ([...seen].some((k) => k.split(',').some((i) => key.split(',').includes(i)))) continue;
      seen.add(key);
      // values up the page, or down it (a reversed axis: 0 at the top, bars hanging from it)
      const ticks = run.map((n) => ({ at: (n.w.box.y0 + n.w.box.y1) / 2, value: n.v, word: n.w }));
      let scale = fitScale(ticks, false) ?? fitScale(ticks, true);
      if (!scale) continue;
      const right = Math.max(...run.map((n) => n.w.box.x1));
      const ya = scale.ticks[0].at, yb = scale.ticks[scale.ticks.length - 1].at;
      // the plot may run past the last label (an unlabelled 0 on the category axis line)
      const pitch = (yb - ya) / (scale.ticks.length - 1);
      const hs = beyondLabels(rules.filter((r) => r.y1 - r.y0 < 0.004 && r.x1 - r.x0 >= MIN_RULE && r.x0 >= right - 0.004 && r.x0 <= right + REACH), (r) => r.y0, ya, yb, pitch);
      if (!hs.some((r) => r.y0 >= ya - 0.01 && r.y0 <= yb + 0.01)) continue;
      scale = snapToRules(scale, rules, 'y', right, isReversed('y', scale)) ?? scale;
      const plot = { x0: Math.min(...hs.map((r) => r.x0)), x1: Math.max(...hs.map((r) => r.x1)), y0: Math.min(ya, ...hs.map((r) => r.y0)), y1: Math.max(yb, ...hs.map((r) => r.y0)) };
      // the value axis' own line may run past the top grid line (the scale's end carries no label)
      for (const r of rules) if (r.x1 - r.x0 < 0.004 && Math.abs(r.x0 - plot.x0) < 0.004 && r.y1 > plot.y0 && r.y0 < plot.y1) { plot.y0 = Math.min(plot.y0, r.y0); plot.y1 = Math.max(plot.y1, r.y1); }
      axes.push({ along: 'y', scale, labels: run.map((n) => n.w), plot });
    }
  }
  axes.push(...secondaryAxes(numeric, rules, new Set(axes.flatMap((a) => a.labels))));
  // x axes: a row under the plot, value grows to the right
  for (const g of groupBy(numeric, (n) => (n.w.box.y0 + n.w.box.y1) / 2, ALIGN)) {
    for (const run of splitRuns(g, (n) => (n.w.box.x0 + n.w.box.x1) / 2)) {
      const ticks = run.map((n) => ({ at: (n.w.box.x0 + n.w.box.x1) / 2, value: n.v, word: n.w }));
      let scale = fitScale(ticks, true) ?? fitScale(ticks, false); // to the right, or reversed
      if (!scale) continue;
      const top = Math.min(...run.map((n) => n.w.box.y0));
      const xa = scale.ticks[0].at, xb = scale.ticks[scale.ticks.length - 1].at;
      const pitch = (xb - xa) / (scale.ticks.length - 1);
      const vs = beyondLabels(rules.filter((r) => r.x1 - r.x0 < 0.004 && r.y1 - r.y0 >= MIN_RULE && r.y1 <= top + 0.004 && r.y1 >= top - REACH), (r) => r.x0, xa, xb, pitch);
      if (!vs.some((r) => r.x0 >= xa - 0.01 && r.x0 <= xb + 0.01)) continue;
      scale = snapToRules(scale, rules, 'x', top, isReversed('x', scale)) ?? scale;
      const plot = { x0: Math.min(xa, ...vs.map((r) => r.x0)), x1: Math.max(xb, ...vs.map((r) => r.x0)), y0: Math.min(...vs.map((r) => r.y0)), y1: Math.max(...vs.map((r) => r.y1)) };
      for (const r of rules) if (r.y1 - r.y0 < 0.004 && Math.abs(r.y0 - plot.y1) < 0.004 && r.x1 > plot.x0 && r.x0 < plot.x1) { plot.x0 = Math.min(plot.x0, r.x0); plot.x1 = Math.max(plot.x1, r.x1); }
      axes.push({ along: 'x', scale, labels: run.map((n) => n.w), plot });
    }
  }
  return axes;
}

/**
 * The grid lines of an axis whose labels run from `a` to `b` (coordinates, tick pitch `pitch`): those
 * among the labels, and past either end the lines that go on with the ticks: one within a pitch (an
 * unlabelled end, the category axis line), further ones only a whole pitch on from the last, up to three.
 * Another chart's grid lines above or below (its plot lined up with this one) do not join the plot.
 */
function beyondLabels(rules: readonly Box[], at: (r: Box) => number, a: number, b: number, pitch: number): Box[] {
  const lo = Math.min(a, b), hi = Math.max(a, b), step = Math.abs(pitch);
  const out = rules.filter((r) => at(r) >= lo - 0.002 && at(r) <= hi + 0.002);
  for (const dir of [-1, 1]) {
    let end = dir < 0 ? lo : hi;
    for (let k = 0; k < 3; k++) {
      const next = rules.filter((r) => {
        const d = (at(r) - end) * dir;
        return k === 0 ? d > 0.002 && d <= 1.05 * step : Math.abs(d - step) <= 0.1 * step;
      });
      if (!next.length) break;
      out.push(...next);
      end = dir < 0 ? Math.min(...next.map(at)) : Math.max(...next.map(at));
    }
  }
  return out;
}

/**
 * Secondary value axes: a left-aligned column of numbers fitting a scale, just right of a long vertical
 * line (the plot's right edge) that spans them, each label at a tick mark running out from that line.
 * Labels a primary axis took are left alone.
 */
function secondaryAxes(numeric: { w: RawWord; v: number }[], rules: readonly Box[], taken: ReadonlySet<RawWord>): ValueAxis[] {
  const out: ValueAxis[] = [];
  for (const g of groupBy(numeric.filter((n) => !taken.has(n.w)), (n) => n.w.box.x0, ALIGN)) {
    for (const run of splitRuns(g, (n) => (n.w.box.y0 + n.w.box.y1) / 2)) {
      const ticks = run.map((n) => ({ at: (n.w.box.y0 + n.w.box.y1) / 2, value: n.v, word: n.w }));
      const fitted = fitScale(ticks, false) ?? fitScale(ticks, true);
      if (!fitted) continue;
      const left = Math.min(...run.map((n) => n.w.box.x0));
      const ya = fitted.ticks[0].at, yb = fitted.ticks[fitted.ticks.length - 1].at;
      const line = rules.find((r) => r.x1 - r.x0 < 0.004 && r.y1 - r.y0 >= MIN_RULE && r.x0 <= left + 0.002 && r.x0 >= left - REACH && r.y0 <= ya + 0.01 && r.y1 >= yb - 0.01);
      if (!line) continue;
      // every label at its own tick mark: without them a column of figures beside a ruled box is no axis.
      // A tick mark crossing the line (marks drawn across the axis) counts from the line outward.
      const tickMarks = rules.filter((r) => r !== line && r.x1 - line.x0 < REACH && r.x1 > line.x0 - 0.004)
        .map((r) => (r.y1 - r.y0 < 0.002 && r.x0 < line.x0 && r.x1 > line.x0 + 0.002 ? { ...r, x0: line.x0 } : r));
      const scale = snapToRules(fitted, tickMarks, 'y', line.x0, isReversed('y', fitted));
      if (!scale) continue;
      out.push({ along: 'y', side: 'right', scale, labels: run.map((n) => n.w), plot: { x0: line.x0, x1: line.x0, y0: Math.min(line.y0, ya), y1: Math.max(line.y1, yb) } });
    }
  }
  return out;
}

/**
 * Splits an aligned group into runs of evenly spaced labels: two charts' axes in one page column, or an
 * axis under a table column, must not fit as one scale.
 */
function splitRuns<T>(group: readonly T[], at: (t: T) => number): T[][] {
  const sorted = [...group].sort((a, b) => at(a) - at(b));
  if (sorted.length < 3) return [];
  const runs: T[][] = [];
  let run: T[] = [sorted[0]];
  for (let i = 1; i < sorted.length; i++) {
    const gap = at(sorted[i]) - at(sorted[i - 1]);
    const prevGap = run.length >= 2 ? at(run[run.length - 1]) - at(run[run.length - 2]) : gap;
    if (gap > 1e-4 && Math.abs(gap - prevGap) <= 0.15 * Math.max(gap, prevGap)) run.push(sorted[i]);
    else { if (run.length >= 3) runs.push(run); run = run.length >= 1 && gap > 1e-4 ? [run[run.length - 1], sorted[i]] : [sorted[i]]; }
  }
  if (run.length >= 3) runs.push(run);
  return runs;
}

/**
 * A label's text box is centred near its tick, not on it (font ascent and descent differ): each tick is
 * moved onto the tick mark or grid line drawn next to its label, so the scale is as exact as the drawing.
 * Returns null when not every label has its own line (the text-centred fit then stands).
 */
function snapToRules(s: ValueScale, rules: readonly Box[], along: 'x' | 'y', edge: number, reversed: boolean): ValueScale | null {
  const snapped = s.ticks.map((t) => {
    const half = along === 'y' ? (t.word.box.y1 - t.word.box.y0) / 2 : (t.word.box.x1 - t.word.box.x0) / 2;
    const candidates = rules.filter((r) => along === 'y'
      ? r.y1 - r.y0 < 0.002 && Math.abs(r.y0 - t.at) <= half && r.x0 >= edge - 0.004 && r.x0 <= edge + REACH
      : r.x1 - r.x0 < 0.002 && Math.abs(r.x0 - t.at) <= half && r.y1 <= edge + 0.004 && r.y1 >= edge - REACH);
    if (!candidates.length) return null;
    const at = along === 'y' ? candidates.map((r) => r.y0) : candidates.map((r) => r.x0);
    return { ...t, at: at.reduce((best, v) => (Math.abs(v - t.at) < Math.abs(best - t.at) ? v : best)) };
  });
  if (snapped.some((t) => t === null)) return null;
  return fitScale(snapped as ValueScale['ticks'], (along === 'x') !== reversed);
}

/**
 * A reversed value axis: values grow down the page (y) or to the left (x), the spreadsheet's
 * "values in reverse order" — its bars hang from the top (or grow from the right).
 */
export const isReversed = (along: 'x' | 'y', s: ValueScale): boolean => (along === 'y' ? s.slope > 0 : s.slope < 0);
