import type { RawPage, RawWord, TableElement } from '@quire/core';
import { bandsOf, buildFragments } from './lines.js';
import { RULE_TOL, ruleComponents, UnionFind, type Rule, type Rulings } from './rulings.js';
import { locate, toTable, type CellDraft } from './table-cells.js';
import type { PageGeom } from './types.js';

export interface TableResult {
  table: TableElement;
  words: Set<RawWord>;
}

/**
 * Ruled tables: every group of touching rules with at least two horizontals and two verticals is a
 * candidate grid. Grid lines come from the rule positions (outer edges from the rules' extents when a
 * frame side is not drawn); a missing inner rule between two grid cells merges them into a spanning
 * cell. A grid whose cells are mostly empty (chart gridlines, empty form boxes) is not a table.
 */
export function detectRuledTables(raw: RawPage, words: readonly RawWord[], rulings: Rulings, geom: PageGeom): TableResult[] {
  const out: TableResult[] = [];
  const taken = new Set<RawWord>();
  for (const comp of ruleComponents(rulings)) {
    if (comp.h.length < 2 || comp.v.length < 2) continue;
    const res = gridTable(comp.h, comp.v, raw, words.filter((w) => !taken.has(w)), geom);
    if (!res) continue;
    for (const w of res.words) taken.add(w);
    out.push(res);
  }
  return out;
}

function positions(rules: readonly Rule[], lo: number, hi: number): number[] {
  const ps = rules.map((r) => r.p).sort((a, b) => a - b);
  const out: number[] = [];
  for (const p of ps) if (out.length === 0 || p - out[out.length - 1] > RULE_TOL) out.push(p);
  if (out[0] - lo > RULE_TOL) out.unshift(lo);
  if (hi - out[out.length - 1] > RULE_TOL) out.push(hi);
  return out;
}

function gridTable(h: Rule[], v: Rule[], raw: RawPage, words: readonly RawWord[], geom: PageGeom): TableResult | undefined {
  const xs = positions(v, Math.min(...h.map((r) => r.a)), Math.max(...h.map((r) => r.b)));
  let ys = positions(h, Math.min(...v.map((r) => r.a)), Math.max(...v.map((r) => r.b)));
  if (xs.length < 3 || ys.length < 3) return undefined;
  const inGrid = words.filter((w) => {
    const cx = (w.box.x0 + w.box.x1) / 2, cy = (w.box.y0 + w.box.y1) / 2;
    return cx > xs[0] && cx < xs[xs.length - 1] && cy > ys[0] && cy < ys[ys.length - 1];
  });
  const virtual = textRowBreaks(ys, xs, inGrid, geom, ys.length - 2 >= 2);
  if (virtual.size) ys = [...ys, ...virtual].sort((a, b) => a - b);
  const rows = ys.length - 1, cols = xs.length - 1;
  const has = (rules: Rule[], p: number, mid: number) => rules.some((r) => Math.abs(r.p - p) <= RULE_TOL && r.a - RULE_TOL <= mid && r.b + RULE_TOL >= mid);
  const uf = new UnionFind(rows * cols);
  for (let r = 0; r < rows; r++) {
    const ymid = (ys[r] + ys[r + 1]) / 2;
    for (let c = 1; c < cols; c++) if (!has(v, xs[c], ymid)) uf.union(r * cols + c - 1, r * cols + c);
  }
  for (let r = 1; r < rows; r++) {
    if (virtual.has(ys[r])) continue;
    for (let c = 0; c < cols; c++) if (!has(h, ys[r], (xs[c] + xs[c + 1]) / 2)) uf.union((r - 1) * cols + c, r * cols + c);
  }
  const drafts = spanDrafts(uf, rows, cols, xs, ys);
  const byIndex = new Map<number, CellDraft>();
  for (const d of drafts) byIndex.set(d.row * cols + d.col, d);
  for (const w of inGrid) {
    const c = locate(xs, (w.box.x0 + w.box.x1) / 2), r = locate(ys, (w.box.y0 + w.box.y1) / 2);
    if (c >= 0 && r >= 0) byIndex.get(uf.find(r * cols + c))!.words.push(w);
  }
  const filled = drafts.filter((d) => d.words.length > 0).length;
  if (filled < 2 || filled < 0.2 * drafts.length) return undefined;
  // a frame whose every text cell spans the full width has no column rules (a boxed list, a banded table
  // ruled between rows only): its columns come from text alignment, left to the borderless detector
  if (drafts.every((d) => d.words.length === 0 || d.colSpan === cols)) return undefined;
  const table = toTable(drafts, rows, cols, raw, geom, 0.95);
  table.extra = { source: 'ruled' };
  return { table, words: new Set(inGrid) };
}

