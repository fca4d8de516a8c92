import { checkInterrupt } from '@quire/core';
import type { RawPage, RawWord, TableElement } from '@quire/core';
import { cutFrameText, dropEmptyGridLines, isDots, isQuantity, joinWrappedRows, tableFromDrafts, type CellDraft } from '@quire/tables';
import { bandsOf, buildFragments } from './lines.js';
import { RULE_TOL, ruleComponents, UnionFind, type Rule, type Rulings } from './rulings.js';
import { attachBullets, basisRows, cellText, columnsOf, leaderSplit } from './tables-text.js';
import type { Frag, PageGeom } from './types.js';

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
  for (const comp of ruleComponents(rulings).flatMap((c) => splitAtGutters(c, words))) {
    checkInterrupt();
    if (comp.h.length < 2 || comp.v.length < 2) continue;
    const res = gridTable(comp.h, comp.v, raw, words.filter((w) => !taken.has(w)), geom);
    if (!res) continue;
    for (const w of res.words) taken.add(w);
    out.push(res);
  }
  return out;
}

/**
 * Frames joined only by connectors (a box-and-arrow diagram: boxes in a row, arrows from one side to the
 * next) touch through the arrows, so their rules form one component, and the grid read from it made a
 * row of boxes one table. A table's outer rules run on across every column; between separate frames the
 * outer edge has a gap over a stretch that holds no text. The component is cut at such gutters (columns,
 * then rows) and each part, its rules clipped to it, is read on its own: a lone box is then no table, and
 * two ruled tables joined by a stray line are two tables.
 */
function splitAtGutters(comp: { h: Rule[]; v: Rule[] }, words: readonly RawWord[]): { h: Rule[]; v: Rule[] }[] {
  const size = comp.h.length + comp.v.length;
  // each part holds fewer rules than the whole, so the recursion ends
  // cut only where every part is a closed frame of its own (boxes joined by arrows); the open grid lines
  // of a chart or a form, though they break off, stay as they are
  const parts = (spans: [number, number][], axis: 'x' | 'y') => {
    const ps = spans.map(([lo, hi]) => clip(comp, lo, hi, axis)).filter((c) => c.h.length + c.v.length > 0);
    if (!ps.every(closedFrame)) return [comp];
    return ps.flatMap((c) => (c.h.length + c.v.length < size ? splitAtGutters(c, words) : [c]));
  };
  const cols = cutAtGutters(comp.h, comp.v, words, (w) => [w.box.x0, w.box.x1], (w) => [w.box.y0, w.box.y1]);
  if (cols.length > 1) return parts(cols, 'x');
  const rows = cutAtGutters(comp.v, comp.h, words, (w) => [w.box.y0, w.box.y1], (w) => [w.box.x0, w.box.x1]);
  if (rows.length > 1) return parts(rows, 'y');
  return [comp];
}

/** Rules on all four sides of the rules' extent, each covering nearly its whole side. */
function closedFrame(c: { h: Rule[]; v: Rule[] }): boolean {
  if (c.h.length < 2 || c.v.length < 2) return false;
  const x0 = Math.min(...c.h.map((r) => r.a)), x1 = Math.max(...c.h.map((r) => r.b));
  const y0 = Math.min(...c.v.map((r) => r.a)), y1 = Math.max(...c.v.map((r) => r.b));
  const side = (rules: Rule[], p: number, lo: number, hi: number) =>
    rules.filter((r) => Math.abs(r.p - p) <= RULE_TOL).reduce((s, r) => s + Math.max(0, Math.min(r.b, hi) - Math.max(r.a, lo)), 0) >= 0.9 * (hi - lo);
  return side(c.h, y0, x0, x1) && side(c.h, y1, x0, x1) && side(c.v, x0, y0, y1) && side(c.v, x1, y0, y1);
}

