import { isDots } from '@quire/tables';
import { bandsOf, leftToRight, makeFrag } from './lines.js';
import type { Frag, PageGeom } from './types.js';

/**
 * An amount standing alone: a number with cents, a currency or a percent ("104.00", "$1,250", "(3.50)",
 * "12 %", "8.32 EUR"). A bare integer is left out: beside a footer line it is the page number.
 */
const AMOUNT = /^[(+\-−]?(?:[$€£¥]|[A-Z]{3})?\s?\d[\d,.'\u00a0\u202f ]*(?:\s?(?:[$€£¥%]|[A-Z]{3}))?\)?$/u;
const MONEY_SIGN = /[$€£¥%]|[A-Z]{3}|\d[.,]\d{1,2}\)?$/u;
const isAmount = (text: string) => AMOUNT.test(text) && MONEY_SIGN.test(text);
/** Labels are short: a phrase, not a line of running text. */
const MAX_LABEL_WORDS = 8;

/**
 * Label…value rows ("Subtotal ........ 104.00", a right-aligned amount far from its label) that no table
 * took: a row holding just a short label and an amount is one line, label then amount. Left as two
 * fragments, the gap between them reads as a column gutter, and all the labels would be read before
 * all the amounts. An amount that sits in a column of running text (prose just above or below it) is
 * that column's line, not this row's value, and stays apart.
 */
export function pairLabelValues(frags: readonly Frag[], geom: PageGeom): Frag[] {
  const flat = frags.filter((f) => !f.vertical);
  const bands = bandsOf(flat);
  const out: Frag[] = frags.filter((f) => f.vertical);
  bands.forEach((band, i) => {
    if (band.length !== 2 || !isLabel(band[0]) || !isAmount(band[1].text) || band.some((f) => f.mark !== undefined) ||
      inProse(band[1], bands[i - 1], geom) || inProse(band[1], bands[i + 1], geom)) {
      out.push(...band);
      return;
    }
    out.push(makeFrag([...leftToRight(band[0]), ...leftToRight(band[1])], geom));
  });
  return out;
}

function isLabel(f: Frag): boolean {
  if (!/\p{L}/u.test(f.text)) return false;
  let words = 0;
  for (const w of f.words) if (!isDots(w.text)) words++;
  return words <= MAX_LABEL_WORDS;
}

/**
 * A neighbouring row (within two line heights) has a line of text over the amount's place: a line of
 * ≥ 3 words across it, or a wider line of words starting where the amount starts (the amount is the
 * short last line of a paragraph in a column).
 */
function inProse(amount: Frag, band: Frag[] | undefined, geom: PageGeom): boolean {
  if (!band) return false;
  const h = amount.box.y1 - amount.box.y0, emX = amount.fontSize / geom.width;
  return band.some((f) => Math.max(f.box.y0 - amount.box.y1, amount.box.y0 - f.box.y1) < 2 * h &&
    Math.min(f.box.x1, amount.box.x1) > Math.max(f.box.x0, amount.box.x0) &&
    (f.words.length >= 3 || (Math.abs(f.box.x0 - amount.box.x0) < emX && f.box.x1 > amount.box.x1 && /\p{L}/u.test(f.text))));
}
