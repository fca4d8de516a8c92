import { checkInterrupt } from '@quire/core';
import type { Box } from '@quire/core';

/**
 * Reading order by recursive XY-cut over block boxes. In each region:
 *  1. a vertical whitespace gap (≥ minGutter) running through the whole region splits it into columns,
 *     read left to right;
 *  2. otherwise horizontal gaps split it into slices read top to bottom — but consecutive slices that
 *     share a column structure are merged first (two columns whose paragraph breaks happen to line up, or
 *     a longer left column continuing under the end of the right one), so columns are read whole while a
 *     full-width heading between column sections still splits them;
 *  3. with no cut left (overlapping boxes), by rows of text (boxes sharing most of their height, so words
 *     of one line whose top edges differ by a little are one row), top to bottom, each row left to right.
 */
export function readingOrder<T>(items: readonly T[], boxOf: (t: T) => Box, minGutter: number): T[] {
  const cut = (list: T[]): T[] => {
    if (list.length <= 1) return list;
    checkInterrupt();
    const cols = splitX(list, boxOf, minGutter);
    if (cols.length > 1) return cols.flatMap(cut);
    const slices = splitY(list, boxOf);
    if (slices.length > 1) {
      const merged = mergeSlices(slices, boxOf, minGutter);
      if (merged.length > 1) return merged.flatMap(cut);
    }
    return byBaselineBands(list, boxOf);
  };
  return cut([...items]);
}

function splitX<T>(list: readonly T[], boxOf: (t: T) => Box, minGutter: number): T[][] {
  const sorted = [...list].sort((a, b) => boxOf(a).x0 - boxOf(b).x0);
  const groups: T[][] = [];
  let maxX = -Infinity;
  for (const t of sorted) {
    const b = boxOf(t);
    if (groups.length === 0 || b.x0 > maxX + minGutter) groups.push([t]);
    else groups[groups.length - 1].push(t);
    maxX = Math.max(maxX, b.x1);
  }
  return groups;
}

/** Boxes overlapping by less than this (normalized) still leave a cut between them: descenders touch ascenders. */
const Y_EPS = 0.0015;

function splitY<T>(list: readonly T[], boxOf: (t: T) => Box): T[][] {
  const sorted = [...list].sort((a, b) => boxOf(a).y0 - boxOf(b).y0);
  const groups: T[][] = [];
  let maxY = -Infinity;
  for (const t of sorted) {
    const b = boxOf(t);
    if (groups.length === 0 || b.y0 >= maxY - Y_EPS) groups.push([t]);
    else groups[groups.length - 1].push(t);
    maxY = Math.max(maxY, b.y1);
  }
  return groups;
}

function extent<T>(list: readonly T[], boxOf: (t: T) => Box): [number, number] {
  let x0 = Infinity, x1 = -Infinity;
  for (const t of list) {
    const b = boxOf(t);
    if (b.x0 < x0) x0 = b.x0;
    if (b.x1 > x1) x1 = b.x1;
  }
  return [x0, x1];
}

function mergeSlices<T>(slices: T[][], boxOf: (t: T) => Box, minGutter: number): T[][] {
  const out: T[][] = [];
  let cur = slices[0];
  for (let i = 1; i < slices.length; i++) {
    const next = slices[i];
    if (sameColumns(cur, next, boxOf, minGutter)) cur = [...cur, ...next];
    else { out.push(cur); cur = next; }
  }
  out.push(cur);
  return out;
}

/** Both slices are multi-column with a common gutter, or one is multi-column and the other fits inside one of its columns. */
function sameColumns<T>(a: T[], b: T[], boxOf: (t: T) => Box, minGutter: number): boolean {
  const ga = splitX(a, boxOf, minGutter), gb = splitX(b, boxOf, minGutter);
  if (ga.length > 1 && gb.length > 1) return splitX([...a, ...b], boxOf, minGutter).length > 1;
  const [multi, single] = ga.length > 1 ? [ga, b] : gb.length > 1 ? [gb, a] : [undefined, undefined];
  if (!multi || !single) return false;
  const [s0, s1] = extent(single, boxOf);
  const slack = minGutter / 2;
  return multi.some((col, i) => {
    const [c0, c1] = extent(col, boxOf);
    const nextStart = i + 1 < multi.length ? extent(multi[i + 1], boxOf)[0] : Infinity;
    const prevEnd = i > 0 ? extent(multi[i - 1], boxOf)[1] : -Infinity;
    return s0 >= Math.min(c0, prevEnd + minGutter) - slack && s1 <= Math.max(c1, nextStart - minGutter) + slack;
  });
}

/** Rows of boxes overlapping vertically by ≥ half the smaller height (one baseline band), top to bottom; each row left to right. */
function byBaselineBands<T>(list: readonly T[], boxOf: (t: T) => Box): T[] {
  const sorted = [...list].sort((a, b) => boxOf(a).y0 + boxOf(a).y1 - boxOf(b).y0 - boxOf(b).y1);
  const rows: T[][] = [];
  let core: Box | undefined;
  for (const t of sorted) {
    const b = boxOf(t);
    const overlap = core ? Math.min(core.y1, b.y1) - Math.max(core.y0, b.y0) : -1;
    if (core && overlap >= 0.5 * Math.min(core.y1 - core.y0, b.y1 - b.y0)) rows[rows.length - 1].push(t);
    else { rows.push([t]); core = b; }
  }
  return rows.flatMap((row) => row.sort((a, b) => boxOf(a).x0 - boxOf(b).x0));
}
