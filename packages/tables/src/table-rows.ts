import type { RawWord } from '@quire/core';
import { isDots } from './leaders.js';
import type { CellDraft } from './table-cells.js';

const YEAR = /^(1[89]|20|21)\d\d$/;
const MISSING = /^(?:[-‐‑‒–—―*x]|\(x\)|n\/?a|n\.a\.|\.\.\.?|…)$/i;
const NUMBER = /^[-+−–(]?[$€£¥]?\s?\d[\d.,'\s\u202f\u00a0]*\)?\s?%?$/;

/** A figure as a table cell holds it (number, amount, percentage, or a missing-value mark); a year is a column label. */
export function isQuantity(text: string): boolean {
  const t = text.trim();
  if (YEAR.test(t)) return false;
  return NUMBER.test(t) || MISSING.test(t);
}

const textOf = (words: readonly RawWord[]) => words.filter((w) => !isDots(w.text)).map((w) => w.text).join(' ');
const LOWER_START = /^\p{Ll}/u;

/**
 * One row per logical row where the detectors read each text line as a row:
 * - header: the leading label rows (no figures; at most a third of the rows) above ≥ 3 rows, most of
 *   them with figures, are one header row where no rule separates them and no cell of either spans
 *   columns — "Under 18" above "years" is one cell. A row with a cell over several columns is a level
 *   of its own (a group title over its sub-columns).
 * - wrapped row labels: a row whose only text is a long first cell (≥ 60 % of the widest label),
 *   followed with no rule between by a row whose first cell starts in lower case, is one label
 *   ("Murder and nonnegligent" / "manslaughter . . . 10.0").
 * `ruledBelow(r)` tells whether a rule separates row r from row r + 1. Returns the rows, which of them
 * have a rule below, and the number of leading label rows (the header by type change), 0 when the
 * table has no such block.
 */
export function joinWrappedRows(drafts: CellDraft[], rows: number, ruledBelow: (r: number) => boolean): { drafts: CellDraft[]; rows: number; labelRows: number; ruled: boolean[] } {
  let ds = drafts;
  const ruled = Array.from({ length: rows }, (_, r) => r + 1 < rows && ruledBelow(r));
  const starting = (r: number) => ds.filter((d) => d.row === r && d.words.length > 0);
  const hasQuantity = (r: number) => starting(r).some((d) => isQuantity(textOf(d.words)));
  let block = 0;
  while (block < rows && !hasQuantity(block)) block++;
  let withFigures = 0;
  for (let r = block; r < rows; r++) if (hasQuantity(r)) withFigures++;
  // column labels stand over the figure columns: a lone first-column label (a row label wrapped from the page before) is not a header
  const overFigures = ds.some((d) => d.row < block && d.col + d.colSpan > 1 && d.words.length > 0);
  // a header is a few rows over a body of figures: a label/value form whose phone number reads as a figure is not one
  // two label lines over as few as three rows of figures are a header when the second continues the
  // first's column names in lower case ("Number" over "of items"): a wrapped name, not a record
  const runover = block === 2 && ds.some((d) => d.row === 1 && d.words.length > 0 && LOWER_START.test(firstWord(d.words))) &&
    ds.filter((d) => d.row === 1 && d.words.length > 0 && ds.some((u) => u.row === 0 && u.col === d.col && u.words.length > 0))
      .every((d) => LOWER_START.test(firstWord(d.words)));
  const labelBlock = block > 0 && (block <= rows / 3 || runover) && rows - block >= 3 && overFigures && withFigures >= 0.6 * (rows - block);

  const spans = (r: number) => ds.some((d) => d.row <= r && d.row + d.rowSpan > r && d.colSpan > 1 && d.words.length > 0);
  if (labelBlock) {
    let r = 0;
    while (r + 1 < block) {
      const merged = !ruled[r] && !spans(r) && !spans(r + 1) ? mergeRows(ds, r) : undefined;
      if (!merged) { r++; continue; }
      ds = merged;
      ruled.splice(r, 1);
      block--;
      rows--;
    }
  }

  const left = (d: CellDraft) => Math.min(...d.words.filter((w) => !isDots(w.text)).map((w) => w.box.x0));
  const right = (d: CellDraft) => Math.max(...d.words.filter((w) => !isDots(w.text)).map((w) => w.box.x1));
  const labels = ds.filter((d) => d.col === 0 && d.row >= block && d.words.some((w) => !isDots(w.text)));
  const widest = labels.length ? Math.max(...labels.map((d) => right(d) - left(d))) : 0;
  let r = labelBlock ? block : 0;
  while (r + 1 < rows) {
    const own = starting(r), next = starting(r + 1);
    const label = own.length === 1 && own[0].col === 0 && own[0].colSpan === 1 && own[0].rowSpan === 1 ? own[0] : undefined;
    const cont = next.find((d) => d.col === 0);
    const wrapped = label && cont && !ruled[r] && next.length >= 2 && right(label) - left(label) >= 0.6 * widest &&
      !isQuantity(textOf(label.words)) && LOWER_START.test(firstWord(cont.words));
    const merged = wrapped ? mergeRows(ds, r) : undefined;
    if (!merged) { r++; continue; }
    ds = merged;
    ruled.splice(r, 1);
    rows--;
  }
  ({ ds, rows } = joinRunoverLabels(ds, rows, labelBlock ? block : 0, ruled));
  ({ ds, rows } = joinLabelsAroundFigures(ds, rows, labelBlock ? block : 0, ruled));
  return { drafts: ds, rows, labelRows: labelBlock ? block : 0, ruled };
}

/**
 * Runover lines of row labels set with a hanging indent: a row label with its figures on its first line
 * wraps onto a line of its own (lone first-column text, no figure, no rule between) that starts further
 * right than the label (by ≥ a fifth of the line height), while the next row's label starts left of that
 * line again ("American Indian/Alaska  707  51" over "  Native", then "Sex, by race" flush left). A title
 * set deeper under a row has its rows at least as deep, so it stays a row. In a record of text cells the
 * other cells may run over onto that line too, all runovers in lower case. `ruled` is updated in place.
 */
function joinRunoverLabels(drafts: CellDraft[], rows: number, from: number, ruled: boolean[]): { ds: CellDraft[]; rows: number } {
  let ds = drafts;
  const inRow = (r: number) => ds.filter((d) => d.row === r && d.words.some((w) => !isDots(w.text)));
  const labelOf = (r: number) => inRow(r).find((d) => d.col === 0 && d.rowSpan === 1 && d.colSpan === 1);
  const words = (d: CellDraft) => d.words.filter((w) => !isDots(w.text));
  const left = (d: CellDraft) => Math.min(...words(d).map((w) => w.box.x0));
  const height = (d: CellDraft) => Math.max(...words(d).map((w) => w.box.y1 - w.box.y0));
  let r = from;
  while (r + 2 < rows) {
    const own = inRow(r), next = inRow(r + 1), label = labelOf(r), runover = labelOf(r + 1), after = labelOf(r + 2);
    const figures = own.some((d) => d.col > 0 && isQuantity(textOf(d.words)));
    // a record of text cells: the text beside the label runs over too, each cell's runover under its
    // cell and, like the label's, in lower case (it continues a sentence; a new record starts a new one)
    const textRecord = !figures && own.length >= 2 && own.every((d) => !isQuantity(textOf(d.words))) &&
      next.every((d) => LOWER_START.test(firstWord(d.words)) && !isQuantity(textOf(d.words)) && own.some((u) => u.col === d.col && u.colSpan === d.colSpan));
    const indent = label && runover ? 0.2 * Math.max(height(label), height(runover)) : 0;
    const hanging = label && runover && after && !ruled[r] && (figures ? next.length === 1 : textRecord) && !isQuantity(textOf(runover.words)) &&
      left(runover) - left(label) >= indent && left(runover) - left(after) >= indent;
    const merged = hanging ? mergeRows(ds, r) : undefined;
    if (!merged) { r++; continue; }
    ds = merged;
    ruled.splice(r, 1);
    rows--;
  }
  return { ds, rows };
}

/**
 * Row labels wrapped around their figures: a label set over two or three lines with its row's figures
 * on one line, centred on it, reads as lines holding only the label (lone first-column text, no figure)
 * above and below a line of figures whose first column is empty. Each such lone line joins the nearer
 * (by line centre) of the figure lines it reaches without crossing a rule or another figure line; the
 * figure line and its lines are one row. `ruled` is updated in place.
 */
function joinLabelsAroundFigures(drafts: CellDraft[], rows: number, from: number, ruled: boolean[]): { ds: CellDraft[]; rows: number } {
  const inRow = (r: number) => drafts.filter((d) => d.row === r && d.rowSpan === 1 && d.words.length > 0);
  const centre = (r: number) => {
    const ws = inRow(r).flatMap((d) => d.words);
    return ws.reduce((s, w) => s + (w.box.y0 + w.box.y1) / 2, 0) / Math.max(1, ws.length);
  };
  const lineHeight = (r: number) => Math.max(0, ...inRow(r).flatMap((d) => d.words.map((w) => w.box.y1 - w.box.y0)));
  const lone = (r: number) => { const own = inRow(r); return own.length === 1 && own[0].col === 0 && own[0].colSpan === 1 && !isQuantity(textOf(own[0].words)); };
  const open = (r: number) => { const own = inRow(r); return own.length >= 2 && own.every((d) => d.col > 0) && own.some((d) => isQuantity(textOf(d.words))); };
  // lines of one label follow at its line spacing: a section title a row gap above is no part of it
  const tight = (a: number, b: number) => !ruled[a] && Math.abs(centre(b) - centre(a)) <= 1.5 * Math.max(lineHeight(a), lineHeight(b));
  // the figure line each lone line joins
  const owner = new Map<number, number>();
  for (let r = from; r < rows; r++) {
    if (!lone(r)) continue;
    let up = r - 1;
    while (up >= from && lone(up) && tight(up, up + 1)) up--;
    let down = r + 1;
    while (down < rows && lone(down) && tight(down - 1, down)) down++;
    const reachUp = up >= from && open(up) && tight(up, up + 1) && !ruled.slice(up, r).some(Boolean);
    const reachDown = down < rows && open(down) && tight(down - 1, down) && !ruled.slice(r, down).some(Boolean);
    if (reachUp && (!reachDown || Math.abs(centre(r) - centre(up)) <= Math.abs(centre(down) - centre(r)))) owner.set(r, up);
    else if (reachDown) owner.set(r, down);
  }
  // the groups of consecutive lines sharing a figure line (the figure line among them), merged bottom up
  const groups: [number, number][] = [];
  for (const target of new Set(owner.values())) {
    const members = [target, ...[...owner].filter(([, t]) => t === target).map(([r]) => r)];
    const a = Math.min(...members), b = Math.max(...members);
    if (b - a + 1 === members.length) groups.push([a, b]);
  }
  let ds = drafts;
  for (const [a, b] of groups.sort((x, y) => y[0] - x[0])) {
    let merged: CellDraft[] | undefined = ds;
    for (let k = a; k < b && merged; k++) merged = mergeRows(merged, a);
    if (!merged) continue;
    ds = merged;
    ruled.splice(a, b - a);
    rows -= b - a;
  }
  return { ds, rows };
}

function firstWord(words: readonly RawWord[]): string {
  let best: RawWord | undefined;
  for (const w of words) {
    if (isDots(w.text)) continue;
    if (!best || w.box.y0 < best.box.y0 - 0.5 * (best.box.y1 - best.box.y0) || (Math.abs(w.box.y0 - best.box.y0) <= 0.5 * (best.box.y1 - best.box.y0) && w.box.x0 < best.box.x0)) best = w;
  }
  return best?.text ?? '';
}

/**
 * Row r + 1 folded into row r: each cell starting in row r + 1 joins the cell above it, which must end
 * in row r and cover the same columns (else the rows do not line up and undefined is returned); cells
 * spanning both rows lose a row; rows below move up.
 */
function mergeRows(drafts: readonly CellDraft[], r: number): CellDraft[] | undefined {
  const below = drafts.filter((d) => d.row === r + 1);
  const above = drafts.filter((d) => d.row + d.rowSpan - 1 === r);
  if (below.length !== above.length) return undefined;
  const partner = new Map<CellDraft, CellDraft>();
  for (const d of below) {
    const u = above.find((a) => a.col === d.col && a.colSpan === d.colSpan);
    if (!u) return undefined;
    partner.set(u, d);
  }
  const out: CellDraft[] = [];
  for (const d of drafts) {
    if (d.row === r + 1) continue;
    const p = partner.get(d);
    if (p) {
      out.push({
        ...d, rowSpan: d.rowSpan + p.rowSpan - 1, words: [...d.words, ...p.words],
        box: { x0: Math.min(d.box.x0, p.box.x0), y0: Math.min(d.box.y0, p.box.y0), x1: Math.max(d.box.x1, p.box.x1), y1: Math.max(d.box.y1, p.box.y1) },
      });
    } else if (d.row > r + 1) out.push({ ...d, row: d.row - 1 });
    else if (d.row + d.rowSpan - 1 > r) out.push({ ...d, rowSpan: d.rowSpan - 1 });
    else out.push(d);
  }
  return out;
}
