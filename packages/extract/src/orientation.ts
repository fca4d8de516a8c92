import { inverseQuarterTurn, rotateBoxQuarter, turnBoxSlightly, unionBox, type Box, type Document, type QuarterTurn, type RawPage, type RawWord } from '@quire/core';
import type { PageRegion } from '@quire/layout';

/**
 * OCR reads a turned scan upright but reports word boxes on the page as sent (RawPage.correctedRotation
 * = the clockwise turn that made it readable). Layout needs upright text, and the output needs boxes
 * on the page as sent: so pages are turned upright before layout and every box is turned back after.
 */
export function uprightPage(p: RawPage, turn = quarter(p.correctedRotation)): RawPage {
  const turned = turn ? quarterTurned(p, turn) : p;
  return skewOf(p) ? levelled(turned, skewOf(p)!) : turned;
}

/**
 * A skewed scan's page levelled: OCR read the image turned by the skew and mapped each word's box back
 * onto the page as sent, where lines run aslant (a word's box there is the bound of the word turned, and
 * lines of neighbouring columns drift into each other's bands). Layout reads the words at their places on
 * the levelled page, each at its own size again (its rulings are levelled already); restoreOrientation puts
 * every box back.
 */
function levelled(p: RawPage, skew: number): RawPage {
  const W = p.width || 612, H = p.height || 792;
  // only the words: OCR finds a scan's rulings and boxes along the skew and reports them levelled already
  // (rulings.ts: axis-parallel in the image turned by the skew about its centre)
  return { ...p, words: p.words.map((w) => ({ ...w, box: turnBoxSlightly(w.box, skew, W, H, true) })) };
}

/** The skew OCR corrected on a page (degrees clockwise), when there is one. */
const skewOf = (p: RawPage): number | undefined => (p.source === 'ocr' && p.correctedSkew ? p.correctedSkew : undefined);

function quarterTurned(p: RawPage, turn: QuarterTurn): RawPage {
  const r = (b: Box) => rotateBoxQuarter(b, turn);
  const sideways = turn === 90 || turn === 270;
  return {
    ...p,
    width: sideways ? p.height : p.width,
    height: sideways ? p.width : p.height,
    words: p.words.map((w) => {
      const direction = turnedDirection(w.direction, turn);
      return direction === w.direction ? { ...w, box: r(w.box) } : { ...w, box: r(w.box), direction };
    }),
    segments: p.segments.map((s) => {
      const b = r({ x0: Math.min(s.x0, s.x1), y0: Math.min(s.y0, s.y1), x1: Math.max(s.x0, s.x1), y1: Math.max(s.y0, s.y1) });
      return { ...b, width: s.width };
    }),
    rects: p.rects.map((x) => ({ ...x, box: r(x.box) })),
    images: p.images.map((x) => ({ ...x, box: r(x.box) })),
    widgets: p.widgets.map((x) => ({ ...x, box: r(x.box) })),
  };
}

/** Directions as the clockwise angle a line of them runs at on the page (right-to-left scripts lie like ltr). */
const ANGLE_OF = { ltr: 0, rtl: 0, ttb: 90, inverted: 180, btt: 270 } as const;
const DIRECTION_AT: Record<number, NonNullable<RawWord['direction']>> = { 0: 'ltr', 90: 'ttb', 180: 'inverted', 270: 'btt' };

/**
 * A text-layer word's reading direction once the page is turned clockwise by `turn`: text running down a
 * page turned 270° runs left to right, upside-down text on a page turned 180° too, and so on. A word that
 * ends up upright keeps 'rtl' when it was right-to-left. OCR words carry no direction and keep none.
 */
function turnedDirection(d: RawWord['direction'], turn: QuarterTurn): RawWord['direction'] {
  if (d === undefined) return d;
  const turned = DIRECTION_AT[(ANGLE_OF[d] + turn) % 360];
  return turned === 'ltr' && d === 'rtl' ? 'rtl' : turned;
}

/** Share of a text-layer page's (or region's) characters that must run sideways, one way, for it to be read turned. */
const SIDEWAYS_SHARE = 0.6;

