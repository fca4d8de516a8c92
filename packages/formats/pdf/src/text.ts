import type { RawWord } from '@quire/core';
import type { CodeText } from './embedded-cmap.js';
import { fontInfoFrom } from './fonts.js';
import { normalizeText } from './normalize.js';
import { type Matrix, IDENTITY, multiply } from './matrix.js';
import type { OperatorListLike } from './painting.js';

/** The parts of a pdf.js glyph (an entry of a showText operator's argument) we use. */
export interface GlyphLike {
  unicode: string; width: number; isSpace?: boolean; vmetric?: ArrayLike<number> | null;
  /** The character code the content stream drew (pdf.js keeps it on every glyph). */
  originalCharCode?: number;
}
/** The parts of a pdf.js font object (page.commonObjs) we use. */
export interface FontLike {
  name?: string; bold?: boolean; black?: boolean; italic?: boolean; vertical?: boolean;
  fontMatrix?: ArrayLike<number>; ascent?: number; descent?: number; defaultVMetrics?: ArrayLike<number>;
  isType3Font?: boolean; bbox?: ArrayLike<number>;
  /**
   * The font's ToUnicode map as pdf.js hands it over with `fontExtraProperties` (its ToUnicodeMap, cloned:
   * `_map[code]` is the mapped text, absent for codes with no entry).
   */
  toUnicode?: { _map?: unknown };
  /** A Type0 (composite) font: codes of one or two bytes name CIDs. */
  composite?: boolean;
}

/**
 * Whether pdf.js had to guess the font's text: a composite font with no ToUnicode map and no CMap to
 * Unicode hands over an identity map (no `_map`), i.e. every code is taken for the character with that
 * number, which for the usual Identity-H font is a glyph id, not a character.
 */
export function hasGuessedMapping(f: FontLike): boolean {
  return !!f.composite && !!f.toUnicode && !('_map' in f.toUnicode);
}

/** Names (as words carry them: RawWord.fontName) of the fonts set by the operator list whose text pdf.js guessed. */
export function fontsWithGuessedMapping(ops: OperatorListLike, OPS: Record<string, number>, font: TextContext['font']): Set<string> {
  const names = new Set<string>();
  const seen = new Set<string>();
  for (let i = 0; i < ops.fnArray.length; i++) {
    if (ops.fnArray[i] !== OPS.setFont) continue;
    const loaded = String((ops.argsArray[i] as unknown[] | null)?.[0]);
    if (seen.has(loaded)) continue;
    seen.add(loaded);
    const f = font(loaded);
    const name = f && hasGuessedMapping(f) ? fontInfoFrom(f)?.name : undefined;
    if (name) names.add(name);
  }
  return names;
}
export interface FontInfo { name?: string; bold: boolean; italic: boolean }

export interface TextContext {
  /** User space → displayed page points (the scale-1 viewport transform). */
  viewport: Matrix;
  pageWidth: number;
  pageHeight: number;
  /** The font pdf.js loaded under this name (its commonObjs entry), if any. */
  font: (loadedName: string) => FontLike | undefined;
  /**
   * Marked-content replacement text (/ActualText): index in the op list of a span's begin op → the text
   * that replaces the glyphs drawn inside the span (see actualtext.ts, which reads it).
   */
  actualText?: ReadonlyMap<number, string>;
  /**
   * Words drawn inside marked content with one of these tags (a form field's /Tx, an overlay's own tag)
   * come back `flagged`; a word never spans the edge of such a span. Words then also carry `angle`.
   */
  flagTags?: ReadonlySet<string>;
  /**
   * Text per code for fonts (by name, as words carry it) whose mapping pdf.js guessed, recovered from
   * their embedded font program (embedded-cmap.ts); used instead of pdf.js's guess where it has an entry.
   */
  recoveredText?: (fontName: string) => CodeText | undefined;
}

/** A word with what callers that ask for it (TextContext.flagTags) need besides RawWord. */
export interface FlaggedWord extends RawWord {
  /** Drawn inside marked content with one of TextContext.flagTags. */
  flagged?: boolean;
  /** Clockwise angle of the text's baseline on the page, to the nearest quarter turn (0 reads left to right, 90 top to bottom). */
  angle?: number;
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
  /**
   * Em height relative to a Tf size of 1 or less: Type 3 fonts set that way carry their size in the font
   * matrix and glyph box (pdf.js's text layer scales the same way); 1 otherwise.
   */
  smallSizeEmScale: number;
  ascent: number; descent: number;
  defaultVMetrics?: ArrayLike<number>;
  /**
   * Codes the font's ToUnicode maps explicitly to nothing: glyphs with no text of their own (a shaping
   * engine's parts of a ligature or conjunct, as Chrome/Skia write Arabic and Devanagari). pdf.js hands
   * such a glyph its code as text (a random letter, the glyph id read as a character).
   */
  silent?: ReadonlySet<number>;
  /** Text per code recovered from the embedded font program, for a font whose mapping pdf.js guessed (TextContext.recoveredText). */
  recovered?: CodeText;
}

