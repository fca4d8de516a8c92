import type { Box, Document, FigureElement, Page, TableElement } from '@quire/core';

/**
 * The extractor's view of a Document: "units" — text lines (a text element split at its line
 * breaks, all citing the element's id) and table cells (citing tbl-N-rRcC) — with their geometry
 * and the neighbours a value can sit in: right of a label, below it, the next table cell.
 */

export interface Unit {
  /** Index in reading order over the whole document. */
  order: number;
  /** The element id to cite (txt-N, tbl-N-rRcC). */
  id: string;
  text: string;
  page: number;
  box: Box | null;
  confidence: number;
  selected?: boolean;
  category?: string;
  cell?: { table: TableElement; row: number; col: number; isHeader: boolean };
  /**
   * A printed row read across layout blocks (see visualRows): which element each stretch of `text`
   * came from, so a value found in it cites the element that holds the value.
   */
  parts?: RowPart[];
  /** A printed row's stretches between wide gaps (its columns: "Lieferant   Käufer", a label and its value), with their boxes. */
  segments?: RowSegment[];
}

export interface RowSegment { text: string; box: Box; ids: string[] }

export interface RowPart { id: string; start: number; end: number; /** Lowest OCR confidence of its words. */ confidence: number }

export interface DocIndex {
  units: Unit[];
  byPage: Map<number, Unit[]>;
  /** First unit per id (table cells are unique; text sub-lines share their element's id). */
  byId: Map<string, Unit>;
  tables: TableElement[];
  /** Every unit's text, for document-wide hints (date order, currency). */
  texts: string[];
  /**
   * Printed rows read from the page words, across layout blocks (orders continue after `units`);
   * `parts` says which element each stretch of a row's text lies in.
   */
  rows: Unit[];
}

/** A row whose words lie in more than one element: the pairing it shows is not in any unit. */
export const crossesElements = (r: Unit) => new Set((r.parts ?? []).map((p) => p.id)).size > 1;

export function buildIndex(doc: Document): DocIndex {
  const units: Unit[] = [];
  const tables: TableElement[] = [];
  const placedByPage = new Map<number, PlacedWord[]>();
  for (const page of doc.pages) {
    const placed = placeWords(page);
    placedByPage.set(page.number, placed);
    for (const el of page.elements) {
      if ((el.kind === 'text' || readableFigure(el)) && el.id) {
        const own = placed.filter((w) => w.id === el.id);
        const printed = printedLines(page, own, el.text);
        // a figure has no reading confidence of its own: its words' average, as a text element's (1 for a text layer)
        const meta = el.kind === 'text'
          ? { confidence: el.confidence, selected: el.selected, category: el.category }
          : { confidence: own.length ? own.reduce((n, w) => n + w.confidence, 0) / own.length : 1 };
        if (printed && (printed.length > 1 || !el.text.includes('\n'))) {
          // a figure's words are not set in blocks: its columns (a label and its value, the recipient beside
          // the invoice number) are the stretches of a line between wide gaps, as layout would have cut them
          const pieces = el.kind === 'text' ? printed : printed.flatMap((l) => l.segments);
          for (const line of pieces) units.push({ order: units.length, id: el.id, text: line.text, page: page.number, box: line.box, ...meta });
          continue;
        }
        const parts = el.text.split(/\r?\n/).map((t) => t.trim()).filter(Boolean);
        parts.forEach((text, i) => {
          // sub-lines of one element share its id; split the box evenly so geometry stays usable
          const box = el.box && parts.length > 1
            ? { ...el.box, y0: el.box.y0 + ((el.box.y1 - el.box.y0) * i) / parts.length, y1: el.box.y0 + ((el.box.y1 - el.box.y0) * (i + 1)) / parts.length }
            : el.box;
          units.push({ order: units.length, id: el.id!, text, page: page.number, box, ...meta });
        });
      } else if (el.kind === 'table' && el.id) {
        tables.push(el);
        const cells = [...el.cells].sort((a, b) => a.row - b.row || a.col - b.col);
        for (const c of cells) {
          if (!c.id || !c.text.trim()) continue;
          const printed = printedLines(page, placed.filter((w) => w.id === c.id), c.text);
          units.push({
            order: units.length, id: c.id, text: printed ? printed.map((l) => l.text).join(' ') : c.text.trim(), page: page.number, box: c.box, confidence: c.confidence ?? 1,
            cell: { table: el, row: c.row, col: c.col, isHeader: c.isHeader || c.row < el.headerRows },
          });
        }
      }
    }
  }
  const byPage = new Map<number, Unit[]>();
  for (const u of units) byPage.set(u.page, [...(byPage.get(u.page) ?? []), u]);
  const byId = new Map<string, Unit>();
  for (const u of units) if (!byId.has(u.id)) byId.set(u.id, u);
  const rows: Unit[] = [];
  for (const page of doc.pages) for (const r of visualRows(page, placedByPage.get(page.number)!)) rows.push({ ...r, order: units.length + rows.length });
  return { units, byPage, byId, tables, texts: units.map((u) => u.text), rows };
}

