import { buildPhrases, centreIn, cleanLabel, findDatePattern, isCheckGlyph, isFillLine, nearestLabel, toPt, type Phrase, type PtBox, type PtWord } from './labels.js';
import { dotColumns, findGrids, joinDottedRules, meetWalls, mergeLines, type Grid, type Line } from './ruling.js';
import { detectCheckboxes } from './flat-checkbox.js';
import { roundBox } from './page-frame.js';
import type { DetectedCell, PageGeometry } from './types.js';

/** A cell in points before normalization, with the words it holds. */
export interface PtCell {
  box: PtBox;
  kind: 'box' | 'underline' | 'underscores' | 'comb' | 'grid' | 'leader';
  /** Label words found inside the box (IRS-style boxes print their label in the top-left corner). */
  innerLabel?: string;
  row?: number; col?: number; table?: number;
  combCount?: number;
  combBoxes?: PtBox[];
  header?: string;
  /**
   * A grid cell on a numbered line of an amount column: the line's code printed in the grid's first
   * column ("7", "8a"), and that code cell's box (the line's wording is printed left of it, outside the grid).
   */
  line?: { code: string; stub: PtBox };
}

const isSquareish = (b: PtBox) => {
  const w = b.x1 - b.x0, h = b.y1 - b.y0;
  return w >= 5 && w <= 22 && h >= 5 && h <= 22 && Math.abs(w - h) <= 0.25 * Math.max(w, h);
};

/**
 * Finds cells on a page without form fields, from its drawing and text: ruled boxes and table grids
 * (empty cells), comb boxes, underlines with a label, "____" runs, checkboxes (squares, circles,
 * ☐/☑ glyphs), and signature areas (cells labelled "Signature"/"Sign here").
 */
export function flatCells(pageNumber: number, g: PageGeometry, tableStart: number, opts: { scanned?: boolean } = {}): { cells: DetectedCell[]; tables: number } {
  const W = g.width, H = g.height;
  const words = g.words.map((w) => toPt(w, W, H));
  const bodySize = median(words.filter((w) => !w.fill).map((w) => w.fontSize)) || 10;
  const { hLines, vLines, dotTicks } = rulings(g);
  const { grids, usedH } = findGrids(hLines, vLines);
  const squares: PtBox[] = [];
  const pt: PtCell[] = [];
  let table = tableStart;
  for (const grid of grids) table = classifyGrid(grid, words, squares, pt, table, vLines, dotTicks);
  squares.push(...strokedSquares(g, squares, pt, W, H));
  // a small box holding only a printed code (a line number "1a", "23") is neither a checkbox nor a field
  // (it stands at the left edge of the wider box it numbers, which holds nothing printed, a filled-in
  // value at most; a lone small box with a number in it may be a flattened field holding its value)
  const numbers = (b: PtBox) => pt.some((c) => c.box !== b && numbersCell(b, c.box, words) && c.box.x1 - c.box.x0 > 2 * (b.x1 - b.x0) &&
    !words.some((w) => centreIn(w.box, c.box) && !w.fill && !isFillLine(w.text)));
  const codeBoxes = squares.filter((b) => printedCode(b, words) !== null && numbers(b));
  squares.splice(0, squares.length, ...squares.filter((b) => !codeBoxes.includes(b)));
  for (let i = pt.length - 1; i >= 0; i--) if (pt[i].kind === 'box' && !pt[i].innerLabel && isCodeBox(pt[i].box, words) && numbers(pt[i].box)) { codeBoxes.push(pt[i].box); pt.splice(i, 1); }
  // a "square" in the middle of printed text is a letter's counter (a scan's "o", "p"), not a checkbox
  // (phrases, not words: OCR boxes of single words can be cut short; words read off a square are left out)
  const text = buildPhrases(words.filter((w) => !w.fill && !squares.some((b) => centreIn(w.box, b))));
  const inText = (b: PtBox) => text.some((p) => /\p{L}{3,}/u.test(p.text) && b.x0 - p.box.x0 > b.x1 - b.x0 && p.box.x1 - b.x1 > b.x1 - b.x0 &&
    Math.abs((b.y0 + b.y1) / 2 - (p.box.y0 + p.box.y1) / 2) < b.y1 - b.y0);
  squares.splice(0, squares.length, ...squares.filter((b) => !inText(b)));
  pt.push(...squareCombs(squares, words));
  const freeH = hLines.filter((_, i) => !usedH.has(i));
  pt.push(...tickedBaselines(freeH, [...vLines, ...dotTicks], words, bodySize));
  pt.push(...underlineCells(freeH, words, bodySize, W, pt));
  pt.push(...underscoreCells(words, bodySize, pt));
  pt.push(...leaderCells(words, vLines, pt, squares, bodySize, W));
  dropCaptionBoxes(pt, words);
  pt.push(...shadedBoxes(g, words, pt, W, H));
  const checkboxes = detectCheckboxes(squares, g, words, W, H);
  dropNonFields(pt, words, checkboxes.boxes);
  // labels come from the text outside every cell; a cell stands between a label and the cells past it
  const occupied = [...pt.map((c) => c.box), ...checkboxes.boxes];
  const free = words.filter((w) => !occupied.some((b) => centreIn(w.box, b)) && !codeBoxes.some((b) => centreIn(w.box, b)) && !isFillLine(w.text));
  const phrases = buildPhrases(free);
  const rules = verticalRules(g);
  const out: DetectedCell[] = pt.map((c) => toCell(pageNumber, c, words, phrases, W, H, bodySize, occupied, rules));
  labelCombParts(out, pt, words);
  prefixLineCodes(out, pt, codeBoxes, words, phrases, occupied);
  markCents(out, pt, words);
  if (opts.scanned) {
    // what the scan itself shows in each cell, apart from fill-ins drawn over it
    pt.forEach((c, i) => { out[i].scan = { text: cellText(words.filter((w) => !w.fill && centreIn(w.box, c.box) && !isFillLine(w.text) && !isCheckGlyph(w.text)), c.kind === 'comb') }; });
  }
  out.push(...checkboxes.toCells(pageNumber, phrases, opts.scanned));
  return { cells: out, tables: table };
}

