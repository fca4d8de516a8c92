import type { Box, RawPage, RawRect, RawWord, SelectionMark } from '@quire/core';
import { centreInside, iou } from '@quire/core';

/** Glyphs that are always checkboxes, with their state. */
const BOX_GLYPHS: Record<string, SelectionMark['state']> = {
  '\u2610': 'unselected', '\u2611': 'selected', '\u2612': 'selected', '\u25A1': 'unselected', '\u25A2': 'unselected',
};
/** Glyphs that are choices only when the page also has their opposite (● alone is a bullet, ● with ○ is a radio group). */
const PAIRED: Record<string, { state: SelectionMark['state']; family: string }> = {
  '\u25CB': { state: 'unselected', family: 'round' }, '\u25EF': { state: 'unselected', family: 'round' },
  '\u25CF': { state: 'selected', family: 'round' }, '\u25C9': { state: 'selected', family: 'round' },
  '\u25A0': { state: 'selected', family: 'square' },
};
/** Marks drawn inside an empty square to tick it. */
const TICKS = new Set(['\u2713', '\u2714', '\u2717', '\u2718', 'x', 'X', '\u25CF', '\u25A0', '\u2022']);

export interface MarkResult {
  marks: SelectionMark[];
  /** The words left for text layout: checkbox glyphs removed, "☐Yes" split into its label. */
  words: RawWord[];
}

/**
 * Selection marks from three sources, strongest first: AcroForm checkbox/radio widgets (state from the
 * field), small square paths (6–20 pt, roughly square; ticked when a tick glyph or a smaller filled square
 * sits inside or the square itself is filled dark), and checkbox glyphs in the text. Marks that overlap an
 * earlier one are the same control drawn twice and are dropped.
 */
export function detectMarks(raw: RawPage, words: readonly RawWord[]): MarkResult {
  const marks: SelectionMark[] = [];
  const add = (m: SelectionMark) => {
    if (!marks.some((o) => iou(o.box, m.box) > 0.3)) marks.push(m);
  };
  for (const w of raw.widgets) {
    if (w.fieldType === 'checkbox' || w.fieldType === 'radio') {
      add({ box: w.box, state: w.checked ? 'selected' : 'unselected', confidence: 0.99 });
    }
  }
  const consumed = new Set<RawWord>();
  for (const r of raw.rects) {
    if (!isMarkSquare(r.box, raw)) continue;
    const tick = words.find((w) => TICKS.has(w.text) && centreInside(w.box, r.box));
    if (tick) consumed.add(tick);
    const innerFill = raw.rects.some((o) => o !== r && o.filled && isDark(o) && centreInside(o.box, r.box) && area(o.box) < area(r.box) * 0.8);
    const darkSelf = r.filled && isDark(r) && !r.stroked;
    add({ box: r.box, state: tick || innerFill || darkSelf ? 'selected' : 'unselected', confidence: darkSelf && !tick ? 0.6 : 0.85 });
  }
  const families = new Set<string>();
  for (const w of words) {
    const p = PAIRED[w.text[0]];
    if (p) families.add(`${p.family}:${p.state}`);
  }
  if (words.some((w) => w.text[0] === '\u25A1' || w.text[0] === '\u2610')) families.add('square:unselected');
  const paired = (fam: string) => families.has(`${fam}:selected`) && families.has(`${fam}:unselected`);
  const out: RawWord[] = [];
  for (const w of words) {
    if (consumed.has(w)) continue;
    const ch = w.text[0];
    const state = BOX_GLYPHS[ch] ?? (PAIRED[ch] && paired(PAIRED[ch].family) ? PAIRED[ch].state : undefined);
    if (!state) { out.push(w); continue; }
    const share = 1 / [...w.text].length;
    const gx1 = w.box.x0 + (w.box.x1 - w.box.x0) * share;
    add({ box: { ...w.box, x1: gx1 }, state, confidence: 0.9 });
    const rest = w.text.slice(ch.length).trim();
    if (rest) out.push({ ...w, text: rest, box: { ...w.box, x0: gx1 } });
  }
  return { marks, words: out };
}

const area = (b: Box) => (b.x1 - b.x0) * (b.y1 - b.y0);
const isDark = (r: RawRect) => !r.fill || 0.3 * r.fill[0] + 0.59 * r.fill[1] + 0.11 * r.fill[2] < 0.4;

/** A 6–20 pt square: the size of a checkbox, never of a table cell or a rule. */
export function isMarkSquare(b: Box, page: { width: number; height: number }): boolean {
  const w = (b.x1 - b.x0) * page.width, h = (b.y1 - b.y0) * page.height;
  return w >= 6 && w <= 20 && h >= 6 && h <= 20 && Math.abs(w - h) <= 0.25 * Math.max(w, h);
}
