import type { RawWord } from '@quire/core';
import { fontInfoFrom } from './fonts.js';
import { normalizeText } from './normalize.js';
import { type Matrix, IDENTITY, multiply, normalizedBox } from './matrix.js';
import type { OperatorListLike } from './vector.js';

/** The parts of a pdf.js glyph (an entry of a showText operator's argument) we use. */
export interface GlyphLike { unicode: string; width: number; isSpace?: boolean; vmetric?: ArrayLike<number> | null }
/** The parts of a pdf.js font object (page.commonObjs) we use. */
export interface FontLike {
  name?: string; bold?: boolean; black?: boolean; italic?: boolean; vertical?: boolean;
  fontMatrix?: ArrayLike<number>; ascent?: number; descent?: number; defaultVMetrics?: ArrayLike<number>;
  isType3Font?: boolean; bbox?: ArrayLike<number>;
}
export interface FontInfo { name?: string; bold: boolean; italic: boolean }

export interface TextContext {
  /** User space → displayed page points (the scale-1 viewport transform). */
  viewport: Matrix;
  pageWidth: number;
  pageHeight: number;
  /** The font pdf.js loaded under this name (its commonObjs entry), if any. */
  font: (loadedName: string) => FontLike | undefined;
}

/*
 * Words straight from the operator list's text operators, one glyph at a time. pdf.js's getTextContent
 * would parse the page's content stream a second time (as much work as the operator list itself) and
 * hands back runs with one width for the whole run and Unicode already reordered for right-to-left
 * scripts character by character; here every glyph has its own position and advance, so word boxes are
 * exact and a glyph that maps to several code points (an Arabic lam-alef ligature, "ﬃ") stays one unit
 * when a right-to-left word is put in logical order.
 *
 * Positions follow pdf.js's canvas renderer (CanvasGraphics.showText): the text matrix is fixed per
 * BT/Tm and the pen moves by (x, y) in text space; a glyph's advance is width · fontSize · fontMatrix[0]
 * plus character and word spacing, scaled horizontally by Tz; TJ numbers move the pen by n/1000 em.
 * Words split where pdf.js's text layer puts a space: a whitespace glyph, a gap over 0.102 em, a step
 * back over 0.2 em, a baseline shift over 0.25 em, or a change of font or direction; also at a change of
 * size, unless the baseline stays and the sizes are within 25 % (small capitals).
 */

const SPACE_GAP_EM = 0.102, BACKSTEP_EM = -0.2, BASELINE_SHIFT_EM = 0.25, NEW_RUN_GAP_EM = 0.6;

interface ResolvedFont {
  info?: FontInfo;
  /** Identity for "same run" (pdf.js compares font names, not resource names). */
  key: string;
  vertical: boolean;
  fm0: number; fm4: number; type3: boolean;
  /** Em height relative to the font size (Type 3 fonts with a size-1 Tf carry their size in the font matrix). */
  emScale: number;
  ascent: number; descent: number;
  defaultVMetrics?: ArrayLike<number>;
}

interface TextState {
  font?: ResolvedFont; fontName: string; size: number; fontDir: 1 | -1;
  charSpacing: number; wordSpacing: number; hscale: number; leading: number; rise: number;
  tm: Matrix; x: number; y: number; lineX: number; lineY: number;
}
interface GState { ctm: Matrix; t: TextState }

/** A glyph placed on the displayed page (points, top-left origin after the viewport). */
export interface Placed {
  text: string;
  font: ResolvedFont;
  /** Origin on the baseline (vertical fonts: the top centre). */
  ox: number; oy: number;
  /** Unit vector of the advance, and unit vector "up" (vertical fonts: across the column). */
  ux: number; uy: number; vx: number; vy: number;
  /** Font size in points, and the glyph's advance in points (without character spacing). */
  em: number; len: number;
  mark: boolean;
}

const MARK_RE = /^\p{M}+$/u;
const FORMAT_RE = /^\p{Cf}+$/u;
const PLAIN = 0, SPACE = 1, MARK = 2, FORMAT = 3;

