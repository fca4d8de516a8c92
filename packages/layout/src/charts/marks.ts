import { checkInterrupt } from '@quire/core';
import type { Box, RawPage, RawPath } from '@quire/core';

/** Something plotted or drawn as a key: a filled box (bar, legend swatch), a stroked polyline, a filled sector or marker. */
export interface BoxMark { box: Box; colour: string; order: number }
export interface LineMark { points: [number, number][]; box: Box; colour: string; order: number; filled: boolean }
export interface ShapeMark { points: [number, number][]; box: Box; colour: string; order: number; curved: boolean }

export interface ChartGraphics {
  boxes: BoxMark[];
  lines: LineMark[];
  /** Closed filled non-rectangular shapes: pie sectors, markers, area fills. */
  shapes: ShapeMark[];
  /** Straight horizontal/vertical strokes (axes, grid lines, ticks): normalized, x0 ≤ x1, y0 ≤ y1. */
  rules: Box[];
}

const colourKey = (c: [number, number, number] | undefined) => (c ? c.map((v) => Math.round(v * 255)).join(',') : 'none');
const nearWhite = (c: [number, number, number] | undefined) => !!c && c.every((v) => v > 0.94);

const pointsOf = (flat: number[]): [number, number][] => {
  const out: [number, number][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i], flat[i + 1]]);
  return out;
};

function boundsOf(pts: readonly [number, number][]): Box {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of pts) { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); }
  return { x0, y0, x1, y1 };
}

/** Every edge horizontal or vertical (within `tol`, normalized): a rectangle drawn as a polygon. */
function rectilinear(pts: readonly [number, number][], tol: number): boolean {
  for (let i = 1; i < pts.length; i++) {
    const dx = Math.abs(pts[i][0] - pts[i - 1][0]), dy = Math.abs(pts[i][1] - pts[i - 1][1]);
    if (dx > tol && dy > tol) return false;
  }
  return true;
}

/**
 * The page's graphics as chart parts. Filled rectangles (rects, or closed rectilinear paths such as a
 * legend swatch drawn from an edge's midpoint) are boxes unless white (backgrounds); stroked open paths
 * are lines (grid lines and legend line keys among them); other closed filled shapes are sectors or
 * markers; the page's rulings are rules.
 */
export function chartGraphics(raw: RawPage): ChartGraphics {
  const W = raw.width || 612, H = raw.height || 792;
  const tol = 0.6 / Math.max(W, H);
  const boxes: BoxMark[] = [], lines: LineMark[] = [], shapes: ShapeMark[] = [];
  let order = 0;
  for (const r of raw.rects) {
    order++;
    if (!r.filled || nearWhite(r.fill) || (r.box.x1 - r.box.x0) * (r.box.y1 - r.box.y0) > 0.5) continue;
    boxes.push({ box: r.box, colour: colourKey(r.fill), order });
  }
  for (const p of raw.paths ?? []) {
    checkInterrupt();
    order++;
    addPath(p, order, tol, W / H, boxes, lines, shapes);
  }
  const rules = raw.segments.map((s) => ({ x0: Math.min(s.x0, s.x1), y0: Math.min(s.y0, s.y1), x1: Math.max(s.x0, s.x1), y1: Math.max(s.y0, s.y1) }));
  return { boxes, lines, shapes, rules };
}

function addPath(p: RawPath, order: number, tol: number, aspect: number, boxes: BoxMark[], lines: LineMark[], shapes: ShapeMark[]): void {
  p.subpaths.forEach((flat, k) => {
    const pts = pointsOf(flat);
    if (pts.length < 2) return;
    const box = boundsOf(pts);
    const closed = p.closed[k];
    if (p.filled && closed && !nearWhite(p.fill)) {
      // a gradient's colour (its stops' mean) tells it from other gradients, never from a flat fill
      const colour = p.shading ? `gradient ${colourKey(p.fill)}` : colourKey(p.fill);
      // a small circle flattened into edges shorter than the tolerance would pass for a rectangle: round first
      const round = !p.curved && roundPolygon(pts, aspect);
      if (!p.curved && !round && rectilinear(pts, tol)) boxes.push({ box, colour, order });
      else if (pts.length >= 3) shapes.push({ points: pts, box, colour, order, curved: p.curved || round });
      return;
    }
    // straight strokes are kept too: a legend's line key is one; plot readers skip rectilinear lines
    if (p.stroked && !p.filled) {
      lines.push({ points: pts, box, colour: colourKey(p.stroke), order, filled: false });
    }
  });
}

const ROUND_VERTICES = 12; // a circle flattened into straight edges has many; a marker polygon or a radar ring few
/**
 * A circle drawn as a polygon (a gradient-filled dot or bubble comes as its clipping outline, its arcs
 * flattened into short straight edges): many vertices, all at one distance (within 3%)
 * from the centre of their box, measured with the page's aspect `aspect` = width / height, going round it
 * with no wide gap.
 */
function roundPolygon(pts: readonly [number, number][], aspect: number): boolean {
  if (pts.length < ROUND_VERTICES) return false;
  // the centre of its box (a closing vertex repeated would pull a mean of the vertices off centre)
  const b = boundsOf(pts), cx = (b.x0 + b.x1) / 2, cy = (b.y0 + b.y1) / 2;
  const rs = pts.map(([x, y]) => Math.hypot((x - cx) * aspect, y - cy));
  const r = Math.max(...rs);
  if (!(r > 0) || Math.min(...rs) < 0.97 * r) return false;
  const angles = pts.map(([x, y]) => Math.atan2(y - cy, (x - cx) * aspect)).sort((a, b) => a - b);
  let gap = angles[0] + 2 * Math.PI - angles[angles.length - 1];
  for (let i = 1; i < angles.length; i++) gap = Math.max(gap, angles[i] - angles[i - 1]);
  return gap < Math.PI / 3;
}

/**
 * A mark's outline, independent of its size and place: a polygon's vertices on a 3×3 grid over its box
 * ("box" for a rectangle, "curve" for any round mark). Markers of one colour with different outlines (diamonds, triangles, squares) are different
 * series, as an office suite tells series apart when it paints them all alike.
 */
export function outlineKey(m: BoxMark | ShapeMark): string {
  if (!('points' in m)) return 'box';
  // round marks (dots, bubbles) are one outline whatever their size or clipping by the plot's edge
  if (m.curved) return 'curve';
  const w = m.box.x1 - m.box.x0 || 1, h = m.box.y1 - m.box.y0 || 1;
  const cells = new Set(m.points.map(([x, y]) => `${Math.round(((x - m.box.x0) / w) * 2)}${Math.round(((y - m.box.y0) / h) * 2)}`));
  return `poly:${[...cells].sort().join(',')}`;
}

export const centreOf = (b: Box): [number, number] => [(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2];
export const inside = (b: Box, x: number, y: number, pad = 0) => x >= b.x0 - pad && x <= b.x1 + pad && y >= b.y0 - pad && y <= b.y1 + pad;