/**
 * The spans between gutters along one direction: `across` are the rules running along it (horizontals
 * for columns), `cuts` the rules that divide it (verticals for columns). A gutter is a stretch between two
 * neighbouring cut positions that holds no word and over which the outer rules on both edges (where the
 * edge is drawn at all) break off. Returns one span (no cut) when there is no gutter.
 */
function cutAtGutters(across: Rule[], cuts: Rule[], words: readonly RawWord[], along: (w: RawWord) => [number, number], side: (w: RawWord) => [number, number]): [number, number][] {
  if (across.length < 2 || cuts.length < 2) return [[-Infinity, Infinity]];
  const lo = Math.min(...across.map((r) => r.a)), hi = Math.max(...across.map((r) => r.b));
  const edge0 = Math.min(...across.map((r) => r.p)), edge1 = Math.max(...across.map((r) => r.p));
  const ps = positions(cuts, lo, hi);
  const inside = words.filter((w) => { const [s0, s1] = side(w); const m = (s0 + s1) / 2; return m > edge0 && m < edge1; });
  const edgeRules = (e: number) => across.filter((r) => Math.abs(r.p - e) <= RULE_TOL);
  const top = edgeRules(edge0), bottom = edgeRules(edge1);
  if (!top.length && !bottom.length) return [[-Infinity, Infinity]];
  const covers = (rules: Rule[], m: number) => rules.some((r) => r.a - RULE_TOL <= m && r.b + RULE_TOL >= m);
  const spans: [number, number][] = [];
  let start = -Infinity;
  for (let i = 0; i + 1 < ps.length; i++) {
    const a = ps[i], b = ps[i + 1], m = (a + b) / 2;
    const empty = !inside.some((w) => { const [w0, w1] = along(w); return w1 > a && w0 < b; });
    const broken = (!top.length || !covers(top, m)) && (!bottom.length || !covers(bottom, m));
    if (!empty || !broken) continue;
    spans.push([start, a]);
    start = b;
  }
  if (!spans.length) return [[-Infinity, Infinity]];
  spans.push([start, Infinity]);
  return spans;
}

/** The rules of a component within [lo, hi] along x (or y): rules across are clipped, rules outside dropped. */
function clip(comp: { h: Rule[]; v: Rule[] }, lo: number, hi: number, axis: 'x' | 'y'): { h: Rule[]; v: Rule[] } {
  const [across, cuts] = axis === 'x' ? [comp.h, comp.v] : [comp.v, comp.h];
  // a connector's stub left at the part's edge (shorter than two tolerances) is no rule of the part
  const keptAcross = across.map((r) => ({ ...r, a: Math.max(r.a, lo), b: Math.min(r.b, hi) })).filter((r) => r.b - r.a > 2 * RULE_TOL);
  const keptCuts = cuts.filter((r) => r.p >= lo - RULE_TOL && r.p <= hi + RULE_TOL);
  return axis === 'x' ? { h: keptAcross, v: keptCuts } : { h: keptCuts, v: keptAcross };
}

