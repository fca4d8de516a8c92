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
  const labelBlock = block > 0 && block <= rows / 3 && rows - block >= 3 && overFigures && withFigures >= 0.6 * (rows - block);

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
  return { drafts: ds, rows, labelRows: labelBlock ? block : 0, ruled };
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
