import type { RawWord } from '@quire/core';

/** A box in display points (origin top-left). */
export interface PtBox { x0: number; y0: number; x1: number; y1: number }

export interface Phrase { text: string; box: PtBox; fontSize: number }

export interface PtWord { text: string; box: PtBox; fontSize: number; fill?: boolean }

export const toPt = (w: RawWord & { fill?: boolean }, width: number, height: number): PtWord => ({
  text: w.text, fontSize: w.fontSize, fill: w.fill,
  box: { x0: w.box.x0 * width, y0: w.box.y0 * height, x1: w.box.x1 * width, y1: w.box.y1 * height },
});

export const isFillLine = (s: string) => /^[_.…\s]{3,}$/.test(s) && /_{2,}|\.{4,}|…/.test(s);
export const CHECK_GLYPHS_EMPTY = new Set(['☐', '□', '❏', '❑', '○', '◯', '⬜']);
export const CHECK_GLYPHS_SET = new Set(['☑', '☒', '■', '●', '◉', '✓', '✔', '✗', '✘', '⬛']);
export const isCheckGlyph = (s: string) => CHECK_GLYPHS_EMPTY.has(s) || CHECK_GLYPHS_SET.has(s);

const vOverlap = (a: PtBox, b: PtBox) => Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));
const hOverlap = (a: PtBox, b: PtBox) => Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0));
export const centreIn = (a: PtBox, b: PtBox, pad = 0) => {
  const cx = (a.x0 + a.x1) / 2, cy = (a.y0 + a.y1) / 2;
  return cx >= b.x0 - pad && cx <= b.x1 + pad && cy >= b.y0 - pad && cy <= b.y1 + pad;
};

/** Groups words into lines, then into phrases (words closer than about one space apart). */
export function buildPhrases(words: PtWord[]): Phrase[] {
  const sorted = [...words].sort((a, b) => (a.box.y0 + a.box.y1) - (b.box.y0 + b.box.y1));
  // A word joins the line whose first word it shares a band with (centre within 40% of the smaller
  // height). Comparing with the line's first word, not with any member, keeps the lines of a dense
  // paragraph apart: a tall glyph (▶, a bracket) overlapping two lines would otherwise chain them.
  const lines: { band: PtBox; words: PtWord[] }[] = [];
  for (const w of sorted) {
    const cy = (w.box.y0 + w.box.y1) / 2, h = w.box.y1 - w.box.y0;
    // words arrive sorted by centre, so only the last few lines can still take this word
    let best: { line: (typeof lines)[number]; d: number } | undefined;
    for (const line of lines.slice(-4)) {
      const d = Math.abs(cy - (line.band.y0 + line.band.y1) / 2);
      if (d <= 0.4 * Math.min(h, line.band.y1 - line.band.y0) && vOverlap(line.band, w.box) > 0 && (!best || d < best.d)) best = { line, d };
    }
    if (best) best.line.words.push(w); else lines.push({ band: w.box, words: [w] });
  }
  const phrases: Phrase[] = [];
  for (const { words: line } of lines) {
    line.sort((a, b) => a.box.x0 - b.box.x0);
    let cur: Phrase | null = null;
    for (const w of line) {
      const gap = cur ? w.box.x0 - cur.box.x1 : Infinity;
      const size = cur ? Math.max(cur.fontSize, w.fontSize) : 0;
      if (cur && gap < 0.9 * size && gap > -0.5 * size && !isFillLine(w.text) && !isCheckGlyph(w.text) && !/[:?]$/.test(cur.text)) {
        // touching words are one word split across text runs; overlapping boxes (OCR) are two words
        cur.text += (gap > 0.12 * w.fontSize || gap < -0.05 * w.fontSize ? ' ' : '') + w.text;
        cur.box = { x0: Math.min(cur.box.x0, w.box.x0), y0: Math.min(cur.box.y0, w.box.y0), x1: Math.max(cur.box.x1, w.box.x1), y1: Math.max(cur.box.y1, w.box.y1) };
        cur.fontSize = Math.max(cur.fontSize, w.fontSize);
      } else {
        cur = { text: w.text, box: { ...w.box }, fontSize: w.fontSize };
        phrases.push(cur);
      }
    }
  }
  return phrases.filter((p) => !isFillLine(p.text) && !isCheckGlyph(p.text));
}

export function cleanLabel(s: string): string {
  // Rule-like glyphs at either end are box edges and underlines that OCR read as text ("|Date", "~~ Code").
  // A trailing leader arrow ("Other (see instructions) ▶") points at the cell; it is not part of the label.
  return s.replace(/[_.…]{2,}|(?:\s*\.){3,}/g, ' ').replace(/\s+/g, ' ').replace(/^[\s|¦~=_\\/]+/, '').replace(/[\s:|¦~=_\\/▶►→➔➜⇒]+$/u, '').trim().slice(0, 120);
}

