import type { Box, RawWord } from '@quire/core';
import { charWidth, isMonospaceName } from './char-widths.js';
import { normalizeText } from './normalize.js';
import { type Matrix, applyMatrix, normalizedBox } from './matrix.js';

/** The parts of a pdf.js text item and style we use (keeps this module testable without pdf.js). */
export interface TextItemLike { str: string; dir: string; transform: number[]; width: number; height: number; fontName: string }
export interface TextStyleLike { ascent?: number; descent?: number; vertical?: boolean }
export interface FontInfo { name?: string; bold: boolean; italic: boolean }

export interface WordContext {
  /** User space → displayed page points (the scale-1 viewport transform). */
  viewport: Matrix;
  pageWidth: number;
  pageHeight: number;
  styles: Record<string, TextStyleLike>;
  font: (loadedName: string) => FontInfo | undefined;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Splits every text item into words with their own boxes (see splitItem). */
export function buildWords(items: readonly TextItemLike[], ctx: WordContext): RawWord[] {
  const words: RawWord[] = [];
  for (const item of items) {
    if (item.str && item.str.trim() !== '') splitItem(item, ctx, words);
  }
  return words;
}

/**
 * One item is a run of glyphs with one transform: origin (e,f) on the baseline, advance along (a,b),
 * "up" along (c,d). Each word gets the slice [s0,s1] of the run's advance in proportion to the
 * estimated glyph widths, and the em box [descent, ascent] across it; the four corners go through the
 * viewport (page rotation, MediaBox origin) and the word's box is their bounding box, so rotated runs
 * get the box they occupy on the displayed page. pdf.js gives RTL runs in logical order while glyphs
 * sit left to right, so RTL slices are measured from the run's far end. Vertical-font runs advance
 * downwards along -up with `height` as their length.
 */
function splitItem(item: TextItemLike, ctx: WordContext, out: RawWord[]): void {
  const [a, b, c, d, e, f] = item.transform;
  const style = ctx.styles[item.fontName] ?? {};
  const vertical = item.dir === 'ttb' || !!style.vertical;
  const upLen = Math.hypot(c, d) || Math.hypot(a, b) || 1;
  const advLen = Math.hypot(a, b) || upLen;
  const fontSize = upLen;
  const up: [number, number] = [c / upLen, d / upLen];
  const adv: [number, number] = vertical ? [-up[0], -up[1]] : [a / advLen, b / advLen];
  const across: [number, number] = vertical ? [a / advLen, b / advLen] : up;
  const length = vertical ? item.height : item.width;
  let lo: number, hi: number;
  if (vertical) { lo = -0.5 * fontSize; hi = 0.5 * fontSize; }
  else {
    const asc = style.ascent && style.ascent > 0.3 && style.ascent < 1.5 ? style.ascent : 0.8;
    const desc = style.descent !== undefined && style.descent <= 0 && style.descent > -0.7 ? style.descent : -0.2;
    lo = desc * fontSize; hi = asc * fontSize;
  }
  const font = ctx.font(item.fontName);
  const mono = isMonospaceName(font?.name);
  const chars = Array.from(item.str);
  const widths = chars.map((ch) => charWidth(ch, mono));
  const total = widths.reduce((s, w) => s + w, 0) || 1;
  const rtl = item.dir === 'rtl';
  const direction = wordDirection(ctx.viewport, adv, vertical, rtl);
  const spans = wordSpans(chars, widths);
  spans.forEach((span, idx) => {
    const text = normalizeText(span.text);
    if (text.trim() === '') return;
    let s0 = (span.start / total) * length, s1 = (span.end / total) * length;
    if (rtl) [s0, s1] = [length - s1, length - s0];
    const corner = (s: number, t: number): [number, number] =>
      applyMatrix(ctx.viewport, e + adv[0] * s + across[0] * t, f + adv[1] * s + across[1] * t);
    const pts = [corner(s0, lo), corner(s1, lo), corner(s1, hi), corner(s0, hi)];
    const word: RawWord = {
      text, box: normalizedBox(pts, ctx.pageWidth, ctx.pageHeight), fontSize: round2(fontSize), confidence: 1, direction,
    };
    if (font?.name) word.fontName = font.name;
    if (font?.bold) word.bold = true;
    if (font?.italic) word.italic = true;
    if (idx === spans.length - 1) word.endOfRun = true;
    out.push(word);
  });
}

interface Span { text: string; start: number; end: number }

/** Whitespace-separated words with their start/end in cumulative glyph-width units. */
function wordSpans(chars: string[], widths: number[]): Span[] {
  const spans: Span[] = [];
  let pos = 0, cur: Span | null = null;
  for (let i = 0; i < chars.length; i++) {
    const w = widths[i];
    if (/\s/.test(chars[i])) { if (cur) spans.push(cur); cur = null; }
    else if (cur) { cur.text += chars[i]; cur.end = pos + w; }
    else cur = { text: chars[i], start: pos, end: pos + w };
    pos += w;
  }
  if (cur) spans.push(cur);
  return spans;
}

/** Reading direction on the displayed page: runs turned by rotation read top-to-bottom or bottom-to-top. */
function wordDirection(viewport: Matrix, adv: [number, number], vertical: boolean, rtl: boolean): RawWord['direction'] {
  if (vertical) return 'ttb';
  const dx = viewport[0] * adv[0] + viewport[2] * adv[1];
  const dy = viewport[1] * adv[0] + viewport[3] * adv[1];
  if (Math.abs(dy) > Math.abs(dx)) return dy > 0 ? 'ttb' : 'btt';
  return rtl ? 'rtl' : 'ltr';
}

export type { Box };