/**
 * The clockwise quarter turn that makes a text-layer page's text run left to right, when most of it
 * runs sideways or upside down: a table or chart set landscape on a portrait page (text running down the
 * page: 270, up the page: 90), a page scanned or rotated upside down (/Rotate 180: 180). Laying the page
 * out turned lets lines, columns and table rows form as they read.
 */
export function sidewaysTurn(p: RawPage): QuarterTurn | undefined {
  if (p.source !== 'text-layer' || p.words.length === 0) return undefined;
  return mostlySideways(p.words);
}

/**
 * The turn that makes these words read left to right when ≥ SIDEWAYS_SHARE of their characters run one
 * way other than upright: down the page (270), up it (90), or upside down (180).
 */
function mostlySideways(words: readonly RawWord[]): QuarterTurn | undefined {
  const chars = { ttb: 0, btt: 0, inverted: 0, all: 0 };
  for (const w of words) {
    const n = w.text.length;
    chars.all += n;
    if (w.direction === 'ttb' || w.direction === 'btt' || w.direction === 'inverted') chars[w.direction] += n;
  }
  if (chars.all === 0) return undefined;
  if (chars.ttb >= SIDEWAYS_SHARE * chars.all) return 270;
  if (chars.btt >= SIDEWAYS_SHARE * chars.all) return 90;
  if (chars.inverted >= SIDEWAYS_SHARE * chars.all) return 180;
  return undefined;
}

/** A block of sideways text on an otherwise upright page, laid out turned upright; `box` on the page as sent. */
export interface SidewaysRegion extends PageRegion {
  turn: QuarterTurn;
  box: Box;
}

/**
 * Gaps (in ems of the larger word) under which two sideways words of the same direction belong to one
 * block: across their lines (a ruled table's rows are up to ~3 ems apart, text to text), along them
 * between words of neighbouring lines, and along one line (a table's row: a label, then right-aligned
 * figures in wide columns, leaves wide gaps between cells).
 */
const JOIN_ACROSS_EM = 4;
const JOIN_ALONG_EM = 8;
const JOIN_ALONG_LINE_EM = 40;
/** Rules and fills within this many ems of a region's words are its own (a table's frame, cell backgrounds). */
const RULE_REACH_EM = 1.5;
/** A region needs this much clear space (in ems) to the upright text around it. */
const CLEAR_EM = 0.5;

/**
 * The same turning as for a sideways page, applied to part of one: on a text-layer page that is not
 * mostly sideways, each block of sideways text (words running down or up the page: a landscape table
 * printed in the body of a portrait page, a sideways sidebar) becomes a region laid out on its own,
 * turned upright (uprightPage), and its boxes turned back (the inverse turn, as restoreOrientation).
 *
 * A block is the words of one sideways direction chained by small gaps, with at least two lines; it
 * takes the rules, fills, images and widgets lying within reach of its words and any upright words
 * inside its box, and is kept only when it is a block apart:
 *  - ≥ SIDEWAYS_SHARE of the characters in its box run its way (the same rule as for the whole page);
 *  - no other word within CLEAR_EM of its box: sideways column headers sitting on an upright table's
 *    body, or a chart's turned axis title beside its tick labels, stay with what they label;
 *  - no rule it does not take runs into its box (a ruled grid that continues outside it).
 * Returns the page without the regions' content (unchanged when there is none) and the regions.
 */