/** Whitespace (ends a word), combining mark, invisible format character (skipped, as pdf.js does), or plain. */
function glyphKind(u: string): number {
  if (u.length === 1 && u.charCodeAt(0) > 0x20 && u.charCodeAt(0) < 0xa0) return PLAIN; // printable ASCII: most glyphs
  if (u.length > 0 && u.trim() === '') return SPACE;
  if (MARK_RE.test(u)) return MARK;
  return FORMAT_RE.test(u) ? FORMAT : PLAIN;
}

/** Every word drawn by the operator list's text operators, in drawing order. */
export function extractWords(ops: OperatorListLike, OPS: Record<string, number>, ctx: TextContext): RawWord[] {
  const words = new WordBuilder(ctx);
  const fonts = new Map<string, ResolvedFont | undefined>();
  const resolve = (name: string) => {
    if (!fonts.has(name)) fonts.set(name, resolveFont(ctx.font(name)));
    return fonts.get(name);
  };
  const stack: GState[] = [];
  let ctm: Matrix = IDENTITY;
  let t: TextState = {
    fontName: '', size: 0, fontDir: 1, charSpacing: 0, wordSpacing: 0, hscale: 1, leading: 0, rise: 0,
    tm: IDENTITY, x: 0, y: 0, lineX: 0, lineY: 0,
  };
  const moveText = (x: number, y: number) => { t.x = t.lineX += x; t.y = t.lineY += y; };
  const { fnArray, argsArray } = ops;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    switch (fn) {
      case OPS.save: case OPS.beginGroup: stack.push({ ctm, t: { ...t } }); break;
      case OPS.restore: case OPS.endGroup: case OPS.paintFormXObjectEnd: {
        const g = stack.pop();
        if (g) { ctm = g.ctm; t = g.t; }
        break;
      }
      case OPS.paintFormXObjectBegin:
        stack.push({ ctm, t: { ...t } });
        if (isMatrix(args?.[0])) ctm = multiply(ctm, args![0] as Matrix);
        break;
      case OPS.transform: if (args && isMatrix(args)) ctm = multiply(ctm, args as unknown as Matrix); break;
      case OPS.beginText: t.tm = IDENTITY; t.x = t.lineX = 0; t.y = t.lineY = 0; break;
      case OPS.setFont: {
        const size = Number(args?.[1]) || 0;
        t.fontName = String(args?.[0]);
        t.font = resolve(t.fontName);
        t.fontDir = size < 0 ? -1 : 1;
        t.size = Math.abs(size);
        break;
      }
      case OPS.setTextMatrix: {
        const m = args?.[0];
        if (isMatrix(m)) { t.tm = Array.from(m as ArrayLike<number>) as Matrix; t.x = t.lineX = 0; t.y = t.lineY = 0; }
        break;
      }
      case OPS.moveText: moveText(num(args?.[0]), num(args?.[1])); break;
      case OPS.setLeadingMoveText: t.leading = num(args?.[1]); moveText(num(args?.[0]), num(args?.[1])); break;
      case OPS.nextLine: moveText(0, t.leading); break;
      case OPS.setLeading: t.leading = -num(args?.[0]); break;
      case OPS.setCharSpacing: t.charSpacing = num(args?.[0]); break;
      case OPS.setWordSpacing: t.wordSpacing = num(args?.[0]); break;
      case OPS.setHScale: t.hscale = num(args?.[0]) / 100; break;
      case OPS.setTextRise: t.rise = num(args?.[0]); break;
      case OPS.showText: case OPS.showSpacedText: {
        const glyphs = args?.[0];
        if (Array.isArray(glyphs)) showText(glyphs as (GlyphLike | number)[], t, multiply(ctx.viewport, multiply(ctm, t.tm)), words);
        break;
      }
      default:
    }
  }
  return words.finish();
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