/**
 * The page's horizontal and vertical ruling lines in points (template drawing only, not fill-ins);
 * dotted rules drawn dot by dot (strokes or round dots) are joined into one line each, rules stopping
 * just short of a wall are drawn to it, and columns of dots too short to be rules are kept apart as
 * `dotTicks` (a comb's dotted ticks).
 */
function rulings(g: PageGeometry): { hLines: Line[]; vLines: Line[]; dotTicks: Line[] } {
  const W = g.width, H = g.height;
  const segs = g.segments.filter((s) => !s.fillIn).map((s) => ({ x0: s.x0 * W, y0: s.y0 * H, x1: s.x1 * W, y1: s.y1 * H }));
  // a round dot (a tiny disc drawn with curves) is a piece of a dotted rule as a short stroke is
  const discs = (g.marks ?? []).filter((m) => !m.fillIn && m.filled && (m.box.x1 - m.box.x0) * W <= DOT && (m.box.y1 - m.box.y0) * H <= DOT)
    .map((m) => ({ x0: m.box.x0 * W, y0: m.box.y0 * H, x1: m.box.x1 * W, y1: m.box.y1 * H }));
  const strokes = [...segs, ...discs];
  const dotted = joinDottedRules(strokes);
  const ticks = dotColumns(strokes, dotted.used);
  const plain = segs.filter((_, i) => !dotted.used.has(i) && !ticks.used.has(i));
  const vLines = mergeLines([...plain.filter((s) => Math.abs(s.x1 - s.x0) < 1.2 && Math.abs(s.y1 - s.y0) >= 1.2).map((s) => ({ pos: (s.x0 + s.x1) / 2, a: s.y0, b: s.y1 })), ...dotted.v]);
  const hLines = mergeLines(meetWalls([...plain.filter((s) => Math.abs(s.y1 - s.y0) < 1.2).map((s) => ({ pos: (s.y0 + s.y1) / 2, a: s.x0, b: s.x1 })), ...dotted.h], vLines));
  return { hLines, vLines, dotTicks: ticks.v };
}

/** Largest round dot read as a piece of a dotted rule, in points. */
const DOT = 2;

function verticalLines(g: PageGeometry): Line[] {
  return rulings(g).vLines;
}

/**
 * The printed code a small box holds when that is all it holds: a line number or item code ("1a",
 * "23", "B"), at most four characters, no room left for a value beside it. Null otherwise.
 */
function printedCode(b: PtBox, words: PtWord[]): string | null {
  const inside = words.filter((w) => centreIn(w.box, b) && !isFillLine(w.text));
  if (!inside.length || inside.some((w) => w.fill || isCheckGlyph(w.text))) return null;
  const text = inside.map((w) => w.text).join('');
  if (!LINE_CODE.test(text)) return null;
  return text;
}

/**
 * A code box right at a cell's left edge on its row numbers that cell's line ("23" beside the amount
 * box of line 23): the label starts with it, so the cell can be addressed as "line 23".
 */
function prefixLineCodes(cells: DetectedCell[], pt: PtCell[], codeBoxes: PtBox[], words: PtWord[], phrases: Phrase[], blockers: PtBox[]) {
  pt.forEach((c, i) => {
    const code = codeBoxes.find((b) => numbersCell(b, c.box, words));
    if (!code) return;
    const text = printedCode(code, words)!;
    const label = cells[i].label;
    // no label near the cell: the line's wording is printed far to the left, past the code box
    if (!label) cells[i].label = lineLabel({ code: text, stub: code }, phrases, blockers);
    else if (!label.startsWith(text)) cells[i].label = `${text} ${label}`;
  });
}

/**
 * The narrow empty cell right against a line's amount cell holds the amount's cents (tax forms print
 * dollars | cents boxes): no wider than twice its height, 40 pt at most, under half the amount cell, on
 * the same row, with no label of its own; and either the page prints such pairs on two lines or more
 * (split at one x) or the amount cell's label starts with a line code. It is labelled "<amount label>
 * (cents)" with a maximum length of 2, so a value "52,340.17" can be written across the pair.
 */
function markCents(cells: DetectedCell[], pt: PtCell[], words: PtWord[]) {
  const pairs: { cents: number; amount: number }[] = [];
  pt.forEach((c, i) => {
    const b = c.box, h = b.y1 - b.y0, w = b.x1 - b.x0;
    if (cells[i].type !== 'text' || (c.kind !== 'box' && c.kind !== 'grid') || c.innerLabel || w > 2 * h || w > 40) return;
    if (words.some((x) => centreIn(x.box, b) && !x.fill && !isFillLine(x.text))) return;
    const amount = pt.findIndex((a, j) => j !== i && cells[j].type === 'text' && (a.kind === 'box' || a.kind === 'grid') && Math.abs(a.box.x1 - b.x0) <= 1.5 &&
      Math.abs(a.box.y0 - b.y0) <= 1.5 && Math.abs(a.box.y1 - b.y1) <= 1.5 && a.box.x1 - a.box.x0 > 2 * w);
    if (amount < 0 || (cells[i].label && cells[i].label !== cells[amount].label)) return;
    pairs.push({ cents: i, amount });
  });
  for (const p of pairs) {
    const x = pt[p.cents].box.x0;
    const repeated = pairs.filter((q) => Math.abs(pt[q.cents].box.x0 - x) <= 1.5).length >= 2;
    const label = cells[p.amount].label;
    if (!repeated && !LINE_CODE.test(label.split(' ')[0] ?? '')) continue;
    cells[p.cents].label = label ? `${label} (cents)` : 'cents';
    cells[p.cents].maxLength = 2;
  }
}