interface TextState {
  font?: ResolvedFont; fontName: string; size: number; fontDir: 1 | -1;
  charSpacing: number; wordSpacing: number; hscale: number; leading: number; rise: number;
  tm: Matrix; x: number; y: number; lineX: number; lineY: number;
}
interface GState { ctm: Matrix; t: TextState }

/** A glyph of a word, at position `s` along the word's direction (points from its first glyph's origin). */
export interface WordGlyph { text: string; s: number; len: number; mark: boolean }

/**
 * Non-spacing marks sit on the glyph before them (gaps are measured from that base); spacing marks
 * (Devanagari vowel signs) take room of their own like a letter.
 */
const MARK_RE = /^[\p{Mn}\p{Me}]+$/u;
const FORMAT_RE = /^\p{Cf}+$/u;
/** Control characters other than whitespace (a symbol font's code copied into a replacement as is). */
const CONTROL_RE = /(?![\t\n\v\f\r])\p{Cc}/gu;
const PLAIN = 0, SPACE = 1, MARK = 2, FORMAT = 3;
/** Whitespace inside a glyph's text (its ends already trimmed). */
const INNER_SPACE = /\s+/u;

/** Whitespace (ends a word), combining mark, invisible format character (skipped, as pdf.js does), or plain. */
function glyphKind(u: string): number {
  if (u.length === 1 && u.charCodeAt(0) > 0x20 && u.charCodeAt(0) < 0xa0) return PLAIN; // printable ASCII: most glyphs
  if (u.length > 0 && u.trim() === '') return SPACE;
  if (MARK_RE.test(u)) return MARK;
  return FORMAT_RE.test(u) ? FORMAT : PLAIN;
}

/**
 * Every word drawn by the operator list's text operators, in drawing order. The glyphs drawn inside a
 * marked-content span with replacement text (ctx.actualText) are collected instead of read, and the
 * replacement is placed over them when the span ends (see Replacement); spans inside such a span are part
 * of what it replaces.
 */
export function extractWords(ops: OperatorListLike, OPS: Record<string, number>, ctx: TextContext): FlaggedWord[] {
  const words = new WordBuilder(ctx);
  // open marked-content tags, kept when words are flagged by tag
  const tags: string[] = [];
  const flagTags = ctx.flagTags;
  const inFlagged = () => tags.some((tag) => flagTags!.has(tag));
  const actualText = ctx.actualText?.size ? ctx.actualText : undefined;
  // open marked-content spans (only tracked when some span has replacement text); the outermost
  // replacement being collected
  const spans: (Replacement | null)[] = [];
  let replacing: Replacement | undefined;
  let sink: GlyphSink = words;
  const fonts = new Map<string, ResolvedFont | undefined>();
  const resolve = (name: string) => {
    if (!fonts.has(name)) {
      const f = ctx.font(name), resolved = resolveFont(f);
      if (resolved && ctx.recoveredText && resolved.info?.name && hasGuessedMapping(f!)) resolved.recovered = ctx.recoveredText(resolved.info.name);
      fonts.set(name, resolved);
    }
    return fonts.get(name);
  };
  const stack: GState[] = [];
  let ctm: Matrix = IDENTITY;
  let t: TextState = {
    font: undefined, fontName: '', size: 0, fontDir: 1, charSpacing: 0, wordSpacing: 0, hscale: 1, leading: 0, rise: 0,
    tm: IDENTITY, x: 0, y: 0, lineX: 0, lineY: 0,
  };
  const moveText = (x: number, y: number) => { t.x = t.lineX += x; t.y = t.lineY += y; };
  const { fnArray, argsArray } = ops;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    switch (fn) {
      case OPS.save: case OPS.beginGroup: stack.push({ ctm, t: copyState(t) }); break;
      case OPS.restore: case OPS.endGroup: case OPS.paintFormXObjectEnd: {
        const g = stack.pop();
        if (g) { ctm = g.ctm; t = g.t; }
        break;
      }
      case OPS.paintFormXObjectBegin:
        stack.push({ ctm, t: copyState(t) });
        if (isMatrix(args?.[0])) ctm = multiply(ctm, toMatrix(args![0] as ArrayLike<number>));
        break;
      case OPS.transform: if (args && isMatrix(args)) ctm = multiply(ctm, toMatrix(args as unknown as ArrayLike<number>)); break;
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
        if (isMatrix(m)) { t.tm = toMatrix(m as ArrayLike<number>); t.x = t.lineX = 0; t.y = t.lineY = 0; }
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
        if (Array.isArray(glyphs)) showText(glyphs as (GlyphLike | number)[], t, multiply(ctx.viewport, multiply(ctm, t.tm)), sink);
        break;
      }
      case OPS.beginMarkedContent: case OPS.beginMarkedContentProps: {
        if (flagTags) { tags.push(markedTag(args)); words.flag(inFlagged()); }
        if (!actualText) break;
        const text = replacing ? undefined : actualText.get(i);
        if (text === undefined) { spans.push(null); break; }
        replacing = new Replacement(text);
        sink = replacing;
        spans.push(replacing);
        break;
      }
      case OPS.endMarkedContent: {
        if (flagTags) { tags.pop(); words.flag(inFlagged()); }
        if (!actualText || spans.length === 0) break;
        const r = spans.pop();
        if (r && r === replacing) {
          r.placeInto(words);
          replacing = undefined;
          sink = words;
        }
        break;
      }
      default:
    }
  }
  replacing?.placeInto(words); // a span left open at the end of the page
  return words.finish();
}

