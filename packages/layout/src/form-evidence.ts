import type { Box, RawPage, RawWord } from '@quire/core';

/**
 * What makes a page fillable, kept on the page for readers that never see the raw page (split,
 * classify): its AcroForm widgets (text, checkbox, radio, choice and signature fields; push buttons
 * are not places to fill in) and its drawn entry boxes (stroked, unfilled rectangles the size of a
 * field, with no printed word inside). A fillable page may print almost no text, so these are its
 * only evidence of being a form.
 */
export interface FormEvidence {
  /** AcroForm widgets a user fills in. */
  fields: number;
  /** Drawn empty boxes shaped like entry fields. */
  boxes: number;
}

const inside = (w: RawWord, b: Box) => {
  const cx = (w.box.x0 + w.box.x1) / 2, cy = (w.box.y0 + w.box.y1) / 2;
  return cx > b.x0 && cx < b.x1 && cy > b.y0 && cy < b.y1;
};

export function formEvidence(raw: RawPage, words: readonly RawWord[]): FormEvidence {
  const fields = raw.widgets.filter((w) => w.fieldType !== 'button').length;
  const w = raw.width || 612, h = raw.height || 792;
  let boxes = 0;
  for (const r of raw.rects) {
    if (!r.stroked || r.filled) continue;
    const wPt = (r.box.x1 - r.box.x0) * w, hPt = (r.box.y1 - r.box.y0) * h;
    // an entry field: a line of handwriting high (10–60 pt) and wider than it is high; not a table frame or a page border
    if (hPt < 10 || hPt > 60 || wPt < 1.5 * hPt || wPt > 0.95 * w) continue;
    if (words.some((x) => inside(x, r.box))) continue;
    boxes++;
  }
  return { fields, boxes };
}
