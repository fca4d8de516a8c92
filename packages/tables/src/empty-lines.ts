import type { CellDraft } from './table-cells.js';

/**
 * Grid lines that separate no text: a column (or row) boundary is kept only where some row (column) has
 * two different cells with text on either side of it, or where the cells beside it do not line up. Double
 * rules (two close rules under a header or around a total) and rule segments that bound no text otherwise
 * add empty rows and columns to a ruled grid. A removed boundary merges each pair of cells across it, one
 * of which is empty and both of which cover the same rows (columns), so no cell with text grows over
 * another. `leadingRows` (a count of rows from the top, such as the header's) is carried over to the
 * merged grid.
 */
export function dropEmptyGridLines(drafts: CellDraft[], rows: number, cols: number, leadingRows = 0): { drafts: CellDraft[]; rows: number; cols: number; leadingRows: number } {
  let cur = drafts, nr = rows, nc = cols, lead = leadingRows;
  for (let changed = true; changed;) {
    changed = false;
    const slots = slotGrid(cur, nr, nc);
    for (let b = 1; b < nc && !changed; b++) {
      const merged = mergeAcross(cur, slots, b, 'col');
      if (merged) { cur = merged; nc--; changed = true; }
    }
    for (let b = 1; b < nr && !changed; b++) {
      const merged = mergeAcross(cur, slots, b, 'row');
      if (merged) { cur = merged; nr--; changed = true; if (b < lead) lead--; }
    }
  }
  return { drafts: cur, rows: nr, cols: nc, leadingRows: lead };
}

/** Drafts with boundary b (before column/row b) removed, or undefined when the boundary separates text. */
function mergeAcross(drafts: CellDraft[], slots: (CellDraft | undefined)[][], b: number, axis: 'col' | 'row'): CellDraft[] | undefined {
  const along = axis === 'col' ? slots.length : (slots[0]?.length ?? 0);
  const at = (i: number, k: number) => (axis === 'col' ? slots[i][k] : slots[k][i]);
  const start = (d: CellDraft) => (axis === 'col' ? d.row : d.col);
  const span = (d: CellDraft) => (axis === 'col' ? d.rowSpan : d.colSpan);
  const pairs = new Map<CellDraft, CellDraft>();
  for (let i = 0; i < along; i++) {
    const before = at(i, b - 1), after = at(i, b);
    if (!before || !after) return undefined;
    if (before === after) continue;
    if (before.words.length > 0 && after.words.length > 0) return undefined;
    if (start(before) !== start(after) || span(before) !== span(after)) return undefined;
    pairs.set(before, after);
  }
  const gone = new Set(pairs.values());
  const shift = (d: CellDraft): CellDraft => {
    const o = { ...d, words: [...d.words], box: { ...d.box } };
    if (axis === 'col') {
      if (o.col >= b) o.col--;
      else if (o.col + o.colSpan > b) o.colSpan--;
    } else if (o.row >= b) o.row--;
    else if (o.row + o.rowSpan > b) o.rowSpan--;
    return o;
  };
  const out: CellDraft[] = [];
  for (const d of drafts) {
    if (gone.has(d)) continue;
    const partner = pairs.get(d);
    const o = shift(d);
    if (partner) {
      const p = shift(partner);
      if (axis === 'col') o.colSpan = p.col + p.colSpan - o.col;
      else o.rowSpan = p.row + p.rowSpan - o.row;
      o.words.push(...p.words);
      o.box = { x0: Math.min(o.box.x0, p.box.x0), y0: Math.min(o.box.y0, p.box.y0), x1: Math.max(o.box.x1, p.box.x1), y1: Math.max(o.box.y1, p.box.y1) };
    }
    out.push(o);
  }
  return out;
}

function slotGrid(drafts: readonly CellDraft[], rows: number, cols: number): (CellDraft | undefined)[][] {
  const slots = Array.from({ length: rows }, () => new Array<CellDraft | undefined>(cols));
  for (const d of drafts) {
    for (let r = d.row; r < Math.min(rows, d.row + d.rowSpan); r++) for (let c = d.col; c < Math.min(cols, d.col + d.colSpan); c++) slots[r][c] = d;
  }
  return slots;
}