/** A marked-content begin's tag: pdf.js passes BDC's as a string and BMC's as its Name object ({ name }). */
function markedTag(args: unknown[] | null): string {
  const a = args?.[0];
  if (typeof a === 'string') return a;
  return a && typeof a === 'object' && typeof (a as { name?: unknown }).name === 'string' ? (a as { name: string }).name : '';
}

const toMatrix = (m: ArrayLike<number>): Matrix => [m[0], m[1], m[2], m[3], m[4], m[5]];
const copyState = (t: TextState): TextState => ({
  font: t.font, fontName: t.fontName, size: t.size, fontDir: t.fontDir, charSpacing: t.charSpacing, wordSpacing: t.wordSpacing,
  hscale: t.hscale, leading: t.leading, rise: t.rise, tm: t.tm, x: t.x, y: t.y, lineX: t.lineX, lineY: t.lineY,
});
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

function resolveFont(f: FontLike | undefined): ResolvedFont | undefined {
  if (!f) return undefined;
  const info = fontInfoFrom(f);
  const fm = f.fontMatrix && f.fontMatrix.length >= 6 ? f.fontMatrix : [0.001, 0, 0, 0.001, 0, 0];
  const type3 = !!f.isType3Font;
  let smallSizeEmScale = 1;
  const defaultMatrix = fm[0] === 0.001 && fm[1] === 0 && fm[2] === 0 && fm[3] === 0.001 && fm[4] === 0 && fm[5] === 0;
  if (type3 && !defaultMatrix && f.bbox && f.bbox.length === 4 && fm[3] > 0) {
    const glyphHeight = (f.bbox[3] - f.bbox[1]) * fm[3];
    if (glyphHeight > 0) smallSizeEmScale = glyphHeight;
  }
  const asc = typeof f.ascent === 'number' && f.ascent > 0.3 && f.ascent < 1.5 ? f.ascent : 0.8;
  const desc = typeof f.descent === 'number' && f.descent <= 0 && f.descent > -0.7 ? f.descent : -0.2;
  return {
    info, key: `${info?.name ?? ''}|${info?.bold}|${info?.italic}|${!!f.vertical}`, vertical: !!f.vertical,
    fm0: fm[0] || 0.001, fm4: type3 ? fm[4] : 0, type3, smallSizeEmScale, ascent: asc, descent: desc,
    defaultVMetrics: f.defaultVMetrics, silent: silentCodes(f.toUnicode),
  };
}

/** Silent codes by font map: a font is resolved again on every page, its map is read once. */
const silentByMap = new WeakMap<object, ReadonlySet<number> | undefined>();

/** Codes a ToUnicode map sends to the empty string (see ResolvedFont.silent); undefined when there are none. */
function silentCodes(toUnicode: FontLike['toUnicode']): ReadonlySet<number> | undefined {
  const map = toUnicode?._map;
  if (!map || typeof map !== 'object') return undefined;
  if (silentByMap.has(map)) return silentByMap.get(map);
  const out = readSilentCodes(map);
  silentByMap.set(map, out);
  return out;
}

