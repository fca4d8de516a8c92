import type { PtBox } from './labels.js';

/** Horizontal (y fixed) or vertical (x fixed) ruling line in points. */
export interface Line { pos: number; a: number; b: number }

const TOL = 1.5;

/** Merges collinear overlapping or touching lines (rect edges drawn twice, dashed rules). */
export function mergeLines(lines: Line[]): Line[] {
  const sorted = [...lines].sort((p, q) => p.pos - q.pos || p.a - q.a);
  const out: Line[] = [];
  for (const l of sorted) {
    const m = out.find((o) => Math.abs(o.pos - l.pos) <= TOL && l.a <= o.b + TOL && l.b >= o.a - TOL);
    if (m) { m.a = Math.min(m.a, l.a); m.b = Math.max(m.b, l.b); m.pos = (m.pos + l.pos) / 2; }
    else out.push({ ...l });
  }
  return out;
}

/** A short stroke (a dot or dash of a dotted rule), in points. */
export interface Stroke { x0: number; y0: number; x1: number; y1: number }

const DOT_MAX = 4;
/** Longest dash of a dashed rule drawn dash by dash, in points. */
const DASH_MAX = 12;

/**
 * Dotted or dashed rules drawn as separate short strokes (a column of dots parting comb cells, a dotted
 * or dashed rule between stacked boxes): three or more strokes on one line, evenly close together, are
 * one rule. A stroke longer than a dot counts only with bare ends (a box's edges meet at its corners).
 * Returns the joined rules and the indices of the strokes they used (left out of the plain rulings).
 */
export function joinDottedRules(strokes: Stroke[]): { h: Line[]; v: Line[]; used: Set<number> } {
  const all = strokes.map((s, i) => ({ s, i }));
  const short = all.filter(({ s }) => Math.abs(s.x1 - s.x0) <= DOT_MAX && Math.abs(s.y1 - s.y0) <= DOT_MAX);
  // strokes by their ends, in 2 pt buckets: a box's edge meets the edges across it at its ends, a dash meets nothing
  const ends = new Map<string, Set<Stroke>>();
  const key = (x: number, y: number) => `${Math.round(x / 2)},${Math.round(y / 2)}`;
  for (const { s } of all) {
    for (const [x, y] of [[s.x0, s.y0], [s.x1, s.y1]]) {
      const k = key(x, y);
      if (!ends.has(k)) ends.set(k, new Set());
      ends.get(k)!.add(s);
    }
  }
  const upright = (s: Stroke) => Math.abs(s.x1 - s.x0) < 1.2;
  const touches = (o: Stroke, x: number, y: number) => Math.min(o.x0, o.x1) - 1 <= x && Math.max(o.x0, o.x1) + 1 >= x && Math.min(o.y0, o.y1) - 1 <= y && Math.max(o.y0, o.y1) + 1 >= y;
  const meets = (s: Stroke, x: number, y: number) => [-1, 0, 1].some((dx) => [-1, 0, 1].some((dy) =>
    [...(ends.get(key(x + 2 * dx, y + 2 * dy)) ?? [])].some((o) => o !== s && upright(o) !== upright(s) && touches(o, x, y))));
  // dashes: thin strokes up to DASH_MAX long along the rule whose ends meet no stroke across them
  const dashes = (vertical: boolean) => all.filter(({ s }) => {
    const across = vertical ? Math.abs(s.x1 - s.x0) : Math.abs(s.y1 - s.y0), along = vertical ? Math.abs(s.y1 - s.y0) : Math.abs(s.x1 - s.x0);
    if (across > 1.2 || along <= DOT_MAX || along > DASH_MAX) return false;
    return vertical ? !meets(s, (s.x0 + s.x1) / 2, Math.min(s.y0, s.y1)) && !meets(s, (s.x0 + s.x1) / 2, Math.max(s.y0, s.y1))
      : !meets(s, Math.min(s.x0, s.x1), (s.y0 + s.y1) / 2) && !meets(s, Math.max(s.x0, s.x1), (s.y0 + s.y1) / 2);
  });
  const used = new Set<number>();
  const join = (vertical: boolean): Line[] => {
    const pos = (s: Stroke) => (vertical ? (s.x0 + s.x1) / 2 : (s.y0 + s.y1) / 2);
    const a = (s: Stroke) => (vertical ? Math.min(s.y0, s.y1) : Math.min(s.x0, s.x1));
    const b = (s: Stroke) => (vertical ? Math.max(s.y0, s.y1) : Math.max(s.x0, s.x1));
    const free = [...short, ...dashes(vertical)].filter(({ i }) => !used.has(i)).sort((p, q) => pos(p.s) - pos(q.s) || a(p.s) - a(q.s));
    const out: Line[] = [];
    const taken = new Set<number>();
    for (let f = 0; f < free.length; f++) {
      const first = free[f];
      if (taken.has(first.i)) continue;
      const run = [first];
      // sorted by position, so the strokes on this line follow it: the scan stops at the next line
      for (let k = f + 1; k < free.length && pos(free[k].s) - pos(first.s) <= 0.6; k++) {
        const next = free[k], last = run[run.length - 1];
        if (taken.has(next.i)) continue;
        const gap = a(next.s) - b(last.s);
        if (gap >= -0.1 && gap <= DOT_MAX) run.push(next);
      }
      const line = { pos: pos(first.s), a: a(first.s), b: b(run[run.length - 1].s) };
      // too few or too short to be a rule (a glyph-sized mark stays what it was)
      if (run.length < 3 || line.b - line.a <= 2 * DOT_MAX) continue;
      run.forEach((x) => taken.add(x.i));
      out.push(line);
    }
    taken.forEach((i) => used.add(i));
    return out;
  };
  // a run is vertical when its strokes stack along y (each dot may be drawn either way)
  const v = join(true), h = join(false);
  return { h, v, used };
}