/** Index i with edges[i] <= v < edges[i+1], or -1 outside. */
function locate(edges: readonly number[], v: number): number {
  if (v < edges[0] || v > edges[edges.length - 1]) return -1;
  let lo = 0, hi = edges.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (edges[mid] <= v) lo = mid;
    else hi = mid;
  }
  return lo;
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
  let xs = positions(v, Math.min(...h.map((r) => r.a)), Math.max(...h.map((r) => r.b)));
  let ys = positions(h, Math.min(...v.map((r) => r.a)), Math.max(...v.map((r) => r.b)));
  if (xs.length < 3 || ys.length < 3) return undefined;
  const framed = words.filter((w) => {
    const cx = (w.box.x0 + w.box.x1) / 2, cy = (w.box.y0 + w.box.y1) / 2;
    return cx > xs[0] && cx < xs[xs.length - 1] && cy > ys[0] && cy < ys[ys.length - 1];
  });
  const stub = stubOutsideFrame(xs[0], xs[xs.length - 1], ys, framed, words, geom);
  if (stub) xs = [stub.x0, ...xs];
  const inGrid = stub ? [...framed, ...stub.words] : framed;
  const has = (rules: Rule[], p: number, mid: number) => rules.some((r) => Math.abs(r.p - p) <= RULE_TOL && r.a - RULE_TOL <= mid && r.b + RULE_TOL >= mid);
  // a frame with no column rule through any of its text rows (a boxed list, a banded table ruled between
  // rows only) reads its columns from text alignment: left to the borderless detector
  const textRows = ys.slice(0, -1).map((y, r) => (y + ys[r + 1]) / 2).filter((mid, r) => inGrid.some((w) => locate(ys, (w.box.y0 + w.box.y1) / 2) === r));
  if (!textRows.some((mid) => xs.slice(1, -1).some((x) => has(v, x, mid)))) return undefined;
  const virtualCols = textColumnBreaks(xs, inGrid, geom);
  const ruledXs = xs;
  if (virtualCols.size) xs = [...xs, ...virtualCols].sort((a, b) => a - b);
  const virtual = textRowBreaks(ys, xs, inGrid, geom, ys.length - 2 >= 2);
  if (virtual.size) ys = [...ys, ...virtual].sort((a, b) => a - b);
  const rows = ys.length - 1, cols = xs.length - 1;
  const uf = new UnionFind(rows * cols);
  // Rows no column rule crosses (column rules that stop under the header, a banded body) take the
  // header's columns where their text stands on both sides of a column line and leaves the line free.
  // A row whose text keeps to one side (a section title), a lone full-width row between ruled rows and
  // one or two unruled rows closing a ruled table (notes, a source line) span as drawn.
  const crossed = (r: number) => ruledXs.slice(1, -1).some((x) => has(v, x, (ys[r] + ys[r + 1]) / 2));
  let lastCrossed = rows - 1;
  while (lastCrossed >= 0 && !crossed(lastCrossed)) lastCrossed--;
  const sided = (x: number, y0: number, y1: number) => {
    const rowWords = inGrid.filter((w) => { const cy = (w.box.y0 + w.box.y1) / 2; return cy > y0 && cy < y1; });
    return rowWords.some((w) => w.box.x1 <= x) && rowWords.some((w) => w.box.x0 >= x);
  };
  for (let r = 0; r < rows; r++) {
    const ymid = (ys[r] + ys[r + 1]) / 2;
    const textRow = virtual.has(ys[r]) || virtual.has(ys[r + 1]);
    const unruled = !crossed(r) && !(r > lastCrossed && rows - 1 - lastCrossed <= 2 && lastCrossed >= 0) &&
      ((r > 0 && !crossed(r - 1)) || (r + 1 < rows && !crossed(r + 1)));
    for (let c = 1; c < cols; c++) {
      if (has(v, xs[c], ymid)) continue;
      if (unruled && !virtualCols.has(xs[c]) && sided(xs[c], ys[r], ys[r + 1]) && !spansTextColumnBreak(xs[c], ys[r], ys[r + 1], true, ruledXs, v, inGrid, geom)) continue;
      if (virtualCols.has(xs[c]) && !spansTextColumnBreak(xs[c], ys[r], ys[r + 1], textRow, ruledXs, v, inGrid, geom)) continue;
      uf.union(r * cols + c - 1, r * cols + c);
    }
  }
  for (let r = 1; r < rows; r++) {
    if (virtual.has(ys[r])) continue;
    // the frame's row rules stop at its edge; a stub column outside it keeps the frame's rows
    for (let c = stub ? 1 : 0; c < cols; c++) if (!has(h, ys[r], (xs[c] + xs[c + 1]) / 2)) uf.union((r - 1) * cols + c, r * cols + c);
  }
  const drafts = spanDrafts(uf, rows, cols, xs, ys);
  const byIndex = new Map<number, CellDraft>();
  for (const d of drafts) byIndex.set(d.row * cols + d.col, d);
  for (const w of inGrid) {
    const c = locate(xs, (w.box.x0 + w.box.x1) / 2), r = locate(ys, (w.box.y0 + w.box.y1) / 2);
    if (c >= 0 && r >= 0) byIndex.get(uf.find(r * cols + c))!.words.push(w);
  }
  const joined = joinWrappedRows(drafts, rows, (r) => !virtual.has(ys[r + 1]));
  const filled = joined.drafts.filter((d) => d.words.length > 0).length;
  if (filled < 2 || filled < 0.2 * joined.drafts.length) return undefined;
  // a frame whose every text cell spans the full width has no column rules (a boxed list, a banded table
  // ruled between rows only): its columns come from text alignment, left to the borderless detector
  if (joined.drafts.every((d) => d.words.length === 0 || d.colSpan === cols)) return undefined;
  const grid = dropEmptyGridLines(joined.drafts, joined.rows, cols, joined.labelRows);
  // a frame round a whole exhibit: its caption and notes go back to the page's text
  const cut = cutFrameText(grid.drafts, grid.rows, grid.cols);
  const table = tableFromDrafts(cut.drafts, cut.rows, grid.cols, raw, (ws) => cellText(ws, geom), 0.95, false, Math.max(0, grid.leadingRows - cut.top));
  table.extra = { source: 'ruled' };
  const outside = new Set(cut.words);
  return { table, words: new Set(inGrid.filter((w) => !outside.has(w))) };
}