/**
 * A code box numbers the cell that starts at its right edge on its row, or a little past it (up to half
 * the code box's height, nothing printed in the gap): line-number boxes stand apart from the amount
 * box as often as they touch it.
 */
function numbersCell(code: PtBox, cell: PtBox, words: PtWord[]): boolean {
  const gap = cell.x0 - code.x1, h = code.y1 - code.y0;
  if (gap <= -3 || gap > Math.max(3, 0.5 * h)) return false;
  if (Math.min(code.y1, cell.y1) - Math.max(code.y0, cell.y0) <= 0.5 * Math.min(h, cell.y1 - cell.y0)) return false;
  return gap < 3 || !words.some((w) => !w.fill && w.box.x0 >= code.x1 - 0.5 && w.box.x1 <= cell.x0 + 0.5 && centreIn(w.box, { ...code, x0: code.x1, x1: cell.x0 }));
}

/** A box narrow enough for no more than its printed code (a line-number box beside an amount box). */
function isCodeBox(b: PtBox, words: PtWord[]): boolean {
  const code = printedCode(b, words);
  if (code === null) return false;
  const h = b.y1 - b.y0;
  return b.x1 - b.x0 <= Math.max(2.2 * h, 28);
}

/** Vertical ruling lines as thin boxes, for label search (a label is not looked for across one). */
export function verticalRules(g: PageGeometry): PtBox[] {
  return verticalLines(g).filter((l) => l.b - l.a >= 6).map((l) => ({ x0: l.pos - 0.25, y0: l.a, x1: l.pos + 0.25, y1: l.b }));
}

/**
 * Checkbox squares drawn as one stroked rectangle, or found in a scan's raster, that the rulings
 * did not close into a cell (an edge lost to a touching glyph), and that no other cell holds.
 */
function strokedSquares(g: PageGeometry, squares: PtBox[], cells: PtCell[], W: number, H: number): PtBox[] {
  const out: PtBox[] = [];
  for (const r of g.rects) {
    if (!r.stroked || r.fillIn) continue;
    const b = { x0: r.box.x0 * W, y0: r.box.y0 * H, x1: r.box.x1 * W, y1: r.box.y1 * H };
    if (!isSquareish(b)) continue;
    if ([...squares, ...out].some((q) => overlapFrac(q, b) > 0.5) || cells.some((c) => overlapFrac(c.box, b) > 0.3)) continue;
    out.push(b);
  }
  return out;
}

/**
 * A box is not a field when it holds other cells (a panel around underlines or checkboxes), when it
 * prints more lines than a caption has (a margin note), or when printed text fills it with no room
 * left for a value (a caption cell such as "Sign Here").
 */
function dropNonFields(pt: PtCell[], words: PtWord[], checkboxes: PtBox[]) {
  const keep = pt.filter((c) => {
    if (c.kind !== 'box') return true;
    const holds = [...pt.filter((o) => o !== c).map((o) => o.box), ...checkboxes]
      .some((b) => centreIn(b, c.box) && (b.x1 - b.x0) * (b.y1 - b.y0) < 0.8 * (c.box.x1 - c.box.x0) * (c.box.y1 - c.box.y0));
    if (holds) return false;
    if (c.innerLabel) return true;
    const printed = words.filter((w) => centreIn(w.box, c.box) && !w.fill && !isFillLine(w.text));
    if (!printed.length) return true;
    // a paragraph printed in a box (a margin note, instructions) is no caption: the space under it is margin
    if (textLines([...printed].sort((a, b) => a.box.y0 - b.box.y0)).length > 3) return false;
    const lineH = Math.max(...printed.map((w) => w.box.y1 - w.box.y0));
    const right = c.box.x1 - Math.max(...printed.map((w) => w.box.x1));
    const below = c.box.y1 - Math.max(...printed.map((w) => w.box.y1));
    return right >= Math.max(30, 3 * lineH) || below >= lineH;
  });
  pt.splice(0, pt.length, ...keep);
}

const LEADER = /[▶►→➔➜⇒]$/u;

/**
 * Arrow leaders: printed text ending in "▶" (IRS style) points at the space where the value goes.
 * The cell runs from the arrow to the next thing on its line (text, a vertical rule, another cell)
 * or, with nothing there, to the right edge of the page's content; it needs room for a value.
 */