/**
 * Columns of dots too short to be a rule: a comb's dotted tick rising from its bottom edge is two or
 * three dots. Short strokes not used by a dotted rule, stacked on one x with dot-sized gaps, two or
 * more, make one column each; they part no cell (a comb reads them as its ticks). Returns the columns
 * and the strokes they used.
 */
export function dotColumns(strokes: Stroke[], skip: Set<number>): { v: Line[]; used: Set<number> } {
  const cx = (s: Stroke) => (s.x0 + s.x1) / 2;
  const dots = strokes.map((s, i) => ({ s, i })).filter(({ s, i }) => !skip.has(i) && Math.abs(s.x1 - s.x0) <= DOT_MAX && Math.abs(s.y1 - s.y0) <= DOT_MAX)
    .sort((p, q) => cx(p.s) - cx(q.s) || Math.min(p.s.y0, p.s.y1) - Math.min(q.s.y0, q.s.y1));
  const v: Line[] = [];
  const used = new Set<number>();
  for (let f = 0; f < dots.length; f++) {
    if (used.has(dots[f].i)) continue;
    const run = [dots[f]];
    for (let k = f + 1; k < dots.length && cx(dots[k].s) - cx(dots[f].s) <= 0.6; k++) {
      const last = run[run.length - 1].s, next = dots[k].s;
      const gap = Math.min(next.y0, next.y1) - Math.max(last.y0, last.y1);
      if (!used.has(dots[k].i) && gap >= -0.1 && gap <= DOT_MAX) run.push(dots[k]);
    }
    if (run.length < 2) continue;
    run.forEach((x) => used.add(x.i));
    v.push({ pos: cx(run[0].s), a: Math.min(...run.map((x) => Math.min(x.s.y0, x.s.y1))), b: Math.max(...run.map((x) => Math.max(x.s.y0, x.s.y1))) });
  }
  return { v, used };
}

/** How far short of a wall a rule may stop and still meet it (a rule inset by the wall's stroke or its line cap). */
const WALL_GAP = 4;

/**
 * Rules that stop just short of a wall, within WALL_GAP with nothing between, are drawn to meet it:
 * rules inset between a column's walls part its stacked boxes as rules touching the walls do.
 */
export function meetWalls(h: Line[], v: Line[]): Line[] {
  return h.map((l) => {
    const crossing = v.filter((w) => w.a <= l.pos + TOL && w.b >= l.pos - TOL);
    const wall = (end: number, dir: -1 | 1) => (crossing.some((w) => Math.abs(w.pos - end) <= TOL) ? undefined
      : crossing.map((w) => (w.pos - end) * dir).filter((d) => d > TOL && d <= WALL_GAP).sort((p, q) => p - q)[0]);
    const da = wall(l.a, -1), db = wall(l.b, 1);
    return da === undefined && db === undefined ? l : { ...l, a: l.a - (da ?? 0), b: l.b + (db ?? 0) };
  });
}

export interface Grid {
  /** Closed cells of one connected group of rulings. */
  cells: PtBox[];
  /** Distinct row tops / column lefts, to give row / col indices. */
  rows: number[];
  cols: number[];
  hIdx: number[];
}

