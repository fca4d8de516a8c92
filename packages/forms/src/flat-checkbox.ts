import { unionBox } from '@quire/core';
import { CHECK_GLYPHS_EMPTY, CHECK_GLYPHS_SET, centreIn, nearestLabel, type Phrase, type PtBox, type PtWord } from './labels.js';
import { roundBox } from './page-frame.js';
import type { DetectedCell, PageGeometry } from './types.js';

interface Box { box: PtBox; shape: 'square' | 'glyph' | 'circle'; selected: boolean; /** selected by the template's own ink (a scan's pixels), not by a fill-in */ printed: boolean }

const MARK_TEXT = /^[xX✓✔✗✘×☒☑■●•]$/;

/**
 * Flat checkboxes: small squares from the drawing, ☐/☑/☒ glyphs, and small circles. A box is
 * selected when a mark (X, ✓, a dot, a diagonal stroke, a filled square) sits inside it.
 */
export function detectCheckboxes(squares: PtBox[], g: PageGeometry, words: PtWord[], W: number, H: number) {
  const found: Box[] = [];
  const pt = (b: PtBox) => ({ x0: b.x0 * W, y0: b.y0 * H, x1: b.x1 * W, y1: b.y1 * H });
  const frames = bevelledFrames(g.marks ?? [], pt);
  // a frame's own pieces are no mark inside it (a ring's half-arcs would read as a tick)
  const framePieces = new Set(frames.flatMap((f) => f.pieces));
  const marks = (g.marks ?? []).filter((m) => !framePieces.has(m)).map((m) => ({ box: pt(m.box), closed: !!m.closedCurve, filled: !!m.filled, fillIn: !!m.fillIn }));
  // a scan's ticked square comes as a dark filled rectangle inside it (interior ink, see @quire/ocr rulings)
  const filledRects = g.rects.filter((r) => r.filled && !r.stroked).map((r) => ({ box: pt(r.box), fillIn: !!r.fillIn }));
  const markedInside = (b: PtBox, printedOnly = false) => {
    const inner = (m: PtBox) => centreIn(m, b) && (m.x1 - m.x0) < (b.x1 - b.x0) * 1.3 && (m.y1 - m.y0) < (b.y1 - b.y0) * 1.3 && !sameBox(m, b);
    return marks.some((m) => !(printedOnly && m.fillIn) && inner(m.box) && (!m.closed || m.filled)) ||
      filledRects.some((r) => !(printedOnly && r.fillIn) && inner(r.box) && (r.box.x1 - r.box.x0) < (b.x1 - b.x0) * 0.95) ||
      words.some((w) => !(printedOnly && w.fill) && centreIn(w.box, b) && MARK_TEXT.test(w.text.trim()));
  };
  const add = (box: PtBox, shape: Box['shape'], preset?: boolean) =>
    found.push({ box, shape, selected: preset ?? markedInside(box), printed: preset ?? markedInside(box, true) });
  for (const b of squares) add(b, 'square');
  for (const m of marks) {
    const w = m.box.x1 - m.box.x0, h = m.box.y1 - m.box.y0;
    if (m.fillIn || !m.closed || m.filled || w < 5 || w > 22 || Math.abs(w - h) > 0.2 * w) continue;
    if (found.some((f) => centreIn(m.box, f.box))) continue;
    add(m.box, 'circle');
  }
  // outlines drawn in pieces, where no square or closed circle was found already
  for (const frame of frames) if (!found.some((f) => centreIn(frame.box, f.box) || centreIn(f.box, frame.box))) add(frame.box, frame.shape);
  for (const w of words) {
    const t = w.text.trim();
    if (w.fill || (!CHECK_GLYPHS_EMPTY.has(t) && !(CHECK_GLYPHS_SET.has(t) && ['☑', '☒'].includes(t)))) continue;
    const cx = (w.box.x0 + w.box.x1) / 2, cy = (w.box.y0 + w.box.y1) / 2, s = w.fontSize * 0.4;
    const box = { x0: cx - s, y0: cy - s, x1: cx + s, y1: cy + s };
    if (found.some((f) => centreIn(box, f.box))) continue;
    add(box, 'glyph', CHECK_GLYPHS_EMPTY.has(t) ? undefined : true);
  }
  return {
    boxes: found.map((f) => f.box),
    /** `scanned`: also record which boxes the page's own ink ticks (DetectedCell.scan). */
    toCells: (page: number, phrases: Phrase[], scanned = false) => groupCells(page, found, phrases, W, H, scanned),
  };
}

/**
 * Checkboxes and radio buttons whose border is drawn in pieces (the bevelled and inset styles viewers
 * flatten a widget's appearance into): filled pieces of an outline (L-shaped sides) or stroked open arcs
 * (a ring's light and dark halves), two or more whose boxes overlap, together a square-ish box of
 * checkbox size. Straight pieces make a square, curved ones a circle.
 */
type Mark = NonNullable<PageGeometry['marks']>[number];