function readSilentCodes(map: object): ReadonlySet<number> | undefined {
  let out: Set<number> | undefined;
  // a sparse array or a plain object of code → text: for…in visits only the codes that have entries
  for (const code in map as Record<string, unknown>) {
    if ((map as Record<string, unknown>)[code] === '') (out ??= new Set()).add(Number(code));
  }
  return out;
}

/** Where showText puts glyphs: the page's words, or a span's replacement text. */
interface GlyphSink {
  /**
   * A new run of glyphs; `track` is the run's letter spacing in display points (character spacing Tc plus
   * a uniform TJ tracking), which word building discounts before it reads a gap as a space.
   */
  run(font: ResolvedFont, ux: number, uy: number, vx: number, vy: number, em: number, track?: number): void;
  /** A whitespace glyph (it ends a word) at display point (ox, oy), `len` points long. */
  space(ox: number, oy: number, len: number): void;
  glyph(text: string, ox: number, oy: number, len: number, mark: boolean): void;
  /** An invisible format character (no text of its own). */
  blank(ox: number, oy: number, len: number): void;
}

/** Places one showText operator's glyphs (m: text space → display points) and moves the pen. */
function showText(glyphs: readonly (GlyphLike | number)[], t: TextState, m: Matrix, out: GlyphSink): void {
  const f = t.font;
  if (!f || t.size === 0) return;
  const size = t.size, hs = t.hscale * t.fontDir, vertical = f.vertical;
  // display vectors of text space's unit x and y
  const ax = m[0], ay = m[1], bx = m[2], by = m[3];
  const aLen = Math.hypot(ax, ay) || 1, bLen = Math.hypot(bx, by) || 1;
  const em = size * (size <= 1 ? f.smallSizeEmScale : 1) * bLen;
  const spacingDir = vertical ? 1 : -1;
  const lenScale = vertical ? bLen : Math.abs(hs) * aLen;
  const track = (t.charSpacing * (vertical || f.type3 ? 1 : t.fontDir) + (spacingDir * uniformTracking(glyphs) * size) / 1000) * lenScale;
  if (vertical) out.run(f, (-bx * t.fontDir) / bLen, (-by * t.fontDir) / bLen, ax / aLen, ay / aLen, em, track);
  else {
    const s = Math.sign(hs) || 1;
    out.run(f, (ax * s) / aLen, (ay * s) / aLen, (bx * t.fontDir) / bLen, (by * t.fontDir) / bLen, em, track);
  }
  const advScale = size * f.fm0;
  let x = 0;
  for (let i = 0; i < glyphs.length; i++) {
    const g = glyphs[i];
    if (typeof g === 'number') { x += (spacingDir * g * size) / 1000; continue; }
    if (!g || typeof g !== 'object') continue;
    const spacing = (g.isSpace ? t.wordSpacing : 0) + t.charSpacing;
    let adv: number;
    if (vertical) {
      const vm = g.vmetric ?? f.defaultVMetrics;
      adv = (vm ? -vm[0] : g.width) * advScale;
    } else adv = f.type3 ? (g.width * f.fm0 + f.fm4) * size : g.width * advScale;
    let unicode = typeof g.unicode === 'string' ? g.unicode : '';
    if (f.recovered && g.originalCharCode !== undefined) unicode = f.recovered.get(g.originalCharCode) ?? unicode;
    const silent = f.silent !== undefined && g.originalCharCode !== undefined && f.silent.has(g.originalCharCode);
    const kind = glyphKind(unicode);
    // pen position in text space, then display points
    const px = vertical ? t.x : t.x + x * hs;
    const py = vertical ? t.y - x + t.rise : t.y + t.rise;
    const ox = m[0] * px + m[2] * py + m[4], oy = m[1] * px + m[3] * py + m[5];
    // a silent glyph is drawn ink with no text: it holds its place in the word
    if (silent) out.glyph('', ox, oy, adv * lenScale, false);
    else if (kind === SPACE) out.space(ox, oy, adv * lenScale);
    else if (kind === FORMAT) out.blank(ox, oy, adv * lenScale);
    else {
      // whitespace at the ends of a several-character mapping (" ." for a period) has no place of its own:
      // the glyphs' positions decide the spaces
      if (unicode.length > 1 && unicode.trim() !== unicode) unicode = unicode.trim();
      const parts = unicode.length > 2 ? unicode.split(INNER_SPACE) : undefined;
      if (parts && parts.length > 1) {
        // one glyph for text across a space (a shaped "ligature" of two words): the words part there, the
        // advance shared out by characters (right-to-left text's first word on the right)
        const len = adv * lenScale, per = len / (unicode.length - parts.length + 1);
        const dx = vertical ? -m[2] : m[0] * hs, dy = vertical ? -m[3] : m[1] * hs;
        const unit = Math.hypot(dx, dy) || 1;
        const rtl = MAY_BE_RTL.test(unicode) && isRtlWord(unicode);
        let at = 0;
        parts.forEach((part, k) => {
          const along = rtl ? len - at - per * part.length : at;
          const px0 = ox + (dx / unit) * along, py0 = oy + (dy / unit) * along;
          if (k > 0) out.space(px0, py0, 0);
          out.glyph(part, px0, py0, per * part.length, false);
          at += per * part.length;
        });
      } else out.glyph(unicode, ox, oy, adv * lenScale, kind === MARK);
    }
    x += vertical ? adv - spacing * t.fontDir : adv + (f.type3 ? spacing : spacing * t.fontDir);
  }
  if (vertical) t.y -= x;
  else t.x += x * hs;
}

