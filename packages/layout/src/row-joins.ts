import { isDots } from '@quire/tables';
import { ALWAYS_SPLIT_EM, bandsOf, leftToRight, makeFrag } from './lines.js';
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
 * Rows of text that no table took and that are one line, not columns (run after table detection, on the
 * fragments left for paragraphs):
 *  - a label…value row ("Subtotal ........ 104.00", a right-aligned amount far from its label): a row
 *    holding just a short label and an amount is one line, label then amount. Left as two fragments, the
 *    gap between them reads as a column gutter, and all the labels would be read before all the amounts.
 *    An amount that sits in a column of running text (prose just above or below it) is that column's
 *    line, not this row's value, and stays apart;
 *  - a line printed with widened spaces (a receipt's shop name in double-spaced monospace): short
 *    fragments separated by alike gaps of a few ems, with no line just above or below split anywhere
 *    under those gaps (no column there), is one line rather than a row of one-word blocks.
 */
export function joinLoneRows(frags: readonly Frag[], geom: PageGeom): Frag[] {
  const flat = frags.filter((f) => !f.vertical);
  const bands = bandsOf(flat);
  const out: Frag[] = frags.filter((f) => f.vertical);
  bands.forEach((band, i) => {
    if (band.length < 2 || band.some((f) => f.mark !== undefined)) out.push(...band);
    else if (labelValue(band, bands, i, geom) || spacedLine(band, bands, i, geom)) out.push(makeFrag(band.flatMap(leftToRight), geom));
    else out.push(...band);
  });
  return out;
}

function labelValue(band: Frag[], bands: Frag[][], i: number, geom: PageGeom): boolean {
  return band.length === 2 && isLabel(band[0]) && isAmount(band[1].text) &&
    !inProse(band[1], bands[i - 1], geom) && !inProse(band[1], bands[i + 1], geom);
}

function spacedLine(band: Frag[], bands: Frag[][], i: number, geom: PageGeom): boolean {
  const size = Math.max(...band.map((f) => f.fontSize));
  if (band.some((f) => f.fontSize < 0.85 * size || f.words.length > 3)) return false;
  if (band.length === 2 && band.some((f) => f.words.length > 2)) return false;
  const gaps: [number, number][] = [];
  for (let k = 1; k < band.length; k++) gaps.push([band[k - 1].box.x1, band[k].box.x0]);
  const widths = gaps.map(([a, b]) => b - a);
  if (Math.max(...widths) > (ALWAYS_SPLIT_EM * size) / geom.width || Math.max(...widths) > 1.5 * Math.min(...widths)) return false;
  const top = Math.min(...band.map((f) => f.box.y0)), bottom = Math.max(...band.map((f) => f.box.y1));
  const reach = 2 * (bottom - top);
  for (const nb of [bands[i - 1], bands[i + 1]]) {
    if (!nb || nb.length < 2) continue;
    const nTop = Math.min(...nb.map((f) => f.box.y0)), nBottom = Math.max(...nb.map((f) => f.box.y1));
    if (nTop - bottom > reach || top - nBottom > reach) continue;
    for (let k = 1; k < nb.length; k++) {
      const a = nb[k - 1].box.x1, b = nb[k].box.x0;
      if (gaps.some(([ga, gb]) => Math.min(b, gb) > Math.max(a, ga))) return false;
    }
  }
  return true;
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
