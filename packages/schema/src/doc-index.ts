import type { Box, Document, TableElement } from '@quire/core';

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
}

export interface DocIndex {
  units: Unit[];
  byPage: Map<number, Unit[]>;
  /** First unit per id (table cells are unique; text sub-lines share their element's id). */
  byId: Map<string, Unit>;
  tables: TableElement[];
  /** Every unit's text, for document-wide hints (date order, currency). */
  texts: string[];
}

export function buildIndex(doc: Document): DocIndex {
  const units: Unit[] = [];
  const tables: TableElement[] = [];
  for (const page of doc.pages) {
    for (const el of page.elements) {
      if (el.kind === 'text' && el.id) {
        const parts = el.text.split(/\r?\n/).map((t) => t.trim()).filter(Boolean);
        parts.forEach((text, i) => {
          // sub-lines of one element share its id; split the box evenly so geometry stays usable
          const box = el.box && parts.length > 1
            ? { ...el.box, y0: el.box.y0 + ((el.box.y1 - el.box.y0) * i) / parts.length, y1: el.box.y0 + ((el.box.y1 - el.box.y0) * (i + 1)) / parts.length }
            : el.box;
          units.push({ order: units.length, id: el.id!, text, page: page.number, box, confidence: el.confidence, selected: el.selected, category: el.category });
        });
      } else if (el.kind === 'table' && el.id) {
        tables.push(el);
        const cells = [...el.cells].sort((a, b) => a.row - b.row || a.col - b.col);
        for (const c of cells) {
          if (!c.id || !c.text.trim()) continue;
          units.push({
            order: units.length, id: c.id, text: c.text.trim(), page: page.number, box: c.box, confidence: c.confidence ?? 1,
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
  return { units, byPage, byId, tables, texts: units.map((u) => u.text) };
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