/**
 * Row labels set left of a ruled frame (a stub column outside the rules): one fragment per grid row just
 * left of the frame, in ≥ 2 rows that hold text inside the frame and in at least half of them, the
 * fragments aligned on their left or right edges, closer to the frame than 6 ems and no wider than 40 %
 * of it. Anything else to
 * their left on the same line (running text beside the table) disqualifies them. Returns the column's
 * left edge and its words.
 */
function stubOutsideFrame(frameX0: number, frameX1: number, ys: number[], framed: readonly RawWord[], words: readonly RawWord[], geom: PageGeom): { x0: number; words: RawWord[] } | undefined {
  const rowOf = (w: RawWord) => locate(ys, (w.box.y0 + w.box.y1) / 2);
  const outside = words.filter((w) => w.box.x1 <= frameX0 + 0.002 && rowOf(w) >= 0 && w.direction !== 'ttb' && w.direction !== 'btt');
  if (outside.length === 0) return undefined;
  const textRows = new Set(framed.map(rowOf));
  const labels: { row: number; frag: ReturnType<typeof buildFragments>[number] }[] = [];
  for (const band of bandsOf(buildFragments(outside, geom))) {
    const rows = new Set(band.flatMap((f) => f.words.map(rowOf)));
    if (band.length !== 1 || rows.size !== 1) return undefined;
    const [row] = rows;
    if (!textRows.has(row) || labels.some((l) => l.row === row)) return undefined;
    labels.push({ row, frag: band[0] });
  }
  if (labels.length < 2 || labels.length < 0.5 * textRows.size) return undefined;
  const em = Math.max(...labels.map((l) => l.frag.fontSize)) / geom.width;
  const lefts = labels.map((l) => l.frag.box.x0), rights = labels.map((l) => l.frag.box.x1);
  const spread = (v: number[]) => Math.max(...v) - Math.min(...v);
  if (Math.min(spread(lefts), spread(rights)) > 0.5 * em) return undefined;
  if (frameX0 - Math.max(...rights) > 6 * em) return undefined;
  // lines of a text column beside the table are as wide as a column of the page, labels are not
  if (Math.max(...labels.map((l) => l.frag.box.x1 - l.frag.box.x0)) > 0.4 * (frameX1 - frameX0)) return undefined;
  return { x0: Math.min(...lefts) - 0.25 * em, words: labels.flatMap((l) => l.frag.words) };
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
    // sideways words (column names set bottom-to-top) are not text lines of the row
    const rowWords = words.filter((w) => locate(ys, (w.box.y0 + w.box.y1) / 2) === r && w.direction !== 'btt' && w.direction !== 'ttb');
    if (rowWords.length < 3) continue;
    const bands = bandsOf(buildFragments(rowWords, geom));
    if (bands.length < 2 || (bands.length < 3 && stackedFigureColumns(bands, xs) < 2)) continue;
    const cuts: number[] = [];
    const used = bands.map((band) => {
      const colsUsed = new Set<number>();
      for (const f of band) for (const w of f.words) colsUsed.add(locate(xs, (w.box.x0 + w.box.x1) / 2));
      return colsUsed;
    });
    // in a grid ruled row by row, several lines in a row are one record with wrapped cells, unless ≥ 3
    // lines each read as a whole record (first column and more filled), or two or more columns hold one
    // figure on every line (stacked values: each line is a row of its own, as a reader compares them)
    const stacked = stackedFigureColumns(bands, xs) >= 2;
    if (rowRuled && !stacked && used.filter((u) => u.size >= 2 && u.has(0)).length < 3) {
      // records set apart by blank lines (a group title, then records whose cells wrap) are rows each
      for (const at of blankLineCuts(bands, used)) out.add(at);
      continue;
    }
    if (stacked) {
      for (let k = 1; k < bands.length; k++) out.add((Math.max(...bands[k - 1].map((f) => f.box.y1)) + Math.min(...bands[k].map((f) => f.box.y0))) / 2);
      continue;
    }
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

/**
 * Where a grid row's text lines are set apart by a blank line (a gap of ≥ 0.8 of the line height, where
 * a wrapped cell's lines follow each other tightly) and the line after the gap starts a record (it
 * fills the row's first text column): the middle of each such gap. `used` holds the columns each line fills.
 */
function blankLineCuts(bands: Frag[][], used: Set<number>[]): number[] {
  const first = Math.min(...used.flatMap((u) => [...u]));
  const heights = bands.map((band) => Math.max(...band.map((f) => f.box.y1 - f.box.y0))).sort((a, b) => a - b);
  const lineHeight = heights[heights.length >> 1];
  const cuts: number[] = [];
  for (let k = 1; k < bands.length; k++) {
    const prevBottom = Math.max(...bands[k - 1].map((f) => f.box.y1)), top = Math.min(...bands[k].map((f) => f.box.y0));
    if (top - prevBottom >= 0.8 * lineHeight && used[k].has(first)) cuts.push((prevBottom + top) / 2);
  }
  return cuts;
}

/** Columns (past the first) holding exactly one figure on every text line of a grid row. */
function stackedFigureColumns(bands: Frag[][], xs: number[]): number {
  let n = 0;
  for (let c = 1; c + 1 < xs.length; c++) {
    const ok = bands.every((band) => {
      const inCol = band.flatMap((f) => f.words).filter((w) => locate(xs, (w.box.x0 + w.box.x1) / 2) === c);
      return inCol.length > 0 && isQuantity(inCol.map((w) => w.text).join(' '));
    });
    if (ok) n++;
  }
  return n;
}

/**
 * Grids ruled only between groups of columns (statistical tables: a rule between "Total", "Male" and
 * "Female", none between each group's sub-columns) hold several text columns in one grid column. A grid
 * column is cut at the whitespace gaps its text lines share, taken from its fullest lines (as for
 * borderless tables) when ≥ 3 lines, and ≥ 30 % of its lines, hold two or more fragments. Dot leaders
 * count as whitespace; a bullet and the text it marks are one fragment.
 */
function textColumnBreaks(xs: number[], words: readonly RawWord[], geom: PageGeom): Set<number> {
  const out = new Set<number>();
  for (let c = 0; c + 1 < xs.length; c++) {
    const colWords = words.filter((w) => locate(xs, (w.box.x0 + w.box.x1) / 2) === c);
    if (colWords.length < 6) continue;
    const lines = attachBullets(bandsOf(leaderSplit(buildFragments(colWords, geom).filter((f) => !f.vertical), geom).pieces), geom);
    const multi = lines.filter((l) => l.length >= 2).length;
    if (multi < 3 || multi < 0.3 * lines.length) continue;
    const sub = columnsOf(basisRows(lines));
    for (let k = 1; k < sub.length; k++) {
      const at = freestPoint(sub[k - 1].x1, sub[k].x0, colWords);
      if (at - xs[c] > RULE_TOL && xs[c + 1] - at > RULE_TOL) out.add(at);
    }
  }
  return out;
}

/**
 * Where to cut the gap a..b between two text columns: the middle of its widest stretch that no word
 * covers. Header words wider than a right-aligned column of figures overhang its left edge into the
 * gap, so the plain middle could cut through them; words covering the whole gap (titles over both
 * columns) are left out of the reckoning.
 */
function freestPoint(a: number, b: number, words: readonly RawWord[]): number {
  const covers = words.filter((w) => w.box.x1 > a && w.box.x0 < b && !(w.box.x0 <= a && w.box.x1 >= b))
    .map((w) => [Math.max(a, w.box.x0), Math.min(b, w.box.x1)] as const).sort((p, q) => p[0] - q[0]);
  let best = -1, bestAt = (a + b) / 2, at = a;
  for (const [x0, x1] of [...covers, [b, b] as const]) {
    if (x0 - at > best) { best = x0 - at; bestAt = (at + x0) / 2; }
    at = Math.max(at, x1);
  }
  return best > 0 ? bestAt : (a + b) / 2;
}

/**
 * Whether the ruled cell around a text column break at x (between the vertical rules nearest to it,
 * rows y0..y1) reads as one cell across the break: text runs over the break, or — in a row bounded by
 * rules, not cut from text lines — its only text is centred in the ruled cell (a group title over its
 * sub-columns). Text on both sides, or any text in a row cut from text lines, splits it.
 */
function spansTextColumnBreak(x: number, y0: number, y1: number, textRow: boolean, ruledXs: number[], v: Rule[], words: readonly RawWord[], geom: PageGeom): boolean {
  const ymid = (y0 + y1) / 2;
  const standing = (p: number) => v.some((r) => Math.abs(r.p - p) <= RULE_TOL && r.a - RULE_TOL <= ymid && r.b + RULE_TOL >= ymid);
  let left = ruledXs[0], right = ruledXs[ruledXs.length - 1];
  for (const p of ruledXs) {
    if (p < x && p > left && standing(p)) left = p;
    if (p > x && p < right && standing(p)) right = p;
  }
  const inCell = words.filter((w) => {
    const cx = (w.box.x0 + w.box.x1) / 2, cy = (w.box.y0 + w.box.y1) / 2;
    return cx > left && cx < right && cy > y0 && cy < y1;
  });
  if (inCell.length === 0) return !textRow;
  const lines = bandsOf(leaderSplit(buildFragments(inCell, geom).filter((f) => !f.vertical), geom).pieces);
  // text runs over the break: a word across it, or words either side of it closer than a wide word space
  for (const line of lines) {
    const ws = line.flatMap((f) => f.words).filter((w) => !isDots(w.text)).sort((a, b) => a.box.x0 - b.box.x0);
    for (let k = 0; k < ws.length; k++) {
      if (ws[k].box.x0 < x && ws[k].box.x1 > x) return true;
      const next = ws[k + 1];
      if (next && ws[k].box.x1 <= x && next.box.x0 >= x && (next.box.x0 - ws[k].box.x1) * geom.width < 0.5 * Math.max(ws[k].fontSize, next.fontSize)) return true;
    }
  }
  const kept = lines.flat().flatMap((f) => f.words).filter((w) => !isDots(w.text));
  if (textRow || kept.some((w) => w.box.x1 <= x) === kept.some((w) => w.box.x0 >= x)) return false;
  const x0 = Math.min(...kept.map((w) => w.box.x0)), x1 = Math.max(...kept.map((w) => w.box.x1));
  return Math.abs((x0 + x1) / 2 - (left + right) / 2) <= 0.1 * (right - left);
}
