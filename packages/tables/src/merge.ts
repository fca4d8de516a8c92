import type { Document, Element, Page, TableCell, TableElement } from '@quire/core';
import { parseCellValue } from './cell-value.js';
import { clean, slotsOf } from './grid.js';
import { analyzeStructure } from './structure.js';
import type { MergeDecision, TableView } from './table-view.js';

/** Merges at or above this confidence are applied. */
const MERGE_THRESHOLD = 0.6;

interface Piece { view: TableView; source: TableElement; page: Page }

/**
 * Joins tables that continue across a page break: the earlier one is the last content on its page (page
 * furniture aside) and the later one the first content on the next page, with the same column count,
 * column edges at the same x positions and the same kind of content per column. A header repeated on the
 * continuation is dropped; a continuation whose first row only finishes wrapped text of the previous
 * row (empty stub, text only where the previous row had text) is stitched onto that row. Every
 * candidate pair gets a decision with its confidence, merged or not.
 */
export function mergeAcrossPages(views: TableView[], doc: Document): TableView[] {
  if (!['pdf', 'png', 'jpeg', 'tiff'].includes(doc.format)) return views;
  const pageOf = new Map(doc.pages.map((p) => [p.number, p]));
  const out: TableView[] = [];
  let prev: Piece | undefined;
  for (const view of views) {
    const page = pageOf.get(view.pages[0]);
    const source = view.table;
    if (view.fromChart || !page || !source.box) { out.push(view); prev = undefined; continue; }
    if (prev && prev.page.number + 1 === page.number) {
      const decision = decide(prev, { view, source, page });
      if (decision) {
        const target = out[out.length - 1];
        target.merges.push(decision.decision);
        if (decision.decision.merged) {
          appendTable(target, source, decision.decision, view);
          prev = { view: target, source, page };
          continue;
        }
      }
    }
    out.push(view);
    prev = { view, source, page };
  }
  return out;
}

const FURNITURE = (e: Element) =>
  e.kind === 'text' && (e.category === 'Footer' || e.category === 'Page Number' || (e.category === 'Header' && e.extra?.running === true) ||
    (e.category === 'caption' && /contin|cont\.|\(cont/i.test(e.text)));

/** Nothing but page furniture after (below) the table on its page / before (above) it on the next. */
function lastOnPage(t: TableElement, page: Page): boolean {
  return !page.elements.some((e) => e !== t && !FURNITURE(e) && e.box && e.box.y0 >= t.box!.y1 - 0.005 && !(e.kind === 'text' && e.category === 'caption' && e.captionFor === t.id));
}
function firstOnPage(t: TableElement, page: Page): boolean {
  return !page.elements.some((e) => e !== t && !FURNITURE(e) && e.box && e.box.y1 <= t.box!.y0 + 0.005 && !(e.kind === 'text' && e.category === 'caption' && e.captionFor === t.id));
}

/** Median left and right edge of each column from its single-column cells. */
function columnEdges(t: TableElement): ([number, number] | undefined)[] {
  const acc: [number[], number[]][] = Array.from({ length: t.cols }, () => [[], []]);
  for (const c of t.cells) if (c.colSpan === 1 && c.box && c.col < t.cols) { acc[c.col][0].push(c.box.x0); acc[c.col][1].push(c.box.x1); }
  const med = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1];
  return acc.map(([l, r]) => (l.length ? [med(l), med(r)] : undefined));
}

function columnKinds(t: TableElement, from: number): ('q' | 's' | undefined)[] {
  const slots = slotsOf(t);
  return Array.from({ length: t.cols }, (_, c) => {
    let q = 0, s = 0;
    for (let r = from; r < t.rows; r++) {
      const cell = slots[r][c];
      if (!cell || cell.col !== c || !clean(cell.text)) continue;
      const ty = parseCellValue(cell.text).type;
      if (ty === 'string') s++; else if (ty !== 'empty') q++;
    }
    return q + s === 0 ? undefined : q >= s ? 'q' : 's';
  });
}

const rowTexts = (t: TableElement, r: number) => slotsOf(t)[r].map((c) => (c ? clean(c.text).toLowerCase() : ''));