function leaderCells(words: PtWord[], vLines: Line[], taken: PtCell[], squares: PtBox[], bodySize: number, pageW: number): PtCell[] {
  const out: PtCell[] = [];
  const printed = words.filter((w) => !w.fill);
  const contentRight = Math.max(0, ...printed.map((w) => w.box.x1), ...vLines.map((l) => l.pos));
  for (const w of printed) {
    if (!LEADER.test(w.text)) continue;
    const y0 = Math.min(w.box.y0, w.box.y1 - bodySize * 1.2), y1 = w.box.y1 + 1;
    const onRow = (b: PtBox) => b.y1 > y0 + 1 && b.y0 < y1 - 1 && b.x1 > w.box.x1;
    const stops = [
      ...printed.filter((o) => o !== w && onRow(o.box) && o.box.x0 >= w.box.x1 - 1).map((o) => o.box.x0),
      ...vLines.filter((l) => l.pos > w.box.x1 && l.a < y1 - 1 && l.b > y0 + 1).map((l) => l.pos),
      // a box around the arrow (the row's frame) ends the run at its right edge; any other cell at its left edge
      ...[...taken.map((c) => c.box), ...squares, ...out.map((c) => c.box)].filter(onRow).map((b) => (centreIn(w.box, b) ? b.x1 : Math.max(b.x0, w.box.x1))),
    ];
    const x0 = w.box.x1 + 2, x1 = Math.min(contentRight, pageW, ...stops) - 2;
    if (x1 - x0 < Math.max(36, 4 * bodySize)) continue;
    out.push({ box: { x0, y0, x1, y1 }, kind: 'leader' });
  }
  return out;
}

/**
 * Comb groups on one row separated only by a dash ("123 – 45 – 6789") are parts of one value: they
 * share the first group's label, numbered, so that each part can be told apart and addressed.
 */
function labelCombParts(cells: DetectedCell[], pt: PtCell[], words: PtWord[]) {
  const combs = pt.map((c, i) => ({ c, i })).filter((x) => x.c.kind === 'comb').sort((a, b) => a.c.box.y0 - b.c.box.y0 || a.c.box.x0 - b.c.box.x0);
  const used = new Set<number>();
  for (const first of combs) {
    if (used.has(first.i)) continue;
    const group = [first];
    for (;;) {
      const last = group[group.length - 1].c.box;
      const next = combs.find((x) => !used.has(x.i) && !group.includes(x) && Math.abs(x.c.box.y0 - last.y0) < 2 && Math.abs(x.c.box.y1 - last.y1) < 2 &&
        x.c.box.x0 > last.x1 && x.c.box.x0 - last.x1 < 2.5 * (last.y1 - last.y0) &&
        words.every((w) => !(w.box.x0 >= last.x1 - 1 && w.box.x1 <= x.c.box.x0 + 1 && w.box.y1 > last.y0 && w.box.y0 < last.y1) || /^[-–—]$/.test(w.text)));
      if (!next) break;
      group.push(next);
    }
    group.forEach((x) => used.add(x.i));
    if (group.length < 2) continue;
    const base = cells[group[0].i].label || group.map((x) => cells[x.i].label).find(Boolean) || '';
    if (!base) continue;
    group.forEach((x, k) => { cells[x.i].label = `${base} (part ${k + 1} of ${group.length})`; });
  }
}

/**
 * A box parted into equal character cells by short ticks (rising from its bottom edge or hanging from
 * its top, solid or a column of a few dots) is a comb: the ticks, at least two, evenly spaced about a
 * character cell apart, give its cells. A column of dots may run the box's full height: it parts no cell.
 */
function tickedComb(b: PtBox, vLines: Line[], dotTicks: Line[], words: PtWord[]): PtCell | null {
  const h = b.y1 - b.y0;
  if (h < 7 || h > 40 || words.some((w) => centreIn(w.box, b) && !w.fill)) return null;
  const fromEdge = (l: Line) => l.pos > b.x0 + 2 && l.pos < b.x1 - 2 && (Math.abs(l.b - b.y1) < 1.6 || Math.abs(l.a - b.y0) < 1.6);
  const ticks = [...vLines.filter((l) => fromEdge(l) && l.b - l.a < h - 2), ...dotTicks.filter((l) => fromEdge(l) && l.b - l.a <= h + 1)]
    .map((l) => l.pos).sort((p, q) => p - q);
  const xs = [...new Set([b.x0, ...ticks, b.x1].map((x) => Math.round(x * 4) / 4))];
  if (xs.length < 4) return null;
  const ws = xs.slice(1).map((x, i) => x - xs[i]);
  const mean = (b.x1 - b.x0) / ws.length;
  if (mean > 1.6 * h || ws.some((w) => Math.abs(w - mean) > 0.2 * mean)) return null;
  const combBoxes = ws.map((_, i) => ({ x0: xs[i], y0: b.y0, x1: xs[i + 1], y1: b.y1 }));
  return { box: b, kind: 'comb', combCount: combBoxes.length, combBoxes };
}

/**
 * Character boxes drawn apart: three or more equal squares on one row, evenly spaced less than half a
 * box apart, nothing printed in or between them, are one comb field, not a row of checkboxes (those
 * leave room for each option's words). Takes the squares it uses out of `squares`.
 */
function squareCombs(squares: PtBox[], words: PtWord[]): PtCell[] {
  const out: PtCell[] = [];
  const used = new Set<PtBox>();
  const sorted = [...squares].sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  for (const first of sorted) {
    if (used.has(first)) continue;
    const w = first.x1 - first.x0;
    const run = [first];
    for (;;) {
      const last = run[run.length - 1];
      const next = sorted.find((b) => !used.has(b) && Math.abs(b.y0 - first.y0) < 1 && Math.abs(b.y1 - first.y1) < 1 &&
        Math.abs(b.x1 - b.x0 - w) <= 0.15 * w && b.x0 > last.x1 - 0.5 && b.x0 - last.x1 < 0.5 * w);
      if (!next) break;
      run.push(next);
    }
    if (run.length < 3) continue;
    const gaps = run.slice(1).map((b, i) => b.x0 - run[i].x1);
    const box = { x0: first.x0, y0: Math.min(...run.map((b) => b.y0)), x1: run[run.length - 1].x1, y1: Math.max(...run.map((b) => b.y1)) };
    if (gaps.some((g) => Math.abs(g - gaps[0]) > 1) || words.some((x) => !x.fill && centreIn(x.box, box))) continue;
    run.forEach((b) => used.add(b));
    out.push({ box, kind: 'comb', combCount: run.length, combBoxes: run });
  }
  squares.splice(0, squares.length, ...squares.filter((b) => !used.has(b)));
  return out;
}