export function sidewaysRegions(p: RawPage): { rest: RawPage; regions: SidewaysRegion[] } {
  const none = { rest: p, regions: [] };
  if (p.source !== 'text-layer' || !p.words.some((w) => w.direction === 'ttb' || w.direction === 'btt')) return none;
  const W = p.width || 612, H = p.height || 792;
  const regions: SidewaysRegion[] = [];
  const taken = { words: new Set<RawWord>(), segments: new Set<object>(), rects: new Set<object>(), images: new Set<object>(), widgets: new Set<object>() };
  for (const dir of ['ttb', 'btt'] as const) {
    for (const block of chains(p.words.filter((w) => w.direction === dir && w.text.trim()), W, H)) {
      if (lineCount(block, W) < 2) continue;
      const em = median(block.map((w) => w.fontSize)) || 10;
      const reach = grow(unionBox(block.map((w) => w.box))!, (RULE_REACH_EM * em) / W, (RULE_REACH_EM * em) / H);
      const within = <T extends object>(list: readonly T[], boxOf: (t: T) => Box, had: ReadonlySet<object>) => list.filter((t) => !had.has(t) && inside(boxOf(t), reach));
      const segments = within(p.segments, segBox, taken.segments), rects = within(p.rects, (r) => r.box, taken.rects);
      const images = within(p.images, (r) => r.box, taken.images), widgets = within(p.widgets, (r) => r.box, taken.widgets);
      const box = unionBox([...block, ...segments.map(segBox), ...rects, ...images, ...widgets].map((t) => ('box' in t ? t.box : t)))!;
      const inBlock = new Set(block);
      const others = p.words.filter((w) => !inBlock.has(w) && !taken.words.has(w) && w.text.trim());
      const joined = new Set(others.filter((w) => contains(box, centre(w.box))));
      const words = [...block, ...joined];
      if (mostlySideways(words) !== turnOf(dir)) continue;
      const clear = grow(box, (CLEAR_EM * em) / W, (CLEAR_EM * em) / H);
      if (others.some((w) => !joined.has(w) && overlaps(w.box, clear))) continue;
      const kept = new Set(segments);
      if (p.segments.some((s) => !kept.has(s) && crosses(segBox(s), box))) continue;
      if (regions.some((r) => overlaps(r.box, box))) continue;
      const turn = turnOf(dir);
      const back = inverseQuarterTurn(turn);
      regions.push({
        turn, box,
        raw: uprightPage({ ...p, words, segments, rects, images, widgets }, turn),
        toPage: (b) => rotateBoxQuarter(b, back),
      });
      for (const w of words) taken.words.add(w);
      for (const [set, list] of [[taken.segments, segments], [taken.rects, rects], [taken.images, images], [taken.widgets, widgets]] as const) for (const x of list) set.add(x);
    }
  }
  if (!regions.length) return none;
  const rest: RawPage = {
    ...p,
    words: p.words.filter((w) => !taken.words.has(w)),
    segments: p.segments.filter((x) => !taken.segments.has(x)),
    rects: p.rects.filter((x) => !taken.rects.has(x)),
    images: p.images.filter((x) => !taken.images.has(x)),
    widgets: p.widgets.filter((x) => !taken.widgets.has(x)),
  };
  return { rest, regions };
}

const turnOf = (d: 'ttb' | 'btt'): QuarterTurn => (d === 'ttb' ? 270 : 90);

/** Sideways words chained into blocks: two join when their gap across lines (x) and along them (y) is small. */
function chains(words: readonly RawWord[], W: number, H: number): RawWord[][] {
  const parent = words.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const order = words.map((_, i) => i).sort((a, b) => words[a].box.x0 - words[b].box.x0);
  const widest = (JOIN_ACROSS_EM * words.reduce((m, w) => Math.max(m, w.fontSize), 10)) / W;
  for (let k = 0; k < order.length; k++) {
    const a = words[order[k]];
    for (let m = k + 1; m < order.length; m++) {
      const b = words[order[m]];
      // sorted by left edge: once b starts beyond any reach across from a, so does every later word
      if (b.box.x0 - a.box.x1 > widest) break;
      const em = Math.max(a.fontSize, b.fontSize) || 10;
      const across = Math.max(0, Math.max(a.box.x0, b.box.x0) - Math.min(a.box.x1, b.box.x1)) * W;
      const along = Math.max(0, Math.max(a.box.y0, b.box.y0) - Math.min(a.box.y1, b.box.y1)) * H;
      const sameLine = Math.min(a.box.x1, b.box.x1) - Math.max(a.box.x0, b.box.x0) > 0.5 * Math.min(a.box.x1 - a.box.x0, b.box.x1 - b.box.x0);
      if (across <= JOIN_ACROSS_EM * em && along <= (sameLine ? JOIN_ALONG_LINE_EM : JOIN_ALONG_EM) * em) parent[find(order[k])] = find(order[m]);
    }
  }
  const groups = new Map<number, RawWord[]>();
  words.forEach((w, i) => {
    const g = groups.get(find(i));
    if (g) g.push(w);
    else groups.set(find(i), [w]);
  });
  return [...groups.values()];
}