function decide(a: Piece, b: Piece): { decision: MergeDecision } | undefined {
  const A = a.source, B = b.source;
  const reasons: string[] = [];
  const base = { from: A.id ?? '', to: B.id ?? '', merged: false, droppedHeaderRows: 0, stitchedRow: false };
  const end = lastOnPage(A, a.page), start = firstOnPage(B, b.page);
  if (!end || !start) return undefined; // not a candidate pair: other content sits at the break
  if (A.cols !== B.cols) return { decision: { ...base, confidence: 0.2, reasons: [`column count differs (${A.cols} vs ${B.cols})`] } };
  reasons.push('last table on its page and first on the next', `same column count (${A.cols})`);
  // x positions
  const ea = columnEdges(A), eb = columnEdges(B);
  let diff = 0, n = 0;
  for (let c = 0; c < A.cols; c++) if (ea[c] && eb[c]) { diff += Math.abs(ea[c]![0] - eb[c]![0]) + Math.abs(ea[c]![1] - eb[c]![1]); n += 2; }
  const xScore = n ? Math.max(0, 1 - diff / n / 0.04) : 0.5;
  reasons.push(`column edges ${n ? `differ by ${(diff / n * 100).toFixed(1)}% of page width` : 'unknown'}`);
  // repeated header
  const sa = analyzeStructure(A), sb = analyzeStructure(B);
  let dropped = 0;
  while (dropped < sa.headerRows && dropped < B.rows - 1 && rowTexts(A, dropped).join('|') === rowTexts(B, dropped).join('|')) dropped++;
  if (dropped < sa.headerRows) dropped = 0;
  let headerScore: number;
  if (dropped > 0) { headerScore = 1.0; reasons.push(`header repeated (${dropped} row${dropped > 1 ? 's' : ''} dropped)`); }
  else if (sb.headerRows === 0) { headerScore = 0.95; reasons.push('continuation has no header of its own'); }
  else { headerScore = 0.5; reasons.push('continuation has a different header'); }
  // content kinds per column
  const ka = columnKinds(A, sa.headerRows), kb = columnKinds(B, dropped || sb.headerRows);
  let agree = 0, compared = 0;
  for (let c = 0; c < A.cols; c++) if (ka[c] && kb[c]) { compared++; if (ka[c] === kb[c]) agree++; }
  const typeScore = compared ? agree / compared : 0.5;
  reasons.push(`column content types agree in ${agree}/${compared}`);
  // each factor can veto on its own: columns elsewhere, other kinds of content, or a header of its own
  const confidence = Math.round((0.5 + 0.5 * xScore) * (0.55 + 0.45 * typeScore) * headerScore * 1000) / 1000;
  const merged = confidence >= MERGE_THRESHOLD;
  const stitchedRow = merged && splitRow(A, B, dropped);
  if (stitchedRow) reasons.push('first row continues the previous row');
  return { decision: { ...base, merged, confidence, droppedHeaderRows: merged ? dropped : 0, stitchedRow, reasons } };
}

/**
 * The continuation's first body row only finishes the previous row: it has text only where the previous
 * row has text (wrapped cells) and is empty where the previous row has quantities, with fewer filled
 * cells than the previous row.
 */
function splitRow(A: TableElement, B: TableElement, from: number): boolean {
  if (from >= B.rows || A.rows === 0) return false;
  const last = slotsOf(A)[A.rows - 1], first = slotsOf(B)[from];
  let filledA = 0, filledB = 0, quantityGap = false;
  for (let c = 0; c < B.cols; c++) {
    const a = last[c], b = first[c];
    const aText = a ? clean(a.text) : '', bText = b ? clean(b.text) : '';
    const aType = parseCellValue(aText).type;
    if (aText) filledA++;
    if (!bText) { if (aText && aType !== 'string') quantityGap = true; continue; }
    filledB++;
    if (b!.rowSpan > 1 || b!.row !== from || !aText || aType !== 'string' || parseCellValue(bText).type !== 'string') return false;
  }
  return filledB > 0 && filledB < filledA && quantityGap;
}

/** Appends B's rows (minus dropped header rows, minus a stitched row) to the view's table. */
function appendTable(target: TableView, B: TableElement, d: MergeDecision, bView: TableView): void {
  const t = target.table;
  const cells: TableCell[] = t.cells.map((c) => ({ ...c }));
  let from = d.droppedHeaderRows;
  if (d.stitchedRow) {
    const lastRow = t.rows - 1;
    for (const bc of B.cells) {
      if (bc.row !== from || !clean(bc.text)) continue;
      const ac = cells.find((c) => c.row <= lastRow && c.row + c.rowSpan > lastRow && c.col <= bc.col && c.col + c.colSpan > bc.col);
      if (ac) ac.text = `${ac.text.trim()} ${bc.text.trim()}`;
    }
    from++;
  }
  const offset = t.rows - from;
  for (const c of B.cells) {
    if (c.row < from) continue;
    cells.push({ ...c, row: c.row + offset, isHeader: false });
  }
  const table: TableElement = { ...t, rows: t.rows + B.rows - from, cells, confidence: t.confidence };
  target.table = table;
  target.citations = [...target.citations, ...bView.citations];
  target.pages = [...new Set([...target.pages, ...bView.pages])];
  target.structure = analyzeStructure(table);
}
