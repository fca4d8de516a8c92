import { checkInterrupt } from '@quire/core';
import type { RawPage, RawRect } from '@quire/core';
import { isMarkSquare } from './selection.js';

/** A ruling line: `p` is its position (y for horizontal, x for vertical), `a`..`b` its extent along the other axis. */
export interface Rule {
  p: number;
  a: number;
  b: number;
}

export interface Rulings {
  h: Rule[];
  v: Rule[];
}

/** Strokes thinner than this (points) are rules, whether drawn as a line or as a thin filled rectangle. */
const THIN_PT = 3;
/** Collinear pieces closer than this (normalized) are one rule: tables are often drawn cell edge by cell edge. */
export const RULE_TOL = 0.004;

/**
 * Horizontal and vertical rulings from stroke segments and rectangles: thin rectangles are rules, larger
 * filled or stroked rectangles (cell backgrounds, boxes) contribute their four edges. Page-sized
 * backgrounds and checkbox-sized squares are skipped. Collinear pieces are merged.
 */
export function collectRulings(raw: RawPage): Rulings {
  const h: Rule[] = [], v: Rule[] = [];
  const pw = raw.width, ph = raw.height;
  for (const s of raw.segments) {
    checkInterrupt();
    const dx = Math.abs(s.x1 - s.x0) * pw, dy = Math.abs(s.y1 - s.y0) * ph;
    if (dy <= 1.5 && dx >= 3) h.push({ p: (s.y0 + s.y1) / 2, a: Math.min(s.x0, s.x1), b: Math.max(s.x0, s.x1) });
    else if (dx <= 1.5 && dy >= 3) v.push({ p: (s.x0 + s.x1) / 2, a: Math.min(s.y0, s.y1), b: Math.max(s.y0, s.y1) });
  }
  const fills: RawRect[] = [];
  for (const r of raw.rects) {
    checkInterrupt();
    const b = r.box;
    const w = b.x1 - b.x0, hh = b.y1 - b.y0;
    if (w * hh >= 0.7 || isMarkSquare(b, raw)) continue;
    // a white fill on the white page draws nothing: cell backgrounds inset from the real rules would add phantom grid lines
    if (r.filled && !r.stroked && isWhite(r.fill)) continue;
    if (hh * ph <= THIN_PT && w * pw > THIN_PT) h.push({ p: (b.y0 + b.y1) / 2, a: b.x0, b: b.x1 });
    else if (w * pw <= THIN_PT && hh * ph > THIN_PT) v.push({ p: (b.x0 + b.x1) / 2, a: b.y0, b: b.y1 });
    else if (r.stroked) {
      h.push({ p: b.y0, a: b.x0, b: b.x1 }, { p: b.y1, a: b.x0, b: b.x1 });
      v.push({ p: b.x0, a: b.y0, b: b.y1 }, { p: b.x1, a: b.y0, b: b.y1 });
    } else if (r.filled) fills.push(r);
  }
  fillEdges(fills, h, v, pw, ph);
  return { h: mergeRules(h), v: mergeRules(v) };
}

/** Two fills of one colour touching along an edge (gap under this many points) draw no boundary there. */
const ABUT_PT = 0.5;

/**
 * Edges of filled (unstroked) rectangles, less the stretches where a fill of the same colour continues
 * on the other side: abutting pieces of one background (a row band drawn cell by cell, cell padding drawn
 * as separate strips) show no line between them, so they must not add grid lines.
 */
function fillEdges(fills: readonly RawRect[], h: Rule[], v: Rule[], pw: number, ph: number): void {
  const byColour = new Map<string, RawRect[]>();
  for (const r of fills) {
    const k = (r.fill ?? [0, 0, 0]).map((c) => Math.round(c * 50)).join(',');
    const list = byColour.get(k);
    if (list) list.push(r);
    else byColour.set(k, [r]);
  }
  const tx = ABUT_PT / (pw || 612), ty = ABUT_PT / (ph || 792);
  for (const group of byColour.values()) {
    // rectangles sorted by each side, to find the ones touching an edge by binary search
    const byX0 = [...group].sort((a, b) => a.box.x0 - b.box.x0), byX1 = [...group].sort((a, b) => a.box.x1 - b.box.x1);
    const byY0 = [...group].sort((a, b) => a.box.y0 - b.box.y0), byY1 = [...group].sort((a, b) => a.box.y1 - b.box.y1);
    const near = (sorted: RawRect[], side: (r: RawRect) => number, p: number, tol: number) => {
      let lo = 0, hi = sorted.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (side(sorted[mid]) < p - tol) lo = mid + 1; else hi = mid; }
      const out: RawRect[] = [];
      for (let k = lo; k < sorted.length && side(sorted[k]) <= p + tol; k++) out.push(sorted[k]);
      return out;
    };
    for (const r of group) {
      const b = r.box;
      const cover = (others: RawRect[], lo: (o: RawRect) => number, hi: (o: RawRect) => number) =>
        others.filter((o) => o !== r).map((o) => [lo(o), hi(o)] as [number, number]);
      const xSpan = (o: RawRect) => o.box.x0, xEnd = (o: RawRect) => o.box.x1, ySpan = (o: RawRect) => o.box.y0, yEnd = (o: RawRect) => o.box.y1;
      for (const [p, a, z] of uncovered(b.y0, b.x0, b.x1, cover(near(byY1, yEnd, b.y0, ty), xSpan, xEnd), tx)) h.push({ p, a, b: z });
      for (const [p, a, z] of uncovered(b.y1, b.x0, b.x1, cover(near(byY0, ySpan, b.y1, ty), xSpan, xEnd), tx)) h.push({ p, a, b: z });
      for (const [p, a, z] of uncovered(b.x0, b.y0, b.y1, cover(near(byX1, xEnd, b.x0, tx), ySpan, yEnd), ty)) v.push({ p, a, b: z });
      for (const [p, a, z] of uncovered(b.x1, b.y0, b.y1, cover(near(byX0, xSpan, b.x1, tx), ySpan, yEnd), ty)) v.push({ p, a, b: z });
    }
  }
}