/**
 * A page's printed rows top to bottom: the rows read from its words, else (a reader without word
 * boxes) its units grouped by position; undefined without geometry.
 */
export function pageLines(ix: DocIndex, page: number): Unit[] | undefined {
  const fromWords = ix.rows.filter((r) => r.page === page);
  if (fromWords.length) return fromWords;
  const units = (ix.byPage.get(page) ?? []).filter((u) => u.box);
  if (!units.length) return undefined;
  const asWords: PlacedWord[] = units.map((u) => ({ text: u.text, box: u.box!, confidence: u.confidence, id: u.id, cy: (u.box!.y0 + u.box!.y1) / 2, h: height(u.box!) }));
  const byId = new Map(units.map((u) => [u.id, u]));
  return groupRows(asWords).map((r) => {
    const { text, parts, box, segments } = rowText({ number: page, width: 0, height: 0, elements: [], words: [], selectionMarks: [] }, r);
    const last = byId.get(parts[parts.length - 1].id)!;
    return { order: last.order, id: last.id, text, page, box, confidence: Math.min(...r.words.map((w) => w.confidence)), parts, segments };
  });
}

/** The unit (element line, cell or row) with this reading-order index. */
export const unitAt = (ix: DocIndex, order: number): Unit | undefined => (order < ix.units.length ? ix.units[order] : ix.rows[order - ix.units.length]);

/** A page word and the element (text element or table cell id) it lies in. */
export interface PlacedWord { text: string; box: Box; confidence: number; id: string; cy: number; h: number }

interface Holder { id: string; box: Box; text: string }

/** The page's words, each with the element it belongs to (words outside every element are left out). */
export function placeWords(page: Page): PlacedWord[] {
  const holders: Holder[] = [];
  for (const el of page.elements) {
    if ((el.kind === 'text' || readableFigure(el)) && el.id && el.box) holders.push({ id: el.id, box: el.box, text: el.text });
    else if (el.kind === 'table') for (const c of el.cells) if (c.id && c.box && c.text.trim()) holders.push({ id: c.id, box: c.box, text: c.text });
  }
  const placed: PlacedWord[] = [];
  for (const w of page.words ?? []) {
    if (!w.text.trim()) continue;
    const id = holderOf(w, holders);
    if (id) placed.push({ text: w.text.trim(), box: w.box, confidence: w.confidence, id, cy: (w.box.y0 + w.box.y1) / 2, h: height(w.box) });
  }
  return placed;
}

/**
 * Words grouped into printed rows: words whose vertical centres lie within ~0.4 of a line height of
 * each other, top to bottom, each row read left to right.
 */
function groupRows(words: readonly PlacedWord[]): { words: PlacedWord[]; h: number }[] {
  const sorted = [...words].sort((a, b) => a.cy - b.cy);
  const rows: { words: PlacedWord[]; cy: number; h: number }[] = [];
  for (const w of sorted) {
    let best: (typeof rows)[number] | undefined, bestD = Infinity;
    // only the last few rows can still take a word (words come sorted by height on the page)
    for (let k = rows.length - 1; k >= Math.max(0, rows.length - 4); k--) {
      const r = rows[k];
      const d = Math.abs(w.cy - r.cy);
      if (d > 0.4 * Math.max(w.h, r.h) || d >= bestD) continue;
      // a word over another word of the row is a different line of a denser block
      if (r.words.some((o) => Math.min(o.box.x1, w.box.x1) - Math.max(o.box.x0, w.box.x0) > 0.3 * Math.min(o.box.x1 - o.box.x0, w.box.x1 - w.box.x0))) continue;
      best = r; bestD = d;
    }
    if (best) {
      best.words.push(w);
      best.cy = best.words.reduce((s, o) => s + o.cy, 0) / best.words.length;
      best.h = median(best.words.map((o) => o.h));
    } else rows.push({ words: [w], cy: w.cy, h: w.h });
  }
  for (const r of rows) r.words.sort((a, b) => a.box.x0 - b.box.x0);
  return rows;
}

