import type { Box, FigureElement, RawImage, RawPage, RawSegment, RawWord } from '@quire/core';
import { boxArea, centreInside, intersection, checkInterrupt } from '@quire/core';

const CLASSIFIER_MODEL = 'quire-heuristic-v1';
const NUMERIC = /^[-+−(]?[$€£¥]?\d[\d.,]*%?[)kKmMbB]?$/;

export interface FigureCandidate {
  figure: FigureElement;
  /** Words whose centre falls here belong to the figure (charts reach out to their tick labels). */
  capture: Box;
}

/**
 * Figures from image placements. Tiny images (icons, rules) are ignored; a picture that is mostly covered
 * by running text is a page background or a framed text box, not a figure; an image inside a larger one
 * is part of it.
 */
export function detectFigures(raw: RawPage, words: readonly RawWord[]): FigureCandidate[] {
  const imgs = raw.images.filter((im) => boxArea(im.box) >= 0.0015).sort((a, b) => boxArea(b.box) - boxArea(a.box));
  const kept: FigureCandidate[] = [];
  for (const im of imgs) {
    checkInterrupt();
    if (kept.some((k) => intersection(k.figure.box!, im.box) >= 0.8 * boxArea(im.box))) continue;
    const inside = words.filter((w) => centreInside(w.box, im.box));
    let textArea = 0;
    for (const w of inside) textArea += boxArea(w.box);
    const a = boxArea(im.box);
    if ((inside.length >= 15 && textArea > 0.25 * a) || (a > 0.85 && inside.length >= 10)) continue;
    const c = classifyFigure(im, raw, words);
    const margin = c.visualType === 'chart' ? 0.04 : 0;
    kept.push({
      figure: {
        kind: 'figure', page: raw.number, box: { ...im.box }, visualType: c.visualType, text: '',
        classification: { confidence: c.confidence, model: CLASSIFIER_MODEL },
      },
      capture: { x0: im.box.x0 - margin, y0: im.box.y0 - margin, x1: im.box.x1 + margin, y1: im.box.y1 + margin },
    });
  }
  return kept;
}

/**
 * quire-heuristic-v1, the chart/image classifier. Evidence and weights:
 *  - axes: a long horizontal and a long vertical stroke (≥ 40% of the box) meeting at a corner  +0.35
 *  - numeric tick labels: ≥ 3 numbers along the left edge (distinct y) or along the bottom (distinct x) +0.35,
 *    both edges +0.5
 *  - bars: ≥ 3 filled rectangles inside with a common baseline                                +0.2
 *  - legend: a small filled swatch with a short label right of it                             +0.15
 *  - a vector drawing of ≥ 10 paths                                                           +0.1
 * A score ≥ 0.5 is a chart; a raster picture can only reach it through the text around it (ticks, legend).
 * Confidence is 0.5 + the distance from the threshold, capped at 0.95.
 */
function classifyFigure(im: RawImage, raw: RawPage, words: readonly RawWord[]): { visualType: 'chart' | 'image'; confidence: number } {
  const b = im.box;
  let score = 0;
  if (im.kind === 'vector' && hasAxes(b, raw.segments)) score += 0.35;
  score += tickScore(b, words);
  if (hasBars(b, raw)) score += 0.2;
  if (hasLegend(b, raw, words)) score += 0.15;
  if (im.kind === 'vector' && (im.pathCount ?? 0) >= 10) score += 0.1;
  const chart = score >= 0.5;
  return { visualType: chart ? 'chart' : 'image', confidence: Math.min(0.95, 0.5 + Math.abs(score - 0.5)) };
}

function hasAxes(b: Box, segs: readonly RawSegment[]): boolean {
  const bw = b.x1 - b.x0, bh = b.y1 - b.y0, tol = 0.01;
  const inBox = (x: number, y: number) => x >= b.x0 - tol && x <= b.x1 + tol && y >= b.y0 - tol && y <= b.y1 + tol;
  const hs: RawSegment[] = [], vs: RawSegment[] = [];
  for (const s of segs) {
    if (!inBox(s.x0, s.y0) || !inBox(s.x1, s.y1)) continue;
    if (Math.abs(s.y1 - s.y0) < 0.002 && Math.abs(s.x1 - s.x0) >= 0.4 * bw) hs.push(s);
    else if (Math.abs(s.x1 - s.x0) < 0.002 && Math.abs(s.y1 - s.y0) >= 0.4 * bh) vs.push(s);
  }
  const near = (p: number, q: number) => Math.abs(p - q) < tol;
  return hs.some((h) => vs.some((v) => {
    const hx0 = Math.min(h.x0, h.x1), hx1 = Math.max(h.x0, h.x1), vy0 = Math.min(v.y0, v.y1), vy1 = Math.max(v.y0, v.y1);
    return (near(v.x0, hx0) || near(v.x0, hx1)) && (near(h.y0, vy0) || near(h.y0, vy1));
  }));
}

function tickScore(b: Box, words: readonly RawWord[]): number {
  const bw = b.x1 - b.x0, bh = b.y1 - b.y0, m = 0.04;
  const leftYs = new Set<number>(), bottomXs = new Set<number>();
  for (const w of words) {
    if (!NUMERIC.test(w.text)) continue;
    const cx = (w.box.x0 + w.box.x1) / 2, cy = (w.box.y0 + w.box.y1) / 2;
    if (cx < b.x0 - m || cx > b.x1 + m || cy < b.y0 - m || cy > b.y1 + m) continue;
    if (cx <= b.x0 + 0.15 * bw) leftYs.add(Math.round(cy * 500));
    else if (cy >= b.y1 - 0.15 * bh) bottomXs.add(Math.round(cx * 500));
  }
  const left = leftYs.size >= 3, bottom = bottomXs.size >= 3;
  return left && bottom ? 0.5 : left || bottom ? 0.35 : 0;
}

function hasBars(b: Box, raw: RawPage): boolean {
  const bottoms = new Map<number, number>();
  for (const r of raw.rects) {
    if (!r.filled || !centreInside(r.box, b) || boxArea(r.box) > 0.5 * boxArea(b)) continue;
    const k = Math.round(r.box.y1 * 300);
    bottoms.set(k, (bottoms.get(k) ?? 0) + 1);
  }
  for (const n of bottoms.values()) if (n >= 3) return true;
  return false;
}

function hasLegend(b: Box, raw: RawPage, words: readonly RawWord[]): boolean {
  for (const r of raw.rects) {
    const w = r.box.x1 - r.box.x0, h = r.box.y1 - r.box.y0;
    if (!r.filled || w > 0.03 || h > 0.03 || !centreInside(r.box, b)) continue;
    const label = words.some((wd) => !NUMERIC.test(wd.text) && wd.text.length <= 20 && wd.box.x0 >= r.box.x1 - 0.002 &&
      wd.box.x0 - r.box.x1 < 0.03 && Math.min(wd.box.y1, r.box.y1) > Math.max(wd.box.y0, r.box.y0));
    if (label) return true;
  }
  return false;
}

/** Chart margins only take numbers (tick labels), never running text next to the chart. */
export function takesWord(c: FigureCandidate, w: RawWord): boolean {
  if (!centreInside(w.box, c.capture)) return false;
  return centreInside(w.box, c.figure.box!) || NUMERIC.test(w.text);
}