/**
 * A comb drawn open: a baseline with short ticks rising from it (solid or dotted), one at each end and
 * the rest evenly spaced about a character cell apart. Each gives a comb cell standing on its baseline,
 * as tall as an underline's cell or its ticks.
 */
function tickedBaselines(lines: Line[], ticks: Line[], words: PtWord[], bodySize: number): PtCell[] {
  const out: PtCell[] = [];
  const hgt = Math.min(24, Math.max(12, bodySize * 1.6));
  for (const l of lines) {
    const on = ticks.filter((t) => t.pos >= l.a - 1.6 && t.pos <= l.b + 1.6 && Math.abs(t.b - l.pos) < 1.6 && t.b - t.a >= 2 && t.b - t.a <= hgt);
    const xs = [...new Set(on.map((t) => Math.round(t.pos * 4) / 4))].sort((p, q) => p - q);
    if (xs.length < 4 || xs[0] - l.a > 1.6 || l.b - xs[xs.length - 1] > 1.6) continue;
    const ws = xs.slice(1).map((x, i) => x - xs[i]);
    const mean = (xs[xs.length - 1] - xs[0]) / ws.length;
    const h = Math.max(hgt, ...on.map((t) => t.b - t.a));
    if (mean < 5 || mean > 1.6 * h || ws.some((w) => Math.abs(w - mean) > 0.2 * mean)) continue;
    const box = { x0: xs[0], y0: l.pos - h, x1: xs[xs.length - 1], y1: l.pos };
    if (words.some((w) => centreIn(w.box, box) && !w.fill)) continue;
    const combBoxes = ws.map((_, i) => ({ x0: xs[i], y0: box.y0, x1: xs[i + 1], y1: box.y1 }));
    out.push({ box, kind: 'comb', combCount: combBoxes.length, combBoxes });
  }
  return out;
}

function classifyGrid(grid: Grid, words: PtWord[], squares: PtBox[], out: PtCell[], table: number, vLines: Line[], dotTicks: Line[]): number {
  const { cells } = grid;
  const big = (b: PtBox) => b.y1 - b.y0 > 220 || words.filter((w) => centreIn(w.box, b)).length > 60;
  if (cells.length === 1) {
    const b = cells[0];
    const comb = tickedComb(b, vLines, dotTicks, words);
    if (comb) out.push(comb);
    else if (isSquareish(b)) squares.push(b);
    else if (!big(b) && b.y1 - b.y0 >= 7 && b.x1 - b.x0 >= 14) out.push(withInnerLabel({ box: b, kind: 'box' }, words));
    return table;
  }
  const rows = new Set(cells.map((c) => Math.round(c.y0))).size;
  // comb: one row of equal, roughly square boxes side by side → one text cell per unbroken run of ≥2
  // (a gap in the row, "123 – 45", starts the next comb)
  if (rows === 1 && cells.length >= 2) {
    const ws = cells.map((c) => c.x1 - c.x0), h = cells[0].y1 - cells[0].y0;
    const equal = Math.max(...ws) - Math.min(...ws) <= 0.15 * Math.max(...ws);
    if (equal && Math.max(...ws) <= 1.6 * h && h <= 40) {
      const sorted = [...cells].sort((a, b) => a.x0 - b.x0);
      const runs: PtBox[][] = [];
      for (const c of sorted) {
        const run = runs[runs.length - 1];
        if (run && c.x0 - run[run.length - 1].x1 <= 1.5) run.push(c); else runs.push([c]);
      }
      for (const run of runs) {
        if (run.length === 1) { if (isSquareish(run[0])) squares.push(run[0]); else out.push(withInnerLabel({ box: run[0], kind: 'box' }, words)); continue; }
        out.push({ box: { x0: run[0].x0, y0: Math.min(...run.map((c) => c.y0)), x1: run[run.length - 1].x1, y1: Math.max(...run.map((c) => c.y1)) }, kind: 'comb', combCount: run.length, combBoxes: run });
      }
      return table;
    }
  }
  const captioned = captionedLayout(grid, words);
  if (grid.rows.length >= 2 && grid.cols.length >= 2 && !captioned) {
    const t = tableCells(grid, words, out, table);
    if (t !== null) return t;
  }
  // a ruled layout that is not a table (no header row, no stub column): each cell is a box of its own
  for (const b of cells) {
    if (isSquareish(b)) squares.push(b);
    else if (!big(b) && b.y1 - b.y0 >= 7 && b.x1 - b.x0 >= 14) out.push(withInnerLabel({ box: b, kind: 'box' }, words, captioned));
  }
  return table;
}

/**
 * A grid whose printed cells each hold only a small caption at the top, the entry area below it empty
 * (a block of boxes on a government form), is a layout of captioned boxes, not a table with a header
 * row: captions in more than one row tell the two apart.
 */