function resolveFont(f: FontLike | undefined): ResolvedFont | undefined {
  if (!f) return undefined;
  const info = fontInfoFrom(f);
  const fm = f.fontMatrix && f.fontMatrix.length >= 6 ? f.fontMatrix : [0.001, 0, 0, 0.001, 0, 0];
  const type3 = !!f.isType3Font;
  let emScale = 1;
  if (type3 && f.bbox && f.bbox.length === 4 && fm[3] > 0) {
    const glyphHeight = (f.bbox[3] - f.bbox[1]) * fm[3];
    if (glyphHeight > 0 && glyphHeight < 10) emScale = glyphHeight;
  }
  const asc = typeof f.ascent === 'number' && f.ascent > 0.3 && f.ascent < 1.5 ? f.ascent : 0.8;
  const desc = typeof f.descent === 'number' && f.descent <= 0 && f.descent > -0.7 ? f.descent : -0.2;
  return {
    info, key: `${info?.name ?? ''}|${info?.bold}|${info?.italic}|${!!f.vertical}`, vertical: !!f.vertical,
    fm0: fm[0] || 0.001, fm4: type3 ? fm[4] : 0, type3, emScale, ascent: asc, descent: desc,
    defaultVMetrics: f.defaultVMetrics,
  };
}

/** Places one showText operator's glyphs (m: text space → display points) and moves the pen. */
function showText(glyphs: readonly (GlyphLike | number)[], t: TextState, m: Matrix, out: WordBuilder): void {
  const f = t.font;
  if (!f || t.size === 0) return;
  const size = t.size, hs = t.hscale * t.fontDir;
  // display vectors of text space's unit x and y
  const ax = m[0], ay = m[1], bx = m[2], by = m[3];
  const aLen = Math.hypot(ax, ay) || 1, bLen = Math.hypot(bx, by) || 1;
  const em = size * f.emScale * bLen;
  let ux: number, uy: number, vx: number, vy: number;
  if (f.vertical) { ux = (-bx * t.fontDir) / bLen; uy = (-by * t.fontDir) / bLen; vx = ax / aLen; vy = ay / aLen; }
  else {
    const s = Math.sign(hs) || 1;
    ux = (ax * s) / aLen; uy = (ay * s) / aLen; vx = (bx * t.fontDir) / bLen; vy = (by * t.fontDir) / bLen;
  }
  const spacingDir = f.vertical ? 1 : -1;
  let x = 0;
  for (const g of glyphs) {
    if (typeof g === 'number') { x += (spacingDir * g * size) / 1000; continue; }
    if (!g || typeof g !== 'object') continue;
    const spacing = (g.isSpace ? t.wordSpacing : 0) + t.charSpacing;
    let adv: number;
    if (f.vertical) {
      const vm = g.vmetric ?? f.defaultVMetrics;
      adv = (vm ? -vm[0] : g.width) * size * f.fm0;
    } else adv = f.type3 ? (g.width * f.fm0 + f.fm4) * size : g.width * size * f.fm0;
    let unicode = typeof g.unicode === 'string' ? g.unicode : '';
    const kind = glyphKind(unicode);
    // whitespace inside a several-character mapping (" ." for a period) has no place of its own: the
    // glyphs' positions decide the spaces
    if (kind !== SPACE && unicode.length > 1 && unicode.trim() !== unicode) unicode = unicode.trim();
    if (kind === SPACE) out.space();
    else if (kind !== FORMAT) {
      // pen position in text space, then display points
      const px = f.vertical ? t.x : t.x + x * hs;
      const py = f.vertical ? t.y - x + t.rise : t.y + t.rise;
      out.glyph({
        text: unicode, font: f,
        ox: m[0] * px + m[2] * py + m[4], oy: m[1] * px + m[3] * py + m[5],
        ux, uy, vx, vy, em,
        len: f.vertical ? adv * bLen : adv * Math.abs(hs) * aLen,
        mark: kind === MARK,
      });
    }
    x += f.vertical ? adv - spacing * t.fontDir : adv + (f.type3 ? spacing : spacing * t.fontDir);
  }
  if (f.vertical) t.y -= x;
  else t.x += x * hs;
}

/**
 * Groups placed glyphs into words in drawing order. A word ends at a whitespace glyph or where the
 * next glyph does not continue it (see the thresholds above); `endOfRun` marks a word after which
 * the text jumps (new line, column, font) rather than continuing after a space.
 */
class WordBuilder {
  private readonly words: RawWord[] = [];
  private cur: Placed[] = [];
  /** Last glyph of the current word that is not a combining mark (the one gaps are measured from). */
  private base: Placed | undefined;
  private spaced = false;

  constructor(private readonly ctx: TextContext) {}

  space(): void { if (this.cur.length) this.spaced = true; }

