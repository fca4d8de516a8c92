import { inverseQuarterTurn, rotateBoxQuarter, type Box, type Document, type QuarterTurn, type RawPage } from '@quire/core';

/**
 * OCR reads a turned scan upright but reports word boxes on the page as sent (RawPage.correctedRotation
 * = the clockwise turn that made it readable). Layout needs upright text, and the output needs boxes
 * on the page as sent: so pages are turned upright before layout and every box is turned back after.
 */
export function uprightPage(p: RawPage): RawPage {
  const turn = quarter(p.correctedRotation);
  if (!turn) return p;
  const r = (b: Box) => rotateBoxQuarter(b, turn);
  const sideways = turn === 90 || turn === 270;
  return {
    ...p,
    width: sideways ? p.height : p.width,
    height: sideways ? p.width : p.height,
    words: p.words.map((w) => ({ ...w, box: r(w.box) })),
    segments: p.segments.map((s) => {
      const b = r({ x0: Math.min(s.x0, s.x1), y0: Math.min(s.y0, s.y1), x1: Math.max(s.x0, s.x1), y1: Math.max(s.y0, s.y1) });
      return { ...b, width: s.width };
    }),
    rects: p.rects.map((x) => ({ ...x, box: r(x.box) })),
    images: p.images.map((x) => ({ ...x, box: r(x.box) })),
    widgets: p.widgets.map((x) => ({ ...x, box: r(x.box) })),
  };
}

/** Turns every box of the pages that were turned upright back onto the page as sent. */
export function restoreOrientation(doc: Document, turns: ReadonlyMap<number, QuarterTurn>): Document {
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
    page.extra = { ...(page.extra ?? {}), ocr_rotation_corrected: turn };
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