/** Cells as rectangles: each union-find group widened to its bounding rectangle (merging any group caught inside). */
function spanDrafts(uf: UnionFind, rows: number, cols: number, xs: number[], ys: number[]): CellDraft[] {
  for (;;) {
    const bounds = new Map<number, [number, number, number, number]>();
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const root = uf.find(r * cols + c);
        const b = bounds.get(root);
        if (!b) bounds.set(root, [r, c, r, c]);
        else { b[0] = Math.min(b[0], r); b[1] = Math.min(b[1], c); b[2] = Math.max(b[2], r); b[3] = Math.max(b[3], c); }
      }
    }
    let changed = false;
    for (const [root, [r0, c0, r1, c1]] of bounds) {
      for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) if (uf.union(root, r * cols + c)) changed = true;
    }
    if (!changed) {
      return [...bounds.entries()].map(([, [r0, c0, r1, c1]]) => ({
        row: r0, col: c0, rowSpan: r1 - r0 + 1, colSpan: c1 - c0 + 1, words: [],
        box: { x0: xs[c0], y0: ys[r0], x1: xs[c1 + 1], y1: ys[r1 + 1] },
      }));
    }
  }
}

/**
 * Tables ruled only under the header (or only with column rules, or ruled between groups of records)
 * pack several text rows into one grid row. A grid row is cut between text lines when that yields ≥ 3
 * rows, a new row starting at each line that fills two or more columns or the first column (a wrapped
 * cell's continuation fills neither). In a grid ruled row by row this needs ≥ 3 lines that each read
 * as a whole record, so wrapped cells of one record stay one row.
 */
function textRowBreaks(ys: number[], xs: number[], words: readonly RawWord[], geom: PageGeom, rowRuled: boolean): Set<number> {
  const out = new Set<number>();
  for (let r = 0; r + 1 < ys.length; r++) {
    const rowWords = words.filter((w) => locate(ys, (w.box.y0 + w.box.y1) / 2) === r);
    if (rowWords.length < 3) continue;
    const bands = bandsOf(buildFragments(rowWords, geom));
    if (bands.length < 3) continue;
    const cuts: number[] = [];
    const used = bands.map((band) => {
      const colsUsed = new Set<number>();
      for (const f of band) for (const w of f.words) colsUsed.add(locate(xs, (w.box.x0 + w.box.x1) / 2));
      return colsUsed;
    });
    // in a grid ruled row by row, several lines in a row are one record with wrapped cells, unless ≥ 3 lines each read as a whole record (first column and more filled)
    if (rowRuled && used.filter((u) => u.size >= 2 && u.has(0)).length < 3) continue;
    for (let k = 1; k < bands.length; k++) {
      const colsUsed = used[k];
      if (colsUsed.size >= 2 || colsUsed.has(0)) {
        const prevBottom = Math.max(...bands[k - 1].map((f) => f.box.y1));
        const top = Math.min(...bands[k].map((f) => f.box.y0));
        cuts.push((prevBottom + top) / 2);
      }
    }
    if (cuts.length >= 2) for (const c of cuts) out.add(c);
  }
  return out;
}