/**
 * The TJ adjustment (thousandths of an em) a showText operator puts between nearly every pair of letters,
 * when it is the same for ≥ 80 % of them: letter-spaced text set by a layout program as per-glyph offsets
 * rather than with Tc (the pairs left over are the wider gaps between words). 0 when most letter pairs carry
 * no offset or different ones (kerning).
 */
function uniformTracking(glyphs: readonly (GlyphLike | number)[]): number {
  // most showText operators (Tj, or TJ with a few kerns) carry too few offsets to be tracked: decide that
  // without allocating, since this runs for every text operator of every page
  let numbers = 0;
  for (let i = 0; i < glyphs.length && numbers < 4; i++) if (typeof glyphs[i] === 'number') numbers++;
  if (numbers < 4) return 0;
  const offsets: number[] = [];
  let pairs = 0, prevLetter = false, pending: number | undefined;
  for (const g of glyphs) {
    if (typeof g === 'number') { pending = (pending ?? 0) + g; continue; }
    const letter = !!g && typeof g === 'object' && typeof g.unicode === 'string' && glyphKind(g.unicode) === PLAIN;
    if (letter && prevLetter) { pairs++; if (pending !== undefined) offsets.push(pending); }
    prevLetter = letter;
    pending = undefined;
  }
  if (pairs < 4 || offsets.length < 0.8 * pairs) return 0;
  const sorted = [...offsets].sort((a, b) => a - b);
  const median = sorted[sorted.length >> 1];
  if (Math.abs(median) < 20) return 0; // ordinary kerning
  // most letter pairs carry the same offset; the others are wider gaps between words (or narrower kerns)
  const alike = offsets.filter((o) => Math.abs(o - median) <= 0.15 * Math.abs(median)).length;
  return alike >= 0.8 * pairs ? median : 0;
}

const SAME = 0, SPACED = 1, JUMP = 2;

/**
 * Groups placed glyphs into words in drawing order. A word ends at a whitespace glyph or where the
 * next glyph does not continue it (see the thresholds above); `endOfRun` marks a word after which
 * the text jumps (new line, column, font) rather than continuing after a space. Glyphs arrive as
 * numbers (thousands a page), so the current run and word are kept in fields, not objects.
 */
class WordBuilder implements GlyphSink {
  private readonly words: FlaggedWord[] = [];
  // glyphs are being drawn inside a flagged span (TextContext.flagTags); the current word's state
  private flagged = false;
  private wFlagged = false;
  // the run being drawn: font, unit advance (u) and up (v) vectors, size in points
  private font!: ResolvedFont;
  private ux = 1; private uy = 0; private vx = 0; private vy = 1; private em = 0; private track = 0;
  // the current word: its first glyph's run and origin, extent along u, text and glyphs
  private n = 0;
  private wFont!: ResolvedFont;
  private wux = 1; private wuy = 0; private wvx = 0; private wvy = 1; private wem = 0; private wox = 0; private woy = 0;
  private s0 = 0; private s1 = 0;
  private text = '';
  private readonly gText: string[] = [];
  private readonly gS: number[] = [];
  private readonly gLen: number[] = [];
  private readonly gMark: boolean[] = [];
  // the glyph gaps are measured from: the word's last base glyph (or last mark, before any base)
  private pox = 0; private poy = 0; private plen = 0; private pem = 0; private pmark = false;
  private pux = 1; private puy = 0; private pvx = 0; private pvy = 1; private pkey = ''; private ptrack = 0;
  private hasBase = false;
  private spaced = false;

