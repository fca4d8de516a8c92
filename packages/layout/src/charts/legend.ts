import type { Box, RawWord } from '@quire/core';
import { centreOf, inside, outlineKey, type ChartGraphics } from './marks.js';

/** A legend entry: a swatch (filled key, or a short stroked line) of one colour and the label right of it. */
/** `order`: when the key was drawn (an office suite draws the keys in series order); `outline`: a filled key's outlineKey. */
export interface LegendEntry { colour: string; label: string; box: Box; kind: 'fill' | 'stroke'; order: number; outline?: string }

const distanceTo = (b: Box, x: number, y: number) => Math.hypot(Math.max(b.x0 - x, 0, x - b.x1), Math.max(b.y0 - y, 0, y - b.y1));

const MAX_SWATCH = 0.04; // normalized: a key is small
const LABEL_GAP = 0.03;

/**
 * Legend entries near a plot area (outside it): small filled keys or short stroked lines, each followed on
 * its right by a label on the same line. The label runs until a wide gap or the next key.
 */
export function findLegend(g: ChartGraphics, words: readonly RawWord[], plot: Box, reach: Box, foreign: readonly Box[] = []): LegendEntry[] {
  const keys: { box: Box; colour: string; kind: 'fill' | 'stroke'; order: number; outline?: string }[] = [];
  // a key nearer another chart's plot (`foreign`: side by side or one above the other) is that chart's
  const outsidePlot = (b: Box) => {
    const [cx, cy] = centreOf(b);
    return !inside(plot, cx, cy, -0.002) && inside(reach, cx, cy) && foreign.every((f) => distanceTo(f, cx, cy) >= distanceTo(plot, cx, cy));
  };
  for (const b of g.boxes) {
    const w = b.box.x1 - b.box.x0, h = b.box.y1 - b.box.y0;
    if (w <= MAX_SWATCH && h <= MAX_SWATCH && outsidePlot(b.box)) keys.push({ box: b.box, colour: b.colour, kind: 'fill', order: b.order, outline: outlineKey(b) });
  }
  for (const s of g.shapes) {
    const w = s.box.x1 - s.box.x0, h = s.box.y1 - s.box.y0;
    if (w <= MAX_SWATCH && h <= MAX_SWATCH && outsidePlot(s.box)) keys.push({ box: s.box, colour: s.colour, kind: 'fill', order: s.order, outline: outlineKey(s) });
  }
  for (const l of g.lines) {
    const w = l.box.x1 - l.box.x0, h = l.box.y1 - l.box.y0;
    if (w >= 0.015 && w <= 0.06 && h <= 0.002 && outsidePlot(l.box)) keys.push({ box: l.box, colour: l.colour, kind: 'stroke', order: l.order });
  }
  const entries: LegendEntry[] = [];
  for (const k of keys) {
    const cy = (k.box.y0 + k.box.y1) / 2;
    const onLine = words.filter((w) => w.box.y0 <= cy && w.box.y1 >= cy && w.box.x0 >= k.box.x1 - 0.002).sort((a, b) => a.box.x0 - b.box.x0);
    const taken: RawWord[] = [];
    let edge = k.box.x1;
    for (const w of onLine) {
      if (w.box.x0 - edge > (taken.length ? 0.015 : LABEL_GAP)) break;
      if (keys.some((o) => o !== k && o.box.x0 > k.box.x1 && o.box.x0 < w.box.x0 && Math.abs((o.box.y0 + o.box.y1) / 2 - cy) < 0.01)) break;
      taken.push(w); edge = w.box.x1;
    }
    if (!taken.length) continue;
    // a marker drawn over its legend line is one entry: keep the first key per label position
    if (entries.some((e) => Math.abs(e.box.y0 - taken[0].box.y0) < 0.003 && Math.abs(e.box.x0 - taken[0].box.x0) < 0.003 && e.colour === k.colour)) continue;
    entries.push({ colour: k.colour, kind: k.kind, order: k.order, ...(k.outline ? { outline: k.outline } : {}), label: taken.map((w) => w.text).join(' '), box: { x0: taken[0].box.x0, y0: taken[0].box.y0, x1: edge, y1: taken[0].box.y1 } });
  }
  return entries;
}