function captionedLayout(grid: Grid, words: PtWord[]): boolean {
  const printed = grid.cells.filter((b) => words.some((w) => centreIn(w.box, b) && !w.fill && !isFillLine(w.text)));
  if (!printed.length) return false;
  const rows = new Set<number>();
  for (const b of printed) {
    const c = withInnerLabel({ box: b, kind: 'box' }, words, true);
    if (!c.innerLabel || c.box.x0 !== b.x0 || words.some((w) => centreIn(w.box, c.box) && !w.fill && !isFillLine(w.text))) return false;
    rows.add(Math.round(b.y0));
  }
  return rows.size >= 2;
}

/**
 * Ruled table: header row and stub column (all cells printed) label the empty cells. A grid with
 * neither, and with printed text in some cells, is a form's layout of boxes, not a table (null).
 */
function tableCells(grid: Grid, words: PtWord[], out: PtCell[], table: number): number | null {
  const idx = (vals: number[], v: number) => vals.findIndex((x) => Math.abs(x - v) <= 2);
  // printed text only: values filled in (fill-ins) never make a header row or a stub column
  const textOf = (b: PtBox) => words.filter((w) => centreIn(w.box, b) && !w.fill && !isFillLine(w.text)).map((w) => w.text).join(' ');
  const cells = grid.cells.map((b) => ({ b, r: idx(grid.rows, b.y0), c: idx(grid.cols, b.x0), t: textOf(b) }));
  const row0 = cells.filter((c) => c.r === 0), col0 = cells.filter((c) => c.c === 0 && c.r > 0);
  const headerRow = row0.length > 1 && row0.every((c) => c.t);
  const stubCol = grid.cols.length > 2 && col0.length > 0 && col0.every((c) => c.t);
  if (!headerRow && !stubCol && cells.some((c) => c.t)) return null;
  const headers = new Map(row0.map((c) => [c.c, c.t]));
  const stubs = new Map(col0.map((c) => [c.r, c.t]));
  // a first column of line codes only ("7", "8a", "10") on a grid with no header row is the line-number
  // column of an amount column: each row's meaning is the wording printed left of the grid, after its code
  const codeCol = cells.filter((c) => c.c === 0);
  const lineCodes = stubCol && !headerRow && codeCol.every((c) => LINE_CODE.test(c.t));
  const codes = new Map(codeCol.map((c) => [c.r, c]));
  // a column printed all the way down (a chart in the instructions) has nothing to fill in; a column
  // with an empty or filled-in cell is a fill-in column, and its cells with values count too
  const body = cells.filter((c) => !(headerRow && c.r === 0) && !(stubCol && c.c === 0));
  const fillable = (c: (typeof cells)[number]) => !c.t || words.some((w) => w.fill && centreIn(w.box, c.b));
  const fillColumns = new Set(body.filter(fillable).map((c) => c.c));
  for (const c of cells) {
    if ((headerRow && c.r === 0) || (stubCol && c.c === 0)) continue;
    if (!fillColumns.has(c.c)) continue;
    if (c.b.y1 - c.b.y0 < 6 || c.b.x1 - c.b.x0 < 8) continue;
    const head = headerRow ? headers.get(c.c) ?? '' : '';
    const stub = stubCol ? stubs.get(c.r) ?? '' : '';
    const header = [head, stub || (headerRow ? `row ${c.r}` : '')].filter(Boolean).join(' ');
    const code = lineCodes ? codes.get(c.r) : undefined;
    const line = code ? { code: code.t, stub: code.b } : undefined;
    out.push({ box: c.b, kind: 'grid', row: c.r, col: c.c, table, header: line ? undefined : header || undefined, ...(line ? { line } : {}) });
  }
  return table + 1;
}

/** A printed line code: a line number with an optional letter ("7", "8a", "12b", "A1"). */
const LINE_CODE = /^(?=[^\s]*\p{N})[\p{L}\p{N}().-]{1,4}$/u;

/**
 * Label printed inside a box: a small caption on its top line, at its left ("1 Name (as shown on your
 * income tax return)", a line of writing left below), or text at its left ending in ":" (value to its
 * right). In a layout of captioned boxes (`layout`: every printed box of the grid holds a caption and
 * room to write), a caption may also run to three close lines, stand centred, or sit along the bottom
 * under the writing area. The value area is what the caption leaves. Words known to be fill-ins (inside
 * /Tx or Quire marked content) never count as labels, so a filled box is read the same way.
 */
function withInnerLabel(c: PtCell, words: PtWord[], layout = false): PtCell {
  const inside = words.filter((w) => centreIn(w.box, c.box) && !w.fill).sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
  if (!inside.length) return c;
  const lines = textLines(inside);
  const first = lines[0], last = lines[lines.length - 1];
  const h = c.box.y1 - c.box.y0, lineH = first.y1 - first.y0;
  const text = (ls: typeof lines) => ls.map((l) => l.words.map((w) => w.text).join(' ')).join(' ');
  const atTop = first.y0 - c.box.y0 < 0.3 * h;
  if (layout && lines.length <= 3 && lines.every((l, i) => !i || l.y0 - lines[i - 1].y1 < 0.6 * lineH)) {
    // the caption's height and a line of writing
    const room = last.y1 - first.y0 + lineH + 4;
    if (h >= room && atTop && c.box.y1 - last.y1 >= lineH + 2) return { ...c, innerLabel: text(lines), box: { ...c.box, y0: last.y1 } };
    if (h >= room && c.box.y1 - last.y1 < 0.3 * h && first.y0 - c.box.y0 >= lineH + 4) return { ...c, innerLabel: text(lines), box: { ...c.box, y1: first.y0 } };
  }
  // alone in the box, or smaller than a value printed below it (a flattened filled box)
  const lineWords = first.words;
  if (atTop && lineWords[0].box.x0 - c.box.x0 < 12 && h >= 2 * lineH + 4 && c.box.y1 - first.y1 >= lineH + 2 &&
    (lines.length === 1 || lineWords[0].fontSize < 0.9 * median(inside.map((w) => w.fontSize)))) {
    return { ...c, innerLabel: text([first]), box: { ...c.box, y0: first.y1 } };
  }
  const colon = lineWords.findIndex((w) => /:$/.test(w.text));
  if (colon >= 0 && lineWords[0].box.x0 - c.box.x0 < 12 && Math.abs((first.y0 + first.y1) / 2 - (c.box.y0 + c.box.y1) / 2) < h * 0.3) {
    const labelWords = lineWords.slice(0, colon + 1);
    return { ...c, innerLabel: labelWords.map((w) => w.text).join(' '), box: { ...c.box, x0: labelWords[labelWords.length - 1].box.x1 + 1 } };
  }
  return c;
}