/** A row's text: words joined by a space, a wide gap (a column break) by two, as in a text line. */
function rowText(page: Page, row: { words: PlacedWord[]; h: number }): { text: string; parts: RowPart[]; box: Box; segments: RowSegment[] } {
  // boxes are normalized per axis: a horizontal gap in row heights needs the page's aspect ratio
  const aspect = page.width > 0 && page.height > 0 ? page.width / page.height : 1;
  const words = row.words;
  let text = '';
  const parts: RowPart[] = [];
  const segments: RowSegment[] = [];
  words.forEach((w, i) => {
    const wide = i > 0 && (w.box.x0 - words[i - 1].box.x1) * aspect > 1.5 * row.h;
    if (i > 0) text += wide ? '  ' : ' ';
    const seg = segments[segments.length - 1];
    if (!seg || wide) segments.push({ text: w.text, box: { ...w.box }, ids: [w.id] });
    else {
      seg.text += ` ${w.text}`;
      seg.box = { x0: Math.min(seg.box.x0, w.box.x0), y0: Math.min(seg.box.y0, w.box.y0), x1: Math.max(seg.box.x1, w.box.x1), y1: Math.max(seg.box.y1, w.box.y1) };
      if (!seg.ids.includes(w.id)) seg.ids.push(w.id);
    }
    const start = text.length;
    text += w.text;
    const last = parts[parts.length - 1];
    if (last && last.id === w.id) { last.end = text.length; last.confidence = Math.min(last.confidence, w.confidence); }
    else parts.push({ id: w.id, start, end: text.length, confidence: w.confidence });
  });
  const box = { x0: Math.min(...words.map((w) => w.box.x0)), y0: Math.min(...words.map((w) => w.box.y0)), x1: Math.max(...words.map((w) => w.box.x1)), y1: Math.max(...words.map((w) => w.box.y1)) };
  return { text, parts, box, segments };
}

/**
 * The printed lines of one element (text element or table cell), from its words. Layout merges the
 * lines of a block into one paragraph ("TOTAL CASH" for a label column printed "TOTAL" over "CASH"),
 * which would make the block one label and pair it with the wrong value; and it joins words across
 * a column gap with one space, so "Total  1  278.61" (quantity, amount) would read as the amount
 * "1 278.61". Undefined (the element's own text is used) for fewer than two words, or when the words
 * do not spell the element's text (a reader that rewrote it).
 */
function printedLines(page: Page, words: readonly PlacedWord[], text: string): { text: string; box: Box; segments: RowSegment[] }[] | undefined {
  if (words.length < 2) return undefined;
  const rows = groupRows(words);
  const alnum = (s: string) => s.replace(/[^\p{L}\p{N}]/gu, '').length;
  const fromWords = words.reduce((n, w) => n + alnum(w.text), 0), own = alnum(text);
  if (Math.abs(fromWords - own) > 0.1 * Math.max(own, 1)) return undefined;
  return rows.map((r) => { const t = rowText(page, r); return { text: t.text, box: t.box, segments: t.segments }; });
}

/**
 * The page's printed rows, whatever block the layout put their words in. OCR and layout analysis
 * often split a receipt row ("Total Sales (Inclusive of GST)        64.50") into a label block and
 * an amount block, so the row a label and its value share is lost; here each row's words cite the
 * element they lie in.
 */
