import type { Box, Page, RawPage, RawWord } from '@quire/core';
import { boxArea, intersection, unionBox, checkInterrupt } from '@quire/core';
import { buildBlocks } from './blocks.js';
import { detectFigures, takesWord, type FigureCandidate } from './figures.js';
import { coveredByChart, drawnChartFigures } from './chart-figures.js';
import { buildFragments, textOfWords } from './lines.js';
import { readingOrder } from './reading-order.js';
import { joinLoneRows } from './row-joins.js';
import { collectRulings } from './rulings.js';
import { detectMarks } from './selection.js';
import { formEvidence } from './form-evidence.js';
import { linkCaptions, summarize } from './summarize.js';
import { detectRuledTables } from './tables-ruled.js';
import { detectTextTables } from './tables-text.js';
import { normalizeText } from './text.js';
import type { Frag, PageAnalysis, PageItem, PageGeom } from './types.js';

/**
 * A part of a page laid out on its own, in another frame: sideways text (a landscape table printed on a
 * portrait page) given as a page of its own turned upright (`raw`, the region's content only), with the
 * map of a box in that frame back onto the page.
 */
export interface PageRegion {
  raw: RawPage;
  toPage: (b: Box) => Box;
}

/**
 * Per-page analysis, independent of other pages: selection marks, figures, ruled tables, line fragments,
 * borderless tables, paragraphs and reading order. What needs the whole document (body font size,
 * heading levels, running headers, footnotes, ids) is left to finishDocument, which only sees the light
 * summaries returned here — the raw page can be dropped as soon as this returns.
 *
 * With `regions`, `raw` is the page without their content; each region is analysed in its own frame,
 * its boxes mapped back onto the page, and its blocks, tables and figures put in the page's reading order.
 */
export function analyzePage(raw: RawPage, regions: readonly PageRegion[] = []): PageAnalysis {
  checkInterrupt();
  const page: Page = { number: raw.number, width: raw.width, height: raw.height, elements: [], words: [], selectionMarks: [] };
  if (raw.error) {
    page.error = { ...raw.error };
    return { page, items: [], fontHistogram: new Map() };
  }
  // which OCR engine read the page, how surely and how fast: extensions.ocr of the extraction
  if (raw.ocr) page.extra = { ...(page.extra ?? {}), ocr: { ...raw.ocr } };
  const geom: PageGeom = { width: raw.width || 612, height: raw.height || 792 };
  const words = normalizeWords(raw.words);
  page.words = words.map((w) => ({ text: w.text, box: w.box, confidence: w.confidence }));
  const { marks, words: flow } = detectMarks(raw, words);
  page.selectionMarks = marks;
  // kept whatever detectSelections says: a fillable page may carry no other sign of being a form
  const form = formEvidence(raw, words);
  if (form.fields || form.boxes) page.extra = { ...(page.extra ?? {}), ...(form.fields ? { form_fields: form.fields } : {}), ...(form.boxes ? { form_boxes: form.boxes } : {}) };

  const rulings = collectRulings(raw);
  // charts drawn as vectors first: their grid lines are no ruled table and their series cluster no separate figure
  const charts = drawnChartFigures(raw, flow);
  const ruled = detectRuledTables(raw, flow, rulings, geom).filter((t) => !coveredByChart(charts, t.table.box));
  // a vector "drawing" that is really a table's rules is the table, not a figure
  const figures = [...charts, ...detectFigures(raw, flow).filter((f) => !coveredByChart(charts, f.figure.box))]
    .filter((f) => !ruled.some((t) => intersection(t.table.box!, f.figure.box!) > 0.6 * boxArea(t.table.box!)));
  const inTable = new Set<RawWord>();
  for (const t of ruled) for (const w of t.words) inTable.add(w);
  const rest = assignFigureWords(flow.filter((w) => !inTable.has(w)), figures, geom);

  const frags = buildFragments(rest, geom, marks.map((m) => m.box));
  const textTables = detectTextTables(frags, rulings.h, raw, geom, rulings.v);
  const inTextTable = new Set(textTables.flatMap((t) => [...t.frags]));
  const blocks = buildBlocks(joinLoneRows(frags.filter((f) => !inTextTable.has(f)), geom), geom).map((d) => summarize(d, geom));
  const tables = [...ruled.map((t) => t.table), ...textTables.map((t) => t.table)];
  const figs = figures.map((f) => f.figure);
  linkCaptions(blocks, [...tables, ...figs]);

  const items: PageItem[] = [...blocks, ...tables, ...figs];
  const fontHistogram = histogram(frags.filter((f) => !inTextTable.has(f)));
  const fontSizes = words.map((w) => w.fontSize);
  for (const region of regions) {
    const sub = analyzePage(region.raw);
    const back = region.toPage;
    for (const it of sub.items) {
      it.box = it.box && back(it.box);
      if (it.kind === 'table') for (const c of it.cells) c.box = c.box && back(c.box);
      if (it.kind === 'block' && it.mark !== undefined) it.mark += page.selectionMarks.length;
    }
    items.push(...sub.items);
    page.words.push(...sub.page.words.map((w) => ({ ...w, box: back(w.box) })));
    page.selectionMarks.push(...sub.page.selectionMarks.map((m) => ({ ...m, box: back(m.box) })));
    for (const [k, n] of sub.fontHistogram) fontHistogram.set(k, (fontHistogram.get(k) ?? 0) + n);
    for (const w of region.raw.words) fontSizes.push(w.fontSize);
  }
  const sizes = Float64Array.from(fontSizes).sort();
  const em = sizes.length ? sizes[sizes.length >> 1] : 10;
  const ordered = readingOrder(items, (it) => it.box!, Math.max(0.008, (0.6 * em) / geom.width));
  return { page, items: ordered, fontHistogram };
}

function normalizeWords(words: readonly RawWord[]): RawWord[] {
  const out: RawWord[] = [];
  for (const w of words) {
    const text = normalizeText(w.text).trim();
    if (!text) continue;
    out.push(text === w.text ? w : { ...w, text });
  }
  return out;
}

/** Words inside a figure become its text (labels, legend) instead of page text; returns the others. */
function assignFigureWords(words: RawWord[], figures: readonly FigureCandidate[], geom: PageGeom): RawWord[] {
  if (figures.length === 0) return words;
  const taken = new Map<FigureCandidate, RawWord[]>();
  const rest: RawWord[] = [];
  for (const w of words) {
    const f = figures.find((c) => takesWord(c, w));
    if (!f) { rest.push(w); continue; }
    const list = taken.get(f);
    if (list) list.push(w);
    else taken.set(f, [w]);
  }
  for (const [f, ws] of taken) {
    f.figure.text = textOfWords(ws, geom);
    f.figure.box = unionBox([f.figure.box!, ...ws.map((w) => w.box)]);
  }
  return rest;
}

/** Characters per font size (rounded to half points) over the fragments' words. */
function histogram(frags: readonly Frag[]): Map<number, number> {
  const h = new Map<number, number>();
  for (const f of frags) {
    for (const w of f.words) {
      const k = Math.round(w.fontSize * 2) / 2;
      h.set(k, (h.get(k) ?? 0) + w.text.length);
    }
  }
  return h;
}
