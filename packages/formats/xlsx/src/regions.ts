import { contains, type CellRect } from './a1.js';
import type { CellStore } from './cell-store.js';

/**
 * Layout items of a sheet in typed arrays: every non-empty cell (1×1, or its merged rectangle when
 * it anchors a merge) and every empty merge. `cell` points into the CellStore (-1: empty merge).
 */
export interface Items { r0: Int32Array; c0: Int32Array; r1: Int32Array; c1: Int32Array; cell: Int32Array; count: number }

export interface Regions {
  /** Items inside each defined Excel table, by table index. */
  tables: Int32Array[];
  /** Contiguous blocks of the remaining items (separated by fully empty rows/columns). */
  blocks: Int32Array[];
  items: Items;
}

const key = (r: number, c: number) => r * 16384 + c;

function buildItems(cells: CellStore, merges: CellRect[]): Items {
  const anchors = new Map<number, number>();
  merges.forEach((m, i) => anchors.set(key(m.r0, m.c0), i));
  // Cells hidden under a merge (not its top-left) are not displayed by Excel; skip them.
  const mergeArea = merges.reduce((a, m) => a + (m.r1 - m.r0 + 1) * (m.c1 - m.c0 + 1), 0);
  const covered = new Set<number>();
  if (mergeArea <= 5_000_000) {
    for (const m of merges) for (let r = m.r0; r <= m.r1; r++) for (let c = m.c0; c <= m.c1; c++) if (r !== m.r0 || c !== m.c0) covered.add(key(r, c));
  }
  const n = cells.count + merges.length;
  const it: Items = { r0: new Int32Array(n), c0: new Int32Array(n), r1: new Int32Array(n), c1: new Int32Array(n), cell: new Int32Array(n), count: 0 };
  const used = new Set<number>();
  const add = (r0: number, c0: number, r1: number, c1: number, cell: number) => {
    const k = it.count++;
    it.r0[k] = r0; it.c0[k] = c0; it.r1[k] = r1; it.c1[k] = c1; it.cell[k] = cell;
  };
  for (let i = 0; i < cells.count; i++) {
    const r = cells.rows[i], c = cells.cols[i];
    if (covered.has(key(r, c))) continue;
    const m = anchors.get(key(r, c));
    if (m !== undefined) { used.add(m); const x = merges[m]; add(x.r0, x.c0, x.r1, x.c1, i); }
    else add(r, c, r, c, i);
  }
  merges.forEach((m, i) => { if (!used.has(i)) add(m.r0, m.c0, m.r1, m.c1, -1); });
  return it;
}

/** Splits items along one axis at fully empty rows (or columns); one group when there is no gap. */
function splitAxis(idx: Int32Array, lo: Int32Array, hi: Int32Array): Int32Array[] {
  let min = Infinity, max = -Infinity;
  for (const i of idx) { if (lo[i] < min) min = lo[i]; if (hi[i] > max) max = hi[i]; }
  const span = max - min + 1;
  const diff = new Int32Array(span + 1);
  for (const i of idx) { diff[lo[i] - min]++; diff[hi[i] - min + 1]--; }
  const band = new Int32Array(span);
  let b = -1, run = 0, prev = false;
  for (let k = 0; k < span; k++) {
    run += diff[k];
    const occ = run > 0;
    if (occ && !prev) b++;
    band[k] = occ ? b : -1;
    prev = occ;
  }
  if (b <= 0) return [idx];
  const counts = new Int32Array(b + 1);
  for (const i of idx) counts[band[lo[i] - min]]++;
  const groups = Array.from({ length: b + 1 }, (_, g) => new Int32Array(counts[g]));
  const fill = new Int32Array(b + 1);
  for (const i of idx) { const g = band[lo[i] - min]; groups[g][fill[g]++] = i; }
  return groups;
}

/** Recursive XY-cut: split at empty rows, then at empty columns, until neither splits. */
function xyCut(items: Items, idx: Int32Array): Int32Array[] {
  const leaves: Int32Array[] = [];
  const stack = [idx];
  while (stack.length) {
    const cur = stack.pop()!;
    if (cur.length === 0) continue;
    const byRow = splitAxis(cur, items.r0, items.r1);
    if (byRow.length > 1) { stack.push(...byRow); continue; }
    const byCol = splitAxis(cur, items.c0, items.c1);
    if (byCol.length > 1) { stack.push(...byCol); continue; }
    leaves.push(cur);
  }
  return leaves;
}

export function rectOf(items: Items, idx: Int32Array): CellRect {
  let r0 = Infinity, c0 = Infinity, r1 = -Infinity, c1 = -Infinity;
  for (const i of idx) {
    if (items.r0[i] < r0) r0 = items.r0[i];
    if (items.c0[i] < c0) c0 = items.c0[i];
    if (items.r1[i] > r1) r1 = items.r1[i];
    if (items.c1[i] > c1) c1 = items.c1[i];
  }
  return { r0, c0, r1, c1 };
}

/** Defined tables take their cells first; the rest is cut into blocks. */
export function findRegions(cells: CellStore, merges: CellRect[], tableRefs: CellRect[]): Regions {
  const items = buildItems(cells, merges);
  const inTable = new Int32Array(items.count).fill(-1);
  const counts = new Int32Array(tableRefs.length);
  for (let i = 0; i < items.count; i++) {
    const t = tableRefs.findIndex((x) => contains(x, items.r0[i], items.c0[i]));
    if (t >= 0) { inTable[i] = t; counts[t]++; }
  }
  const tables = tableRefs.map((_, t) => new Int32Array(counts[t]));
  const fill = new Int32Array(tableRefs.length);
  let rest = 0;
  for (let i = 0; i < items.count; i++) if (inTable[i] < 0) rest++;
  const free = new Int32Array(rest);
  let f = 0;
  for (let i = 0; i < items.count; i++) {
    const t = inTable[i];
    if (t >= 0) tables[t][fill[t]++] = i;
    else free[f++] = i;
  }
  return { tables, blocks: xyCut(items, free), items };
}