  constructor(private readonly ctx: TextContext) {}

  run(font: ResolvedFont, ux: number, uy: number, vx: number, vy: number, em: number, track = 0): void {
    this.font = font; this.ux = ux; this.uy = uy; this.vx = vx; this.vy = vy; this.em = em; this.track = track;
  }

  space(): void { if (this.n) this.spaced = true; }

  blank(): void { /* skipped, as pdf.js's text layer does */ }

  glyph(text: string, ox: number, oy: number, len: number, mark: boolean): void {
    if (!this.onPage(ox, oy, len)) return;
    if (this.n) {
      const cont = this.continues(ox, oy, mark);
      if (cont !== SAME || this.spaced) this.flush(cont === JUMP);
    }
    if (this.n === 0) {
      this.wFont = this.font; this.wux = this.ux; this.wuy = this.uy; this.wvx = this.vx; this.wvy = this.vy;
      this.wem = this.em; this.wox = ox; this.woy = oy; this.s0 = Infinity; this.s1 = -Infinity; this.text = '';
      this.wFlagged = this.flagged;
    }
    const s = (ox - this.wox) * this.wux + (oy - this.woy) * this.wuy;
    if (s < this.s0) this.s0 = s;
    if (s + len < this.s0) this.s0 = s + len;
    if (s > this.s1) this.s1 = s;
    if (s + len > this.s1) this.s1 = s + len;
    this.text += text;
    const k = this.n++;
    this.gText[k] = text; this.gS[k] = s; this.gLen[k] = len; this.gMark[k] = mark;
    if (!mark || !this.hasBase) {
      this.pox = ox; this.poy = oy; this.plen = len; this.pem = this.em; this.pmark = mark;
      this.pux = this.ux; this.puy = this.uy; this.pvx = this.vx; this.pvy = this.vy; this.pkey = this.font.key; this.ptrack = this.track;
      if (!mark) this.hasBase = true;
    }
  }

  /** Glyphs from here on are (not) inside a flagged span: a word in progress ends at the change. */
  flag(flagged: boolean): void {
    if (flagged === this.flagged) return;
    this.flush(true);
    this.flagged = flagged;
  }

  finish(): FlaggedWord[] {
    this.flush(true);
    return this.words;
  }

  /** pdf.js drops glyphs whose origin lies off the page; so do we (boxes would be clamped to an edge). */
  private onPage(ox: number, oy: number, len: number): boolean {
    const W = this.ctx.pageWidth + 0.5, H = this.ctx.pageHeight + 0.5;
    if (ox >= -0.5 && ox <= W && oy >= -0.5 && oy <= H) return true;
    const ex = ox + this.ux * len, ey = oy + this.uy * len;
    return ex >= -0.5 && ex <= W && ey >= -0.5 && ey <= H;
  }

  /** Whether a glyph of the current run at (ox, oy) continues the word, follows a space, or jumps away. */
  private continues(ox: number, oy: number, mark: boolean): number {
    if ((this.font.key !== this.pkey) || this.ux * this.pux + this.uy * this.puy < 0.999) return JUMP;
    const dx = ox - this.pox, dy = oy - this.poy, pem = this.pem;
    const across = dx * this.pvx + dy * this.pvy;
    // a size change on the same baseline continues a word (small capitals); a smaller size or a shifted
    // baseline starts one (superscripts, footnote marks)
    const ratio = this.em / pem;
    if ((ratio > 1.01 || ratio < 0.99) && (ratio < 0.75 || ratio > 1 / 0.75 || Math.abs(across) > 0.1 * Math.min(this.em, pem))) return JUMP;
    const along = dx * this.pux + dy * this.puy;
    // a diacritic sits over its base, wherever its origin is: within an em is close enough
    if (mark || this.pmark) return Math.abs(across) <= pem && Math.abs(along) <= 1.5 * pem ? SAME : JUMP;
    if (Math.abs(across) > BASELINE_SHIFT_EM * pem) return JUMP;
    const gap = along - this.plen;
    if (gap < BACKSTEP_EM * pem || gap > NEW_RUN_GAP_EM * pem) return JUMP;
    // letter spacing (Tc, uniform TJ tracking) widens every gap of a run alike: a space is what is left over
    // (the jump above keeps the drawn gap, so columns part where they did)
    return gap - Math.max(0, this.ptrack) > SPACE_GAP_EM * pem ? SPACED : SAME;
  }