/** Parts of [a, b] at position p not covered by the intervals (stretches shorter than tol dropped). */
function uncovered(p: number, a: number, b: number, covers: [number, number][], tol: number): [number, number, number][] {
  covers.sort((x, y) => x[0] - y[0]);
  const out: [number, number, number][] = [];
  let cur = a;
  for (const [lo, hi] of covers) {
    if (hi <= cur) continue;
    if (lo > cur + tol) out.push([p, cur, Math.min(lo, b)]);
    cur = Math.max(cur, hi);
    if (cur >= b) break;
  }
  if (b - cur > tol) out.push([p, cur, b]);
  return out.filter(([, x, y]) => y - x > tol);
}

const isWhite = (fill: readonly number[] | undefined) => !!fill && fill.length >= 3 && fill[0] > 0.97 && fill[1] > 0.97 && fill[2] > 0.97;

/** Sort by position, group positions within tolerance, merge overlapping or touching extents in each group. */
export function mergeRules(rules: Rule[]): Rule[] {
  if (rules.length === 0) return rules;
  rules.sort((x, y) => x.p - y.p);
  const out: Rule[] = [];
  let i = 0;
  while (i < rules.length) {
    let j = i + 1;
    while (j < rules.length && rules[j].p - rules[i].p <= RULE_TOL) j++;
    const group = rules.slice(i, j).sort((x, y) => x.a - y.a);
    let sum = 0;
    for (const r of group) sum += r.p;
    const p = sum / group.length;
    let cur: Rule = { p, a: group[0].a, b: group[0].b };
    for (let k = 1; k < group.length; k++) {
      if (group[k].a <= cur.b + RULE_TOL) cur.b = Math.max(cur.b, group[k].b);
      else { out.push(cur); cur = { p, a: group[k].a, b: group[k].b }; }
    }
    out.push(cur);
    i = j;
  }
  return out;
}

/** Union-find over indices, used to group rules into table frames and grid cells into spanning cells. */
export class UnionFind {
  private parent: Int32Array;
  constructor(n: number) {
    this.parent = new Int32Array(n);
    for (let i = 0; i < n; i++) this.parent[i] = i;
  }
  find(i: number): number {
    while (this.parent[i] !== i) {
      this.parent[i] = this.parent[this.parent[i]];
      i = this.parent[i];
    }
    return i;
  }
  union(a: number, b: number): boolean {
    const ra = this.find(a), rb = this.find(b);
    if (ra === rb) return false;
    if (ra < rb) this.parent[rb] = ra;
    else this.parent[ra] = rb;
    return true;
  }
}

/** Groups of rules that touch each other (a horizontal crossing or meeting a vertical), i.e. candidate table frames. */
export function ruleComponents(r: Rulings): { h: Rule[]; v: Rule[] }[] {
  const { h, v } = r;
  const uf = new UnionFind(h.length + v.length);
  const vs = v.map((rule, i) => ({ rule, i })).sort((x, y) => x.rule.p - y.rule.p);
  for (let hi = 0; hi < h.length; hi++) {
    const hr = h[hi];
    let lo = 0, hiIdx = vs.length;
    while (lo < hiIdx) {
      const mid = (lo + hiIdx) >> 1;
      if (vs[mid].rule.p < hr.a - RULE_TOL) lo = mid + 1;
      else hiIdx = mid;
    }
    for (let k = lo; k < vs.length && vs[k].rule.p <= hr.b + RULE_TOL; k++) {
      const vr = vs[k].rule;
      if (hr.p >= vr.a - RULE_TOL && hr.p <= vr.b + RULE_TOL) uf.union(hi, h.length + vs[k].i);
    }
  }
  const groups = new Map<number, { h: Rule[]; v: Rule[] }>();
  const get = (root: number) => {
    let g = groups.get(root);
    if (!g) groups.set(root, (g = { h: [], v: [] }));
    return g;
  };
  h.forEach((rule, i) => get(uf.find(i)).h.push(rule));
  v.forEach((rule, i) => get(uf.find(h.length + i)).v.push(rule));
  return [...groups.values()];
}