interface LabelOpts {
  /** Look to the right first (checkbox and radio option labels). */
  preferRight?: boolean;
  /** Also accept a label just below the box (signature lines, labels printed under a rule). */
  allowBelow?: boolean;
  maxGap?: number;
  /** Other cells: a label is not looked for past one of them (the next cell on a row has its own). */
  blockers?: PtBox[];
  /**
   * Vertical ruling lines: text across one is a weaker candidate (a sidebar heading beside a field
   * with its own label above). Only a penalty: a box's own wall may stand between it and its label.
   */
  rules?: PtBox[];
}

/** The printed text nearest to a cell, searching left (same line), above, optionally right and below. */
export function nearestLabel(box: PtBox, phrases: Phrase[], o: LabelOpts = {}): string {
  const h = Math.max(box.y1 - box.y0, 6);
  // the nearest text to the left on the row, with no other cell between, however wide the gap grows
  // with the cell (a column of labels with lines that all start at one x)
  const maxGap = o.maxGap ?? Math.max(160, box.x1 - box.x0);
  let best: { cost: number; p: Phrase; left?: boolean } | null = null;
  const consider = (p: Phrase, cost: number, left = false) => { if (!best || cost < best.cost) best = { cost, p, left }; };
  const others = (o.blockers ?? []).filter((b) => !(hOverlap(b, box) > 0.5 * Math.min(b.x1 - b.x0, box.x1 - box.x0) && vOverlap(b, box) > 0.5 * Math.min(b.y1 - b.y0, box.y1 - box.y0)));
  const rowBlocked = (x0: number, x1: number) => others.some((b) => b.x0 >= x0 - 1 && b.x1 <= x1 + 1 && vOverlap(b, box) > 0.3 * Math.min(b.y1 - b.y0, h));
  const ruled = (x0: number, x1: number) => ((o.rules ?? []).some((r) => r.x0 >= x0 - 1 && r.x1 <= x1 + 3 && vOverlap(r, box) > 0.5 * h) ? RULE_PENALTY : 0);
  // text above with a cell between it and this one, or with a cell right after it on its own row
  // (it labels that cell: "Last Name [____]" above a wider field), is not this cell's label
  const columnBlocked = (p: Phrase) => others.some((b) => (b.y0 >= p.box.y1 - 1 && b.y1 <= box.y0 + 1 && hOverlap(b, box) > 0 && hOverlap(b, p.box) > 0) ||
    (b.x0 >= p.box.x1 - 1 && b.x0 - p.box.x1 < 2 * p.fontSize && (b.y0 + b.y1) / 2 > p.box.y0 && (b.y0 + b.y1) / 2 < p.box.y1));
  // an option printed right after another box is that box's label ("☐ Email ☐ Phone")
  const labelsBoxOnItsLeft = (p: Phrase) => others.some((b) => b.x1 <= p.box.x0 + 1 && p.box.x0 - b.x1 < 2 * p.fontSize && vOverlap(b, p.box) > 0);
  for (const p of phrases) {
    if (centreIn(p.box, box) || !isLabelText(p.text)) continue;
    const sameLine = vOverlap(p.box, box) >= 0.4 * Math.min(p.box.y1 - p.box.y0, h) || ((p.box.y0 + p.box.y1) / 2 >= box.y0 && (p.box.y0 + p.box.y1) / 2 <= box.y1);
    if (sameLine && p.box.x1 <= box.x0 + 3 && !rowBlocked(p.box.x1, box.x0) && !(o.preferRight && labelsBoxOnItsLeft(p))) {
      const gap = box.x0 - p.box.x1;
      // same-row text on the left beats text above unless that sits right on the cell: a far gap
      // (a column of labels) weighs little more than a near one
      const cost = o.preferRight ? gap + 25 : gap <= 30 ? gap : 30 + 0.05 * (gap - 30);
      if (gap <= (o.preferRight ? 60 : maxGap)) consider(p, cost + ruled(p.box.x1, box.x0), !o.preferRight);
    }
    if (sameLine && p.box.x0 >= box.x1 - 3 && o.preferRight && !rowBlocked(box.x1, p.box.x0)) {
      const gap = p.box.x0 - box.x1;
      if (gap <= 40) consider(p, gap + ruled(box.x1 - 3, p.box.x0));
    }
    const vgapAbove = box.y0 - p.box.y1;
    if (!o.preferRight && vgapAbove >= -3 && vgapAbove <= Math.max(14, 1.6 * p.fontSize) && hOverlap(p.box, { ...box, x0: box.x0 - 6 }) > 0 && !columnBlocked(p)) {
      consider(p, 8 + vgapAbove * 2 + Math.abs(p.box.x0 - box.x0) * 0.15);
    }
    const vgapBelow = p.box.y0 - box.y1;
    if (o.allowBelow && vgapBelow >= -3 && vgapBelow <= 14 && hOverlap(p.box, box) > 0.3 * (p.box.x1 - p.box.x0)) {
      consider(p, 14 + vgapBelow * 2);
    }
  }
  if (!best) return '';
  const found = best as { p: Phrase; left?: boolean };
  return cleanLabel(found.left ? wrappedLabel(found.p, box, phrases, others) : found.p.text);
}