function bevelledFrames(all: readonly Mark[], pt: (b: PtBox) => PtBox): { box: PtBox; shape: 'square' | 'circle'; pieces: Mark[] }[] {
  const pieces = all.filter((m) => !m.fillIn && (m.hollow || (m.curved && !m.filled && !m.closedCurve))).map((m) => ({ mark: m, box: pt(m.box) }));
  const groups: { box: PtBox; pieces: typeof pieces }[] = [];
  for (const p of pieces) {
    const g = groups.find((q) => Math.min(q.box.x1, p.box.x1) - Math.max(q.box.x0, p.box.x0) > 0 && Math.min(q.box.y1, p.box.y1) - Math.max(q.box.y0, p.box.y0) > 0);
    if (!g) { groups.push({ box: p.box, pieces: [p] }); continue; }
    g.box = unionBox([g.box, p.box])!;
    g.pieces.push(p);
  }
  const out: { box: PtBox; shape: 'square' | 'circle'; pieces: Mark[] }[] = [];
  for (const g of groups) {
    const w = g.box.x1 - g.box.x0, h = g.box.y1 - g.box.y0;
    // the outline's pieces reach at least two sides of it; a tick drawn inside reaches none and stays a mark
    const sides = (b: PtBox) => [b.x0 - g.box.x0, b.y0 - g.box.y0, g.box.x1 - b.x1, g.box.y1 - b.y1].filter((d) => d < 1).length;
    const outline = g.pieces.filter((p) => sides(p.box) >= 2).map((p) => p.mark);
    if (outline.length >= 2 && w >= 5 && w <= 22 && Math.abs(w - h) <= 0.2 * w) out.push({ box: g.box, shape: outline.some((m) => m.curved) ? 'circle' : 'square', pieces: outline });
  }
  return out;
}

const sameBox = (a: PtBox, b: PtBox) => Math.abs(a.x0 - b.x0) < 1 && Math.abs(a.y0 - b.y0) < 1 && Math.abs(a.x1 - b.x1) < 1 && Math.abs(a.y1 - b.y1) < 1;

/**
 * Boxes on one line after a question ("Marital status: ☐ Single ☐ Married", "…? ☐ Yes ☐ No")
 * form one cell with an option per box; other boxes are cells of their own.
 */
function groupCells(page: number, found: Box[], phrases: Phrase[], W: number, H: number, scanned: boolean): DetectedCell[] {
  const opt = found.map((f) => nearestLabel(f.box, phrases, { preferRight: true, blockers: found.map((x) => x.box) }));
  const optionPhrases = new Set(opt);
  const questionPhrases = phrases.filter((p) => !optionPhrases.has(p.text.replace(/[\s:]+$/, '')) || /[:?]$/.test(p.text));
  const used = new Set<number>();
  const cells: DetectedCell[] = [];
  const order = found.map((_, i) => i).sort((a, b) => found[a].box.y0 - found[b].box.y0 || found[a].box.x0 - found[b].box.x0);
  for (const i of order) {
    if (used.has(i)) continue;
    const cy = (found[i].box.y0 + found[i].box.y1) / 2;
    const line = order.filter((j) => !used.has(j) && Math.abs((found[j].box.y0 + found[j].box.y1) / 2 - cy) < 3).sort((a, b) => found[a].box.x0 - found[b].box.x0);
    const first = found[line[0]].box;
    const question = phrases.find((p) => /[:?]$/.test(p.text.trim()) && p.box.x1 <= first.x0 + 2 && first.x0 - p.box.x1 < 60 &&
      Math.abs((p.box.y0 + p.box.y1) / 2 - cy) < 6 && questionPhrases.includes(p));
    const members = line.length >= 2 && question ? line : [i];
    members.forEach((j) => used.add(j));
    const boxes = members.map((j) => found[j]);
    const b = { x0: Math.min(...boxes.map((x) => x.box.x0)), y0: Math.min(...boxes.map((x) => x.box.y0)), x1: Math.max(...boxes.map((x) => x.box.x1)), y1: Math.max(...boxes.map((x) => x.box.y1)) };
    const details = members.map((j) => ({
      center_coord: [round((found[j].box.x0 + found[j].box.x1) / 2 / W), round((found[j].box.y0 + found[j].box.y1) / 2 / H)] as [number, number],
      selected: found[j].selected, text: opt[j] || `option ${members.indexOf(j) + 1}`,
    }));
    const label = members.length > 1 ? question!.text.replace(/[\s:]+$/, '') : details[0].text;
    cells.push({
      page_number: page, type: 'checkbox', bounding_box: roundBox([b.x0 / W, b.y0 / H, b.x1 / W, b.y1 / H]),
      text: details.filter((d) => d.selected).map((d) => d.text).join(', '), label,
      checkbox_details: details, ...(members.length > 1 ? { options: details.map((d) => d.text) } : {}),
      source: { kind: 'drawn', shape: boxes[0].shape, boxes: boxes.map((x) => roundBox([x.box.x0 / W, x.box.y0 / H, x.box.x1 / W, x.box.y1 / H])) },
      ...(scanned ? { scan: { text: '', selected: boxes.map((x) => x.printed) } } : {}),
    });
  }
  return cells;
}

const round = (n: number) => Math.round(n * 1e5) / 1e5;