export function visualRows(page: Page, placed: readonly PlacedWord[]): Omit<Unit, 'order'>[] {
  const out: Omit<Unit, 'order'>[] = [];
  for (const r of groupRows(placed)) {
    const { text, parts, box, segments } = rowText(page, r);
    out.push({ id: parts[parts.length - 1].id, text, page: page.number, box, confidence: Math.min(...r.words.map((w) => w.confidence)), parts, segments });
  }
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/**
 * A picture with printed words on it, read as text: layout takes a header band or a framed block drawn
 * over an image (the issuer's name, the sender line, the recipient, the invoice number) for a figure,
 * and its words become the figure's text. They are the page's words all the same. A chart's words are
 * its ticks and legend, not the document's, and stay out.
 */
const readableFigure = (el: Page['elements'][number]): el is FigureElement => el.kind === 'figure' && el.visualType === 'image' && /[\p{L}\p{N}]/u.test(el.text ?? '');

/** The element a word belongs to: the smallest box around its centre, preferring one whose text has the word. */
function holderOf(w: { text: string; box: Box }, holders: readonly Holder[]): string | undefined {
  const cx = (w.box.x0 + w.box.x1) / 2, cy = (w.box.y0 + w.box.y1) / 2;
  const pad = 0.25 * height(w.box);
  let best: Holder | undefined, bestArea = Infinity, bestHasText = false;
  for (const u of holders) {
    const b = u.box;
    if (cx < b.x0 - pad || cx > b.x1 + pad || cy < b.y0 - pad || cy > b.y1 + pad) continue;
    const hasText = u.text.includes(w.text);
    const area = (b.x1 - b.x0) * (b.y1 - b.y0);
    if ((hasText && !bestHasText) || (hasText === bestHasText && area < bestArea)) { best = u; bestArea = area; bestHasText = hasText; }
  }
  return best?.id;
}

const height = (b: Box) => Math.max(1e-3, b.y1 - b.y0);

/** The nearest unit to the right on the same row (vertical overlap), within half a page. */
export function rightOf(ix: DocIndex, u: Unit): Unit | undefined {
  if (u.cell) return nextCell(ix, u, 0, 1);
  if (!u.box) return undefined;
  const b = u.box;
  let best: Unit | undefined, bestGap = 0.5;
  for (const v of ix.byPage.get(u.page) ?? []) {
    if (v === u || !v.box || v.cell || !/[\p{L}\p{N}]/u.test(v.text)) continue; // "DATE  :  09/01/2019": skip the lone colon
    const overlap = Math.min(b.y1, v.box.y1) - Math.max(b.y0, v.box.y0);
    if (overlap < 0.5 * Math.min(height(b), height(v.box))) continue;
    const gap = v.box.x0 - b.x1;
    if (gap < -0.01 || gap >= bestGap) continue;
    best = v; bestGap = gap;
  }
  return best;
}

/** The first unit below (horizontally overlapping), within about three line heights. */
export function below(ix: DocIndex, u: Unit): Unit | undefined {
  if (u.cell) return nextCell(ix, u, 1, 0);
  if (!u.box) {
    const next = ix.units[u.order + 1];
    return next && next.page === u.page && next.id !== u.id && !next.cell ? next : undefined;
  }
  const b = u.box;
  const limit = Math.max(0.04, 3.5 * height(b));
  let best: Unit | undefined, bestGap = limit;
  for (const v of ix.byPage.get(u.page) ?? []) {
    if (v === u || !v.box || v.cell || !/[\p{L}\p{N}]/u.test(v.text)) continue;
    const gap = v.box.y0 - b.y1;
    const hOverlap = Math.min(b.x1, v.box.x1) - Math.max(b.x0, v.box.x0);
    if (gap < -0.002 || gap >= bestGap || hOverlap <= 0) continue;
    best = v; bestGap = gap;
  }
  return best;
}

/** The next non-empty cell in a direction, skipping empty cells ("Total | | | 1,299.50"). */
function nextCell(ix: DocIndex, u: Unit, dRow: number, dCol: number): Unit | undefined {
  const { table, row, col } = u.cell!;
  for (let r = row + dRow, c = col + dCol; r < table.rows && c < table.cols; r += dRow, c += dCol) {
    const hit = ix.byId.get(`${table.id}-r${r}c${c}`);
    if (hit) return hit;
    if (dRow) return undefined; // below: only the adjacent row
  }
  return undefined;
}