/** Extra cost of a label candidate across a vertical rule, in points of gap. */
const RULE_PENALTY = 10;

/** Text that can name a cell: some letters, or a short item number ("7"); not braces, leaders and amounts ("} . . . 2 $"). */
const isLabelText = (s: string) => {
  const t = cleanLabel(s);
  return /\p{L}/u.test(t) || /^\d{1,3}[a-z]?$/i.test(t);
};

/**
 * A label on the left that wraps ("Signature of / U.S. person ▶"): the lines stacked right above
 * the one beside the cell, starting at the same x and closely spaced, belong to it, unless such a
 * line is a label of its own (ends in ":" or "?", or has a cell on its row).
 */
function wrappedLabel(p: Phrase, box: PtBox, phrases: Phrase[], others: PtBox[]): string {
  // only a label that ends as labels do; the last line of a paragraph beside a cell is not one
  if (!/[:?▶►→]\s*$/u.test(p.text)) return p.text;
  let text = p.text, cur = p;
  for (let k = 0; k < 2; k++) {
    const above = phrases.find((q) => q !== cur && Math.abs(q.box.x0 - cur.box.x0) <= 2 && cur.box.y0 - q.box.y1 >= -1 &&
      cur.box.y0 - q.box.y1 <= 0.6 * cur.fontSize && q.box.x1 <= box.x0 + 3 && Math.abs(q.fontSize - cur.fontSize) < 1);
    if (!above || /[:?▶►→]\s*$/u.test(above.text)) break;
    if (others.some((b) => b.x0 >= above.box.x1 - 1 && vOverlap(b, above.box) > 0.5 * (above.box.y1 - above.box.y0))) break;
    text = `${above.text} ${text}`;
    cur = above;
  }
  return text;
}

/** Turns a field name like "topmostSubform[0].Page1[0].f1_01[0]" or "first_name" into a readable label. */
export function prettifyFieldName(name: string): string {
  const last = name.split('.').filter((p) => p && !/^(topmostSubform|Page\d+|form\d*)(\[\d+\])?$/i.test(p)).pop() ?? name;
  return last.replace(/\[\d+\]/g, '').replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-]+/g, ' ').replace(/\s+/g, ' ').trim() || name;
}

const DATE_RE = /\b(mm|dd|yyyy|yy|m|d)([/.\- ])(mm|dd|yyyy|yy|m|d)\2(mm|dd|yyyy|yy|m|d)\b/i;

/** A date pattern (normalized to upper case, e.g. "MM/DD/YYYY") found in a piece of text. */
export function findDatePattern(text: string): string | undefined {
  const m = DATE_RE.exec(text);
  if (!m) return undefined;
  const parts = [m[1], m[3], m[4]].map((p) => p.toUpperCase());
  if (new Set(parts.map((p) => p[0])).size !== 3) return undefined;
  return parts.join(m[2]);
}

/** AFDate_FormatEx("mm/dd/yyyy") / AFDate_Format(n) in a field's Format action → pattern. */
export function datePatternFromActions(actions: unknown): string | undefined {
  if (!actions || typeof actions !== 'object') return undefined;
  const fmt = (actions as Record<string, unknown>).Format;
  const js = Array.isArray(fmt) ? fmt.join(';') : typeof fmt === 'string' ? fmt : '';
  const ex = /AFDate_(?:Format|Keystroke)Ex\s*\(\s*["']([^"']+)["']/.exec(js);
  if (ex) return findDatePattern(ex[1]) ?? undefined;
  const legacy = /AFDate_(?:Format|Keystroke)\s*\(\s*(\d+)/.exec(js);
  const table = ['M/D', 'M/D/YY', 'MM/DD/YY', 'MM/YY', 'D-MMM', 'D-MMM-YY', 'DD-MMM-YY', 'YY-MM-DD', 'MMM-YY', 'MMMM-YY', 'MMM D, YYYY', 'MMMM D, YYYY', 'M/D/YY H:MM TT', 'M/D/YY HH:MM'];
  return legacy ? table[Number(legacy[1])] : undefined;
}