/** Words (sorted top to bottom) grouped into lines, each line's words left to right, with its vertical extent. */
function textLines(ws: PtWord[]): { words: PtWord[]; y0: number; y1: number }[] {
  const lines: { words: PtWord[]; y0: number; y1: number }[] = [];
  for (const w of ws) {
    const l = lines.find((x) => Math.abs(w.box.y0 - x.words[0].box.y0) < 0.5 * (x.words[0].box.y1 - x.words[0].box.y0));
    if (l) { l.words.push(w); l.y0 = Math.min(l.y0, w.box.y0); l.y1 = Math.max(l.y1, w.box.y1); } else lines.push({ words: [w], y0: w.box.y0, y1: w.box.y1 });
  }
  for (const l of lines) l.words.sort((a, b) => a.box.x0 - b.box.x0);
  return lines;
}

/** A short box holding only printed text right on top of another cell is that cell's caption, not a cell. */
function dropCaptionBoxes(pt: PtCell[], words: PtWord[]) {
  for (let i = pt.length - 1; i >= 0; i--) {
    const c = pt[i];
    if (c.kind !== 'box' || c.innerLabel) continue;
    const inside = words.filter((w) => centreIn(w.box, c.box));
    if (!inside.length || inside.some((w) => w.fill)) continue;
    const lineH = Math.max(...inside.map((w) => w.box.y1 - w.box.y0));
    if (c.box.y1 - c.box.y0 > 2.2 * lineH) continue;
    const below = pt.some((o) => o !== c && Math.abs(o.box.y0 - c.box.y1) < 2.5 && Math.min(o.box.x1, c.box.x1) - Math.max(o.box.x0, c.box.x0) > 0.5 * Math.min(o.box.x1 - o.box.x0, c.box.x1 - c.box.x0));
    if (below) pt.splice(i, 1);
  }
}

/**
 * Light-tinted filled rectangles of field size (the backgrounds of flattened form fields) are cells
 * too, when they hold at most a short value and no other cell covers them.
 */
function shadedBoxes(g: PageGeometry, words: PtWord[], taken: PtCell[], W: number, H: number): PtCell[] {
  const out: PtCell[] = [];
  for (const r of g.rects) {
    if (!r.filled || r.stroked || !r.fill) continue;
    const lum = 0.3 * r.fill[0] + 0.59 * r.fill[1] + 0.11 * r.fill[2];
    if (lum < 0.45 || lum > 0.97) continue;
    const box = { x0: r.box.x0 * W, y0: r.box.y0 * H, x1: r.box.x1 * W, y1: r.box.y1 * H };
    const w = box.x1 - box.x0, h = box.y1 - box.y0;
    if (h < 8 || h > 60 || w < 2.5 * h || w > 0.8 * W) continue;
    if (words.filter((x) => centreIn(x.box, box)).length > 8) continue;
    if ([...taken, ...out].some((c) => overlapFrac(box, c.box) > 0.3)) continue;
    out.push({ box, kind: 'box' });
  }
  return out;
}

function underlineCells(lines: Line[], words: PtWord[], bodySize: number, pageW: number, taken: PtCell[]): PtCell[] {
  const hgt = Math.min(24, Math.max(12, bodySize * 1.6));
  const out: PtCell[] = [];
  const all = buildPhrases(words.filter((w) => !isFillLine(w.text) && !w.fill));
  for (const l of lines) {
    const len = l.b - l.a;
    if (len < 25) continue;
    const box = { x0: l.a, y0: l.pos - hgt, x1: l.b, y1: l.pos + 1 };
    // a cell of about this height already there (a box standing on this line); a panel far taller
    // around the line does not count, it is dropped later for holding cells
    if (taken.some((c) => overlapFrac(box, c.box) > 0.5 && c.box.y1 - c.box.y0 < 2.5 * hgt)) continue;
    const phrases = all.filter((p) => !centreIn(p.box, box));
    // the label may stand well left of the line (a column of labels, lines starting at one x): the
    // nearest text on the row counts within a reach that grows with the line, nothing drawn between
    const reach = Math.max(60, 8 * bodySize, 0.5 * len);
    const between = (p: Phrase) => lines.some((o) => o !== l && Math.abs(o.pos - l.pos) < 3 && o.a >= p.box.x1 - 1 && o.b <= l.a + 1) ||
      taken.some((c) => c.box.x0 >= p.box.x1 - 1 && c.box.x1 <= l.a + 1 && c.box.y1 > l.pos - hgt && c.box.y0 < l.pos);
    const left = phrases.some((p) => p.box.x1 <= l.a + 3 && l.a - p.box.x1 < reach && p.box.y1 > l.pos - hgt && p.box.y0 < l.pos + 2 && !between(p));
    const below = phrases.some((p) => p.box.y0 >= l.pos - 2 && p.box.y0 - l.pos < 12 && p.box.x0 < l.b && p.box.x1 > l.a && p.box.x0 >= l.a - 4);
    if (!left && !below) continue;
    if (len > 0.85 * pageW && !left) continue;
    out.push({ box, kind: 'underline' });
  }
  return out;
}