  private flush(endOfRun: boolean): void {
    const n = this.n;
    this.n = 0;
    this.hasBase = false;
    this.spaced = false;
    if (n === 0) return;
    const visual = this.text;
    let rtl = false;
    let text = visual;
    if (MAY_BE_RTL.test(visual)) {
      const glyphs: WordGlyph[] = [];
      for (let i = 0; i < n; i++) glyphs.push({ text: this.gText[i], s: this.gS[i], len: this.gLen[i], mark: this.gMark[i] });
      rtl = isRtlWord(visual);
      if (rtl) text = logicalText(glyphs);
    }
    text = normalizeText(text);
    if (text.trim() === '') return;
    const f = this.wFont, em = this.wem;
    const lo = f.vertical ? -0.5 * em : f.descent * em;
    const hi = f.vertical ? 0.5 * em : f.ascent * em;
    // the word's rectangle [s0, s1] × [lo, hi] in its own frame; its bounding box on the page
    const ax = this.wux, ay = this.wuy, bx = this.wvx, by = this.wvy;
    const xs0 = ax * this.s0, xs1 = ax * this.s1, ys0 = ay * this.s0, ys1 = ay * this.s1;
    const xl = bx * lo, xh = bx * hi, yl = by * lo, yh = by * hi;
    const W = this.ctx.pageWidth, H = this.ctx.pageHeight;
    const box = {
      x0: r6(clamp01((this.wox + Math.min(xs0, xs1) + Math.min(xl, xh)) / W)),
      y0: r6(clamp01((this.woy + Math.min(ys0, ys1) + Math.min(yl, yh)) / H)),
      x1: r6(clamp01((this.wox + Math.max(xs0, xs1) + Math.max(xl, xh)) / W)),
      y1: r6(clamp01((this.woy + Math.max(ys0, ys1) + Math.max(yl, yh)) / H)),
    };
    const word: FlaggedWord = { text, box, fontSize: round2(em), confidence: 1, direction: direction(f, ax, ay, rtl) };
    if (this.ctx.flagTags) {
      word.angle = ((Math.round(Math.atan2(ay, ax) / (Math.PI / 2)) * 90) % 360 + 360) % 360;
      if (this.wFlagged) word.flagged = true;
    }
    if (f.info?.name) word.fontName = f.info.name;
    if (f.info?.bold) word.bold = true;
    if (f.info?.italic) word.italic = true;
    if (endOfRun) word.endOfRun = true;
    this.words.push(word);
  }
}

interface RunLike { font: ResolvedFont; ux: number; uy: number; vx: number; vy: number; em: number }
interface Collected { run: RunLike; ox: number; oy: number; len: number; visible: boolean }

/**
 * The glyphs drawn inside a marked-content span with replacement text (/ActualText), collected instead of
 * read; when the span ends, the replacement goes where they were. Its place is the extent, along the
 * first glyph's baseline, of the visible glyphs (not whitespace or format characters) on that baseline,
 * or of all the span's glyphs when none is visible (an invisible space carrying a symbol's text). Its
 * characters share that extent evenly, each of its words placed as one glyph (right to left for a
 * right-to-left text), so a replacement with spaces splits into words like drawn text and continues the
 * words it touches (a ligature inside a word). A span that draws no glyph at all (text drawn as paths or an
 * image) has no text position and its replacement is not placed, as poppler does; an empty replacement
 * removes the span's glyphs, and control characters in it are dropped.
 */
class Replacement implements GlyphSink {
  private cur?: RunLike;
  private readonly glyphs: Collected[] = [];

  constructor(private readonly text: string) {}

  run(font: ResolvedFont, ux: number, uy: number, vx: number, vy: number, em: number): void {
    this.cur = { font, ux, uy, vx, vy, em };
  }
  space(ox: number, oy: number, len: number): void { this.add(ox, oy, len, false); }
  blank(ox: number, oy: number, len: number): void { this.add(ox, oy, len, false); }
  glyph(_text: string, ox: number, oy: number, len: number): void { this.add(ox, oy, len, true); }

  private add(ox: number, oy: number, len: number, visible: boolean): void {
    if (this.cur) this.glyphs.push({ run: this.cur, ox, oy, len, visible });
  }

