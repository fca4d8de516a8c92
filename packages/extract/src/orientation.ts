import { inverseQuarterTurn, rotateBoxQuarter, type Box, type Document, type QuarterTurn, type RawPage, type RawWord } from '@quire/core';

/**
 * OCR reads a turned scan upright but reports word boxes on the page as sent (RawPage.correctedRotation
 * = the clockwise turn that made it readable). Layout needs upright text, and the output needs boxes
 * on the page as sent: so pages are turned upright before layout and every box is turned back after.
 */
export function uprightPage(p: RawPage, turn = quarter(p.correctedRotation)): RawPage {
  if (!turn) return p;
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

/**
 * A text-layer word's reading direction once the page is turned: text running down a page turned a
 * quarter turn anticlockwise (270° clockwise) runs left to right, and the page's upright text then runs
 * up (and the other way round for 90°). OCR words carry no direction and keep none.
 */
function turnedDirection(d: RawWord['direction'], turn: QuarterTurn): RawWord['direction'] {
  if (d === undefined) return d;
  if (turn === 270) return d === 'ttb' ? 'ltr' : d === 'ltr' || d === 'rtl' ? 'btt' : d;
  if (turn === 90) return d === 'btt' ? 'ltr' : d === 'ltr' || d === 'rtl' ? 'ttb' : d;
  return d;
}

/** Share of a text-layer page's characters that must run sideways, one way, for the page to be read turned. */
const SIDEWAYS_SHARE = 0.6;

/**
 * The clockwise quarter turn that makes a text-layer page's text run left to right, when most of it
 * runs sideways: a table or chart set landscape on a portrait page (text running down the page: 270,
 * up the page: 90). Laying the page out turned lets lines, columns and table rows form as they read.
 */
export function sidewaysTurn(p: RawPage): QuarterTurn | undefined {
  if (p.source !== 'text-layer' || p.words.length === 0) return undefined;
  const chars = { ttb: 0, btt: 0, all: 0 };
  for (const w of p.words) {
    const n = w.text.length;
    chars.all += n;
    if (w.direction === 'ttb') chars.ttb += n;
    else if (w.direction === 'btt') chars.btt += n;
  }
  if (chars.ttb >= SIDEWAYS_SHARE * chars.all) return 270;
  if (chars.btt >= SIDEWAYS_SHARE * chars.all) return 90;
  return undefined;
}

/**
 * Turns every box of the pages that were turned upright back onto the page as sent. `sidewaysText`
 * names the pages turned for their text's direction (not by OCR); their extra says so.
 */
export function restoreOrientation(doc: Document, turns: ReadonlyMap<number, QuarterTurn>, sidewaysText: ReadonlySet<number> = new Set()): Document {
  for (const page of doc.pages) {
    const turn = turns.get(page.number);
    if (!turn) continue;
    const back = (b: Box | null) => (b ? rotateBoxQuarter(b, inverseQuarterTurn(turn)) : b);
    if (turn === 90 || turn === 270) [page.width, page.height] = [page.height, page.width];
    for (const el of page.elements) {
      el.box = back(el.box);
      if (el.kind === 'table') for (const c of el.cells) c.box = back(c.box);
    }
    for (const w of page.words) w.box = back(w.box)!;
    for (const m of page.selectionMarks) m.box = back(m.box)!;
    page.extra = { ...(page.extra ?? {}), [sidewaysText.has(page.number) ? 'text_rotation_corrected' : 'ocr_rotation_corrected']: turn };
  }
  return doc;
}

const quarter = (deg: number | undefined): QuarterTurn | undefined => {
  const d = (((deg ?? 0) % 360) + 360) % 360;
  return d === 90 || d === 180 || d === 270 ? d : undefined;
};

export function turnsOf(pages: readonly RawPage[]): Map<number, QuarterTurn> {
  const out = new Map<number, QuarterTurn>();
  for (const p of pages) {
    const t = quarter(p.correctedRotation);
    if (t) out.set(p.number, t);
  }
  return out;
}