  glyph(g: Placed): void {
    if (!this.onPage(g)) return;
    // before any base glyph, a word holds only marks (drawn ahead of their base): measure from the last
    const p = this.base ?? this.cur[this.cur.length - 1];
    if (p) {
      const cont = this.continues(p, g);
      if (cont === 'same' && !this.spaced) { this.cur.push(g); if (!g.mark) this.base = g; return; }
      this.flush(cont === 'jump');
    }
    this.cur.push(g);
    if (!g.mark) this.base = g;
  }

  finish(): RawWord[] {
    this.flush(true);
    return this.words;
  }

  /** pdf.js drops glyphs whose origin lies off the page; so do we (boxes would be clamped to an edge). */
  private onPage(g: Placed): boolean {
    const W = this.ctx.pageWidth, H = this.ctx.pageHeight, tol = 0.5;
    const inside = (x: number, y: number) => x >= -tol && x <= W + tol && y >= -tol && y <= H + tol;
    return inside(g.ox, g.oy) || inside(g.ox + g.ux * g.len, g.oy + g.uy * g.len);
  }

  private continues(p: Placed, g: Placed): 'same' | 'space' | 'jump' {
    if (g.font.key !== p.font.key || g.ux * p.ux + g.uy * p.uy < 0.999) return 'jump';
    const dx = g.ox - p.ox, dy = g.oy - p.oy;
    const across = dx * p.vx + dy * p.vy;
    // a size change on the same baseline continues a word (small capitals); a smaller size or a shifted
    // baseline starts one (superscripts, footnote marks)
    const ratio = g.em / p.em;
    if (Math.abs(ratio - 1) > 0.01 && (ratio < 0.75 || ratio > 1 / 0.75 || Math.abs(across) > 0.1 * Math.min(g.em, p.em))) return 'jump';
    // a diacritic sits over its base, wherever its origin is: within an em is close enough
    if (g.mark || p.mark) return Math.abs(across) <= p.em && Math.abs(dx * p.ux + dy * p.uy) <= 1.5 * p.em ? 'same' : 'jump';
    if (Math.abs(across) > BASELINE_SHIFT_EM * p.em) return 'jump';
    const gap = dx * p.ux + dy * p.uy - p.len;
    if (gap < BACKSTEP_EM * p.em || gap > NEW_RUN_GAP_EM * p.em) return 'jump';
    return gap > SPACE_GAP_EM * p.em ? 'space' : 'same';
  }