  placeInto(out: WordBuilder): void {
    const text = this.text.replace(CONTROL_RE, '');
    const chars = Array.from(text).length;
    if (chars === 0 || text.trim() === '') return;
    const visible = this.glyphs.filter((g) => g.visible);
    const pick = visible.length ? visible : this.glyphs;
    if (pick.length === 0) return;
    const a = pick[0], r = a.run;
    let lo = Math.min(0, a.len), hi = Math.max(0, a.len);
    for (const g of pick) {
      if (g === a || g.run.ux * r.ux + g.run.uy * r.uy < 0.999) continue;
      const dx = g.ox - a.ox, dy = g.oy - a.oy;
      if (Math.abs(dx * r.vx + dy * r.vy) > BASELINE_SHIFT_EM * r.em) continue; // another line
      const s = dx * r.ux + dy * r.uy;
      lo = Math.min(lo, s, s + g.len);
      hi = Math.max(hi, s, s + g.len);
    }
    const step = (hi - lo) / chars;
    // each word of the text is one glyph (its characters keep their logical order, also right to left),
    // sent left to right as drawn text is: a right-to-left text's first word goes at the right end
    const parts = text.match(/\s+|\S+/gu)!.map((p) => ({ p, n: Array.from(p).length, s: 0 }));
    const rtl = MAY_BE_RTL.test(text) && isRtlWord(text);
    let at = 0;
    for (const q of parts) { q.s = rtl ? hi - (at + q.n) * step : lo + at * step; at += q.n; }
    if (rtl) parts.reverse();
    out.run(r.font, r.ux, r.uy, r.vx, r.vy, r.em);
    for (const q of parts) {
      if (q.p.trim() === '') out.space();
      else out.glyph(q.p, a.ox + r.ux * q.s, a.oy + r.uy * q.s, q.n * step, false);
    }
  }
}

const clamp01 = (n: number) => (n < 0 ? 0 : n > 1 ? 1 : n);
const r6 = (n: number) => Math.round(n * 1e6) / 1e6;
const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Reading direction on the displayed page: runs turned by rotation read top-to-bottom or bottom-to-top,
 * and a run whose glyphs advance leftwards is upside down (/Rotate 180, or a half-turned text matrix):
 * right-to-left scripts are drawn with rightward advances too, so a leftward one means a turned page.
 */
function direction(f: ResolvedFont, ux: number, uy: number, rtl: boolean): RawWord['direction'] {
  if (f.vertical) return 'ttb';
  if (Math.abs(uy) > Math.abs(ux)) return uy > 0 ? 'ttb' : 'btt';
  if (ux < 0) return 'inverted';
  return rtl ? 'rtl' : 'ltr';
}

const RTL_CHAR = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC]|[\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;
const STRONG_LTR_CHAR = /\p{L}/u;
const COMBINING = /^\p{M}$/u;
/** Cheap pre-check: any code unit of a right-to-left block (or a surrogate of the astral ones). */
const MAY_BE_RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC\uD802\uD803\uD83A\uD83B]/;

/**
 * A word reads right to left when it has right-to-left letters and no more left-to-right ones. Combining
 * marks (Arabic vowel signs, Hebrew points) sit on a letter and say nothing of the direction themselves.
 */
function isRtlWord(text: string): boolean {
  let rtl = 0, ltr = 0;
  for (const ch of text) {
    if (COMBINING.test(ch)) continue;
    if (RTL_CHAR.test(ch)) rtl++;
    else if (STRONG_LTR_CHAR.test(ch)) ltr++;
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
export function logicalText(glyphs: readonly WordGlyph[]): string {
  const bases: { g: WordGlyph; idx: number; marks: string[] }[] = [];
  glyphs.forEach((g, idx) => { if (!g.mark) bases.push({ g, idx, marks: [] }); });
  if (bases.length === 0) return glyphs.map((g) => g.text).join('');
  glyphs.forEach((g, idx) => {
    if (!g.mark) return;
    const c = g.s + g.len / 2;
    let best = bases[0], bestD = Infinity;
    for (const b of bases) {
      const lo = Math.min(b.g.s, b.g.s + b.g.len), hi = Math.max(b.g.s, b.g.s + b.g.len);
      const d = c < lo ? lo - c : c > hi ? c - hi : 0;
      // ties go to the glyph drawn just before the mark
      if (d < bestD || (d === bestD && b.idx < idx && b.idx > best.idx)) { best = b; bestD = d; }
    }
    best.marks.push(g.text);
  });
  const ordered = [...bases].sort((p, q) => q.g.s - p.g.s || p.idx - q.idx).map((b) => ({ text: b.g.text + b.marks.join(''), cls: classOf(b.g.text) }));
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
