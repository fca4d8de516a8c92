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
  const lines: PtWord[][] = [];
  for (const w of sorted) {
    // words arrive sorted by centre, so only the last few lines can still take this word
    const line = lines.slice(-4).find((l) => l.some((o) => vOverlap(o.box, w.box) > 0.5 * Math.min(o.box.y1 - o.box.y0, w.box.y1 - w.box.y0)));
    if (line) line.push(w); else lines.push([w]);
  }
  const phrases: Phrase[] = [];
  for (const line of lines) {
    line.sort((a, b) => a.box.x0 - b.box.x0);
    let cur: Phrase | null = null;
    for (const w of line) {
      const gap = cur ? w.box.x0 - cur.box.x1 : Infinity;
      if (cur && gap < 0.9 * Math.max(cur.fontSize, w.fontSize) && !isFillLine(w.text) && !isCheckGlyph(w.text) && !/[:?]$/.test(cur.text)) {
        cur.text += (gap > 0.12 * w.fontSize ? ' ' : '') + w.text;
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
  return s.replace(/[_.…]{2,}/g, ' ').replace(/\s+/g, ' ').replace(/^[\s|¦~=_\\/]+/, '').replace(/[\s:|¦~=_\\/]+$/, '').trim().slice(0, 120);
}

interface LabelOpts {
  /** Look to the right first (checkbox and radio option labels). */
  preferRight?: boolean;
  /** Also accept a label just below the box (signature lines, labels printed under a rule). */
  allowBelow?: boolean;
  maxGap?: number;
}

/** The printed text nearest to a cell, searching left (same line), above, optionally right and below. */
export function nearestLabel(box: PtBox, phrases: Phrase[], o: LabelOpts = {}): string {
  const h = Math.max(box.y1 - box.y0, 6);
  const maxGap = o.maxGap ?? 160;
  let best: { cost: number; p: Phrase } | null = null;
  const consider = (p: Phrase, cost: number) => { if (!best || cost < best.cost) best = { cost, p }; };
  for (const p of phrases) {
    if (centreIn(p.box, box) || !/[\p{L}\d]/u.test(p.text)) continue;
    const sameLine = vOverlap(p.box, box) >= 0.4 * Math.min(p.box.y1 - p.box.y0, h) || ((p.box.y0 + p.box.y1) / 2 >= box.y0 && (p.box.y0 + p.box.y1) / 2 <= box.y1);
    if (sameLine && p.box.x1 <= box.x0 + 3) {
      const gap = box.x0 - p.box.x1;
      if (gap <= (o.preferRight ? 60 : maxGap)) consider(p, gap + (o.preferRight ? 25 : 0));
    }
    if (sameLine && p.box.x0 >= box.x1 - 3 && o.preferRight) {
      const gap = p.box.x0 - box.x1;
      if (gap <= 40) consider(p, gap);
    }
    const vgapAbove = box.y0 - p.box.y1;
    if (!o.preferRight && vgapAbove >= -3 && vgapAbove <= Math.max(14, 1.6 * p.fontSize) && hOverlap(p.box, { ...box, x0: box.x0 - 6 }) > 0) {
      consider(p, 8 + vgapAbove * 2 + Math.abs(p.box.x0 - box.x0) * 0.15);
    }
    const vgapBelow = p.box.y0 - box.y1;
    if (o.allowBelow && vgapBelow >= -3 && vgapBelow <= 14 && hOverlap(p.box, box) > 0.3 * (p.box.x1 - p.box.x0)) {
      consider(p, 14 + vgapBelow * 2);
    }
  }
  return best ? cleanLabel((best as { p: Phrase }).p.text) : '';
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
