import type { RawPage } from '@quire/core';
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
    const dx = Math.abs(s.x1 - s.x0) * pw, dy = Math.abs(s.y1 - s.y0) * ph;
    if (dy <= 1.5 && dx >= 3) h.push({ p: (s.y0 + s.y1) / 2, a: Math.min(s.x0, s.x1), b: Math.max(s.x0, s.x1) });
    else if (dx <= 1.5 && dy >= 3) v.push({ p: (s.x0 + s.x1) / 2, a: Math.min(s.y0, s.y1), b: Math.max(s.y0, s.y1) });
  }
  for (const r of raw.rects) {
    const b = r.box;
    const w = b.x1 - b.x0, hh = b.y1 - b.y0;
    if (w * hh >= 0.7 || isMarkSquare(b, raw)) continue;
    // a white fill on the white page draws nothing: cell backgrounds inset from the real rules would add phantom grid lines
    if (r.filled && !r.stroked && isWhite(r.fill)) continue;
    if (hh * ph <= THIN_PT && w * pw > THIN_PT) h.push({ p: (b.y0 + b.y1) / 2, a: b.x0, b: b.x1 });
    else if (w * pw <= THIN_PT && hh * ph > THIN_PT) v.push({ p: (b.x0 + b.x1) / 2, a: b.y0, b: b.y1 });
    else if (r.filled || r.stroked) {
      h.push({ p: b.y0, a: b.x0, b: b.x1 }, { p: b.y1, a: b.x0, b: b.x1 });
      v.push({ p: b.x0, a: b.y0, b: b.y1 }, { p: b.x1, a: b.y0, b: b.y1 });
    }
  }
  return { h: mergeRules(h), v: mergeRules(v) };
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