function underscoreCells(words: PtWord[], bodySize: number, taken: PtCell[]): PtCell[] {
  const out: PtCell[] = [];
  for (const w of words) {
    if (!/^_{3,}$/.test(w.text)) continue;
    const base = w.box.y1 - 0.22 * w.fontSize / 1.12 * 1.0;
    const hgt = Math.min(24, Math.max(12, Math.max(bodySize, w.fontSize) * 1.6));
    const box = { x0: w.box.x0, y0: base - hgt + 2, x1: w.box.x1, y1: w.box.y1 };
    if (taken.some((c) => overlapFrac(box, c.box) > 0.4) || out.some((c) => overlapFrac(box, c.box) > 0.4)) continue;
    out.push({ box, kind: 'underscores' });
  }
  return out;
}

function toCell(page: number, c: PtCell, words: PtWord[], phrases: Phrase[], W: number, H: number, bodySize: number, blockers: PtBox[], rules: PtBox[]): DetectedCell {
  const inside = words.filter((w) => centreIn(w.box, c.box) && !isFillLine(w.text) && !isCheckGlyph(w.text));
  const text = cellText(inside, c.kind === 'comb');
  let label = c.innerLabel ? cleanLabel(c.innerLabel) : '';
  if (c.kind === 'grid' && c.header) label = cleanLabel(c.header);
  if (c.line) label = lineLabel(c.line, phrases, blockers);
  if (!label) label = nearestLabel(c.box, phrases, { allowBelow: c.kind === 'underline' || c.kind === 'underscores', blockers, rules });
  const signature = /\bsign(ature|ed|\s+here)?\b/i.test(label) && !/\bdate\b/i.test(label);
  const cell: DetectedCell = {
    page_number: page, type: signature ? 'signature' : 'text',
    bounding_box: roundBox([c.box.x0 / W, c.box.y0 / H, c.box.x1 / W, c.box.y1 / H]),
    text, label,
    source: { kind: 'drawn', shape: c.kind === 'box' ? 'box' : c.kind },
  };
  if (c.kind === 'grid') { cell.row = c.row; cell.col = c.col; cell.table_idx = c.table; }
  if (c.kind === 'comb' && c.combBoxes) {
    cell.comb = true; cell.maxLength = c.combCount;
    cell.source = { kind: 'drawn', shape: 'comb', boxes: c.combBoxes.map((b) => roundBox([b.x0 / W, b.y0 / H, b.x1 / W, b.y1 / H])) };
  }
  if (c.kind === 'box' && c.box.y1 - c.box.y0 > bodySize * 3.2) cell.multiline = true;
  const near = nearestLabel(c.box, phrases, { allowBelow: true });
  const dp = findDatePattern(label) ?? findDatePattern(near) ?? findDatePattern(text);
  if (dp) cell.datePattern = dp;
  return cell;
}

/**
 * The label of a numbered line of an amount column: its code and the wording printed on its row left of
 * the code cell, up to the nearest other cell ("7 Wages, salaries, tips, etc."); leader dots are dropped.
 */
function lineLabel(line: { code: string; stub: PtBox }, phrases: Phrase[], blockers: PtBox[]): string {
  const { stub } = line;
  const onRow = (b: PtBox) => (b.y0 + b.y1) / 2 > stub.y0 && (b.y0 + b.y1) / 2 < stub.y1;
  const stop = Math.max(0, ...blockers.filter((b) => onRow(b) && b.x1 <= stub.x0 + 1).map((b) => b.x1));
  const words = phrases.filter((p) => onRow(p.box) && p.box.x1 <= stub.x0 + 1 && p.box.x0 >= stop - 1)
    .sort((a, b) => a.box.x0 - b.box.x0).map((p) => p.text);
  // the code is often printed again at the line's start
  if (words[0]?.trim() === line.code) words.shift();
  const wording = cleanLabel(words.join(' '));
  return wording ? `${line.code} ${wording}` : line.code;
}

export function cellText(ws: PtWord[], comb: boolean): string {
  const sorted = [...ws].sort((a, b) => a.box.y0 - b.box.y0);
  const lines: PtWord[][] = [];
  for (const w of sorted) {
    const l = lines.find((x) => Math.abs((x[0].box.y0 + x[0].box.y1) / 2 - (w.box.y0 + w.box.y1) / 2) < 0.5 * (w.box.y1 - w.box.y0));
    if (l) l.push(w); else lines.push([w]);
  }
  return lines.map((l) => l.sort((a, b) => a.box.x0 - b.box.x0).map((w) => w.text).join(comb ? '' : ' ')).join('\n');
}

export function overlapFrac(a: PtBox, b: PtBox): number {
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0), h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  if (w <= 0 || h <= 0) return 0;
  const area = Math.min((a.x1 - a.x0) * (a.y1 - a.y0), (b.x1 - b.x0) * (b.y1 - b.y0));
  return area > 0 ? (w * h) / area : 0;
}

export function median(xs: number[]): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