  private flush(endOfRun: boolean): void {
    const glyphs = this.cur;
    this.cur = [];
    this.base = undefined;
    this.spaced = false;
    if (glyphs.length === 0) return;
    const visual = glyphs.length === 1 ? glyphs[0].text : glyphs.map((g) => g.text).join('');
    const rtl = MAY_BE_RTL.test(visual) && isRtlWord(glyphs);
    const text = normalizeText(rtl ? logicalText(glyphs) : visual);
    if (text.trim() === '') return;
    const first = glyphs[0];
    const f = first.font;
    let s0 = Infinity, s1 = -Infinity;
    for (const g of glyphs) {
      const s = (g.ox - first.ox) * first.ux + (g.oy - first.oy) * first.uy;
      s0 = Math.min(s0, s, s + g.len);
      s1 = Math.max(s1, s, s + g.len);
    }
    const lo = f.vertical ? -0.5 * first.em : f.descent * first.em;
    const hi = f.vertical ? 0.5 * first.em : f.ascent * first.em;
    const corner = (s: number, a: number): [number, number] =>
      [first.ox + first.ux * s + first.vx * a, first.oy + first.uy * s + first.vy * a];
    const word: RawWord = {
      text,
      box: normalizedBox([corner(s0, lo), corner(s1, lo), corner(s1, hi), corner(s0, hi)], this.ctx.pageWidth, this.ctx.pageHeight),
      fontSize: round2(first.em), confidence: 1, direction: direction(first, rtl),
    };
    if (f.info?.name) word.fontName = f.info.name;
    if (f.info?.bold) word.bold = true;
    if (f.info?.italic) word.italic = true;
    if (endOfRun) word.endOfRun = true;
    this.words.push(word);
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Reading direction on the displayed page: runs turned by rotation read top-to-bottom or bottom-to-top. */
function direction(g: Placed, rtl: boolean): RawWord['direction'] {
  if (g.font.vertical) return 'ttb';
  if (Math.abs(g.uy) > Math.abs(g.ux)) return g.uy > 0 ? 'ttb' : 'btt';
  return rtl ? 'rtl' : 'ltr';
}

const RTL_CHAR = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC]|[\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;
const STRONG_LTR_CHAR = /\p{L}/u;
/** Cheap pre-check: any code unit of a right-to-left block (or a surrogate of the astral ones). */
const MAY_BE_RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC\uD802\uD803\uD83A\uD83B]/;

/** A word reads right to left when it has right-to-left letters and no more left-to-right ones. */
function isRtlWord(glyphs: readonly Placed[]): boolean {
  let rtl = 0, ltr = 0;
  for (const g of glyphs) {
    for (const ch of g.text) {
      if (RTL_CHAR.test(ch)) rtl++;
      else if (STRONG_LTR_CHAR.test(ch)) ltr++;
    }
  }
  return rtl > 0 && rtl >= ltr;
}

type UnitClass = 'rtl' | 'ltr' | 'digit' | 'separator' | 'other';
const classOf = (s: string): UnitClass =>
  RTL_CHAR.test(s) ? 'rtl' : STRONG_LTR_CHAR.test(s) ? 'ltr' : /^\p{Nd}/u.test(s) ? 'digit' : /^[.,:/\u066B\u066C-]$/.test(s) ? 'separator' : 'other';

/**
 * Logical order of a right-to-left word from its glyphs' positions: glyphs from right to left, each
 * glyph's own Unicode kept as is (a ligature mapped to lam + alef stays lam + alef), each combining mark
 * after the glyph it sits on, and runs of left-to-right letters and digits (with separators between
 * digits: 3.5, 12:30) kept left to right, as the Unicode bidi algorithm reads them.
 */
export function logicalText(glyphs: readonly Placed[]): string {
  const first = glyphs[0];
  const at = (g: Placed) => (g.ox - first.ox) * first.ux + (g.oy - first.oy) * first.uy;
  const bases: { g: Placed; s: number; idx: number; marks: string[] }[] = [];
  glyphs.forEach((g, idx) => { if (!g.mark) bases.push({ g, s: at(g), idx, marks: [] }); });
  if (bases.length === 0) return glyphs.map((g) => g.text).join('');
  glyphs.forEach((g, idx) => {
    if (!g.mark) return;
    const c = at(g) + g.len / 2;
    let best = bases[0], bestD = Infinity;
    for (const b of bases) {
      const lo = Math.min(b.s, b.s + b.g.len), hi = Math.max(b.s, b.s + b.g.len);
      const d = c < lo ? lo - c : c > hi ? c - hi : 0;
      // ties go to the glyph drawn just before the mark
      if (d < bestD || (d === bestD && b.idx < idx && b.idx > best.idx)) { best = b; bestD = d; }
    }
    best.marks.push(g.text);
  });
  const ordered = [...bases].sort((p, q) => q.s - p.s || p.idx - q.idx).map((b) => ({ text: b.g.text + b.marks.join(''), cls: classOf(b.g.text) }));
  // runs of left-to-right units read left to right: reverse them back
  for (let i = 0; i < ordered.length;) {
    if (ordered[i].cls !== 'ltr' && ordered[i].cls !== 'digit') { i++; continue; }
    let j = i + 1;
    while (j < ordered.length) {
      const c = ordered[j].cls;
      if (c === 'ltr' || c === 'digit') j++;
      else if (c === 'separator' && ordered[j - 1].cls === 'digit' && ordered[j + 1]?.cls === 'digit') j++;
      else break;
    }
    const run = ordered.slice(i, j).reverse();
    ordered.splice(i, j - i, ...run);
    i = j;
  }
  return ordered.map((u) => u.text).join('');
}

function isMatrix(m: unknown): boolean {
  if (!(Array.isArray(m) || ArrayBuffer.isView(m))) return false;
  const a = m as ArrayLike<number>;
  if (a.length !== 6) return false;
  for (let i = 0; i < 6; i++) if (!Number.isFinite(a[i])) return false;
  return true;
}