/** Lines of sideways text: bands of word centres across the page (x), a new one after a gap of half an em. */
function lineCount(words: readonly RawWord[], W: number): number {
  const xs = words.map((w) => ({ c: ((w.box.x0 + w.box.x1) / 2) * W, em: w.fontSize || 10 })).sort((a, b) => a.c - b.c);
  let n = 0, last = -Infinity;
  for (const x of xs) {
    if (x.c - last > 0.5 * x.em) n++;
    last = x.c;
  }
  return n;
}

const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[xs.length >> 1] : 0);
const segBox = (s: { x0: number; y0: number; x1: number; y1: number }): Box =>
  ({ x0: Math.min(s.x0, s.x1), y0: Math.min(s.y0, s.y1), x1: Math.max(s.x0, s.x1), y1: Math.max(s.y0, s.y1) });
const grow = (b: Box, dx: number, dy: number): Box => ({ x0: b.x0 - dx, y0: b.y0 - dy, x1: b.x1 + dx, y1: b.y1 + dy });
const inside = (b: Box, outer: Box) => b.x0 >= outer.x0 && b.x1 <= outer.x1 && b.y0 >= outer.y0 && b.y1 <= outer.y1;
const centre = (b: Box) => ({ x: (b.x0 + b.x1) / 2, y: (b.y0 + b.y1) / 2 });
const contains = (b: Box, p: { x: number; y: number }) => p.x >= b.x0 && p.x <= b.x1 && p.y >= b.y0 && p.y <= b.y1;
/** Boxes that share area, or touch for a zero-width one (a word's box never is). */
const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
/** A rule (zero width allowed) that reaches into the box's interior and out of it. */
const crosses = (s: Box, b: Box) => s.x0 <= b.x1 && s.x1 >= b.x0 && s.y0 <= b.y1 && s.y1 >= b.y0 && !inside(s, b) &&
  (s.x1 - s.x0 > 0 ? s.y0 > b.y0 && s.y0 < b.y1 : s.x0 > b.x0 && s.x0 < b.x1);

/**
 * Turns every box of the pages that were turned upright back onto the page as sent. `sidewaysText`
 * names the pages turned for their text's direction (not by OCR); their extra says so.
 */
export function restoreOrientation(doc: Document, turns: ReadonlyMap<number, QuarterTurn>, sidewaysText: ReadonlySet<number> = new Set(), skews: ReadonlyMap<number, number> = new Map()): Document {
  for (const page of doc.pages) {
    const turn = turns.get(page.number), skew = skews.get(page.number);
    if (!turn && !skew) continue;
    // the levelled page's boxes turned back by the skew (on the upright page's size), then by the quarter turn
    const W = page.width || 612, H = page.height || 792;
    const unskew = (b: Box) => (skew ? turnBoxSlightly(b, -skew, W, H) : b);
    const back = (b: Box | null) => (b ? (turn ? rotateBoxQuarter(unskew(b), inverseQuarterTurn(turn)) : unskew(b)) : b);
    if (turn === 90 || turn === 270) [page.width, page.height] = [page.height, page.width];
    for (const el of page.elements) {
      el.box = back(el.box);
      if (el.kind === 'table') for (const c of el.cells) c.box = back(c.box);
    }
    for (const w of page.words) w.box = back(w.box)!;
    for (const m of page.selectionMarks) m.box = back(m.box)!;
    if (skew) page.extra = { ...(page.extra ?? {}), ocr_skew_corrected: Math.round(skew * 100) / 100 };
    if (turn) page.extra = { ...(page.extra ?? {}), [sidewaysText.has(page.number) ? 'text_rotation_corrected' : 'ocr_rotation_corrected']: turn };
  }
  return doc;
}

const quarter = (deg: number | undefined): QuarterTurn | undefined => {
  const d = (((deg ?? 0) % 360) + 360) % 360;
  return d === 90 || d === 180 || d === 270 ? d : undefined;
};

/** The skews OCR corrected, by page number (restoreOrientation's `skews`). */
export function skewsOf(pages: readonly RawPage[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const p of pages) {
    const s = skewOf(p);
    if (s) out.set(p.number, s);
  }
  return out;
}

export function turnsOf(pages: readonly RawPage[]): Map<number, QuarterTurn> {
  const out = new Map<number, QuarterTurn>();
  for (const p of pages) {
    const t = quarter(p.correctedRotation);
    if (t) out.set(p.number, t);
  }
  return out;
}
