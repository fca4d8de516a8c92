import type { RawImage } from '@quire/core';
import type { Piece } from './paths.js';

/**
 * Groups curve/diagonal path pieces into drawings. Pieces whose boxes come within `gap` of each other
 * join one cluster (union-find over a uniform grid, so it stays linear on pages with thousands of
 * paths). A cluster is reported as a vector image when it holds at least MIN_PATHS path segments and
 * spans a visible area: one rounded corner or a lone arrow is not a drawing, a plotted series is.
 * pathCount also counts straight strokes whose centre falls inside (axes, ticks, bars, grid lines).
 * A large stroked outline (a figure's frame) joins only what lies inside it: two framed figures side
 * by side across a narrow column gutter stay two drawings instead of one box over the text between.
 */
const MIN_PATHS = 12;
const MIN_SIDE = 0.03; // of the page's larger side
const MAX_PIECES = 50_000;
const FRAME_SIDE = 0.08; // of the page's larger side: outlines at least this wide and tall are frames

export function clusterDrawings(pieces: Piece[], straightCentres: [number, number][], W: number, H: number): RawImage[] {
  if (pieces.length === 0) return [];
  const list = pieces.length > MAX_PIECES ? pieces.slice(0, MAX_PIECES) : pieces;
  const norm = Math.max(W, H);
  const gap = 0.02 * norm;
  const parent = list.map((_, i) => i);
  const find = (i: number): number => { while (parent[i] !== i) { parent[i] = parent[parent[i]]; i = parent[i]; } return i; };
  const grid = new Map<string, number[]>();
  const cell = gap * 2;
  list.forEach((p, i) => {
    const cx0 = Math.floor((p.x0 - gap) / cell), cx1 = Math.floor((p.x1 + gap) / cell);
    const cy0 = Math.floor((p.y0 - gap) / cell), cy1 = Math.floor((p.y1 + gap) / cell);
    if ((cx1 - cx0 + 1) * (cy1 - cy0 + 1) > 2500) return; // page-sized curve: leave it on its own
    for (let cx = cx0; cx <= cx1; cx++) {
      for (let cy = cy0; cy <= cy1; cy++) {
        const key = `${cx},${cy}`;
        const bucket = grid.get(key);
        if (!bucket) { grid.set(key, [i]); continue; }
        for (const j of bucket) if (joins(p, list[j], gap, norm)) parent[find(i)] = find(j);
        if (bucket.length < 64) bucket.push(i); // dense cells: members are already joined
      }
    }
  });
  const groups = new Map<number, Piece>();
  list.forEach((p, i) => {
    const r = find(i);
    const g = groups.get(r);
    if (!g) groups.set(r, { ...p });
    else { g.x0 = Math.min(g.x0, p.x0); g.y0 = Math.min(g.y0, p.y0); g.x1 = Math.max(g.x1, p.x1); g.y1 = Math.max(g.y1, p.y1); g.count += p.count; }
  });
  const out: RawImage[] = [];
  for (const g of groups.values()) {
    const inside = straightCentres.filter(([x, y]) => x >= g.x0 && x <= g.x1 && y >= g.y0 && y <= g.y1).length;
    const count = g.count + inside;
    if (g.count < 3 || count < MIN_PATHS || Math.max(g.x1 - g.x0, g.y1 - g.y0) < MIN_SIDE * norm) continue;
    const box = { x0: c01(g.x0 / W), y0: c01(g.y0 / H), x1: c01(g.x1 / W), y1: c01(g.y1 / H) };
    if (box.x1 <= box.x0 && box.y1 <= box.y0) continue;
    out.push({ box: roundBox(box), kind: 'vector', pathCount: count });
  }
  return out.sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
}

/** Pieces join when they come within `gap`; a large outline only joins pieces whose centre it holds (and they, it). */
function joins(a: Piece, b: Piece, gap: number, norm: number): boolean {
  const frame = (p: Piece) => p.outline === true && p.x1 - p.x0 > FRAME_SIDE * norm && p.y1 - p.y0 > FRAME_SIDE * norm;
  if (frame(a) || frame(b)) return (frame(a) && holdsCentre(a, b)) || (frame(b) && holdsCentre(b, a));
  return near(a, b, gap);
}
const holdsCentre = (outer: Piece, p: Piece) => {
  const cx = (p.x0 + p.x1) / 2, cy = (p.y0 + p.y1) / 2;
  return cx > outer.x0 && cx < outer.x1 && cy > outer.y0 && cy < outer.y1;
};
const near = (a: Piece, b: Piece, gap: number) =>
  a.x0 - gap <= b.x1 && b.x0 - gap <= a.x1 && a.y0 - gap <= b.y1 && b.y0 - gap <= a.y1;
const c01 = (n: number) => (n < 0 ? 0 : n > 1 ? 1 : n);
const r6 = (n: number) => Math.round(n * 1e6) / 1e6;
const roundBox = (b: { x0: number; y0: number; x1: number; y1: number }) => ({ x0: r6(b.x0), y0: r6(b.y0), x1: r6(b.x1), y1: r6(b.y1) });
