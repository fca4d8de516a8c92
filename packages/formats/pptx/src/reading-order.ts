import { TITLE_TYPES } from './placeholders.js';
import type { Shape } from './shapes.js';

const FOOTERS = new Set(['dt', 'ftr', 'sldNum', 'hdr']);

/**
 * Reading order of a slide: the title placeholder first, then the subtitle, then the other shapes
 * top-to-bottom and left-to-right (shapes whose tops are within `bandTol` of a row's first shape
 * share the row and read left to right), then shapes without a position in z-order, then footers.
 */
export function readingOrder(shapes: Shape[], slideH: number, bandTol = 0.02): Shape[] {
  const rank = (s: Shape) => (s.ph && TITLE_TYPES.has(s.ph.type) ? 0 : s.ph?.type === 'subTitle' ? 1 : s.ph && FOOTERS.has(s.ph.type) ? 4 : s.rect ? 2 : 3);
  const byRank = new Map<number, Shape[]>();
  for (const s of shapes) byRank.set(rank(s), [...(byRank.get(rank(s)) ?? []), s]);
  const body = (byRank.get(2) ?? []).slice().sort((a, b) => a.rect!.y - b.rect!.y || a.z - b.z);
  const rows: Shape[][] = [];
  const tol = slideH * bandTol;
  for (const s of body) {
    const row = rows[rows.length - 1];
    if (row && s.rect!.y - row[0].rect!.y <= tol) row.push(s);
    else rows.push([s]);
  }
  const ordered = rows.flatMap((r) => r.sort((a, b) => a.rect!.x - b.rect!.x || a.z - b.z));
  return [...(byRank.get(0) ?? []), ...(byRank.get(1) ?? []), ...ordered, ...(byRank.get(3) ?? []), ...(byRank.get(4) ?? [])];
}