const covers = (lines: Line[], pos: number, a: number, b: number) =>
  lines.some((l) => Math.abs(l.pos - pos) <= TOL + 0.5 && l.a <= a + TOL + 0.5 && l.b >= b - TOL - 0.5);

/** Groups rulings into connected components and finds the closed cells of each. */
export function findGrids(h: Line[], v: Line[]): { grids: Grid[]; usedH: Set<number> } {
  const n = h.length + v.length;
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  h.forEach((hl, i) => v.forEach((vl, j) => {
    if (vl.pos >= hl.a - TOL && vl.pos <= hl.b + TOL && hl.pos >= vl.a - TOL && hl.pos <= vl.b + TOL) parent[find(i)] = find(h.length + j);
  }));
  const comps = new Map<number, { h: number[]; v: number[] }>();
  h.forEach((_, i) => { const r = find(i); if (!comps.has(r)) comps.set(r, { h: [], v: [] }); comps.get(r)!.h.push(i); });
  v.forEach((_, j) => { const r = find(h.length + j); if (!comps.has(r)) comps.set(r, { h: [], v: [] }); comps.get(r)!.v.push(j); });
  const grids: Grid[] = [];
  const usedH = new Set<number>();
  for (const comp of comps.values()) {
    if (comp.h.length < 2 || comp.v.length < 1) continue;
    const H = comp.h.map((i) => h[i]), V = comp.v.map((j) => v[j]);
    const cells = closedCells(H, V);
    if (!cells.length) continue;
    comp.h.forEach((i) => usedH.add(i));
    const rows = cluster(cells.map((c) => c.y0)), cols = cluster(cells.map((c) => c.x0));
    grids.push({ cells, rows, cols, hIdx: comp.h });
  }
  return { grids, usedH };
}

function cluster(vals: number[]): number[] {
  const out: number[] = [];
  for (const x of [...vals].sort((a, b) => a - b)) if (!out.length || x - out[out.length - 1] > 2) out.push(x);
  return out;
}

/** Tallest band an open side may close (a form row or a boxed field, not a page region). */
const OPEN_SIDE_MAX = 72;

/**
 * Sides left open at the margin: forms often draw a row as two rules that stop at the same x with
 * no wall there (the IRS style). Two rules that are next to each other at that end (no rule between
 * them reaches it), at most OPEN_SIDE_MAX apart and ending within TOL of each other, get a virtual
 * wall joining their ends.
 */
function openSides(H: Line[], V: Line[]): Line[] {
  const out: Line[] = [];
  const sorted = [...H].sort((p, q) => p.pos - q.pos);
  for (const end of ['a', 'b'] as const) {
    for (let i = 0; i < sorted.length; i++) {
      const top = sorted[i], e = top[end];
      const next = sorted.slice(i + 1).find((l) => l.a <= e + TOL && l.b >= e - TOL);
      if (!next || next.pos - top.pos > OPEN_SIDE_MAX || Math.abs(next[end] - e) > TOL + 0.5) continue;
      if (covers(V, e, top.pos, next.pos)) continue;
      out.push({ pos: (e + next[end]) / 2, a: top.pos, b: next.pos });
    }
  }
  return out;
}

function closedCells(H: Line[], realV: Line[]): PtBox[] {
  const V = [...realV, ...openSides(H, realV)];
  const ys = cluster(H.map((l) => l.pos)), xs = cluster(V.map((l) => l.pos));
  const cells: PtBox[] = [];
  for (let j = 0; j < ys.length - 1; j++) {
    const top = ys[j];
    for (let i = 0; i < xs.length - 1; i++) {
      const x = xs[i];
      // the band below `top` must have a left wall at x; the cell ends at the next wall that spans the cell's height
      for (let jb = j + 1; jb < ys.length; jb++) {
        const bottom = ys[jb];
        if (!covers(V, x, top, bottom)) break;
        const right = xs.slice(i + 1).find((x2) => covers(V, x2, top, bottom));
        if (right === undefined) break;
        if (covers(H, top, x, right) && covers(H, bottom, x, right)) {
          // keep only minimal cells: no interior wall or rule splits it
          const split = xs.some((x2) => x2 > x + TOL && x2 < right - TOL && covers(V, x2, top, bottom)) ||
            ys.some((y2) => y2 > top + TOL && y2 < bottom - TOL && covers(H, y2, x, right));
          if (!split && !cells.some((c) => Math.abs(c.x0 - x) < TOL && Math.abs(c.y0 - top) < TOL)) cells.push({ x0: x, y0: top, x1: right, y1: bottom });
          break;
        }
      }
    }
  }
  return cells;
}
