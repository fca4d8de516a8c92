// TEDS, tree-edit-distance-based similarity of two tables (Zhong et al., "Image-based table recognition:
// data, model, and evaluation", 2020; the PubTabNet measure): each table as an HTML tree
// table > tr > td, where a td carries its colspan/rowspan and its text. Inserting or deleting a node
// costs 1; renaming a node costs 1 when the tags differ or two cells' spans differ, otherwise (two cells
// with the same spans) the normalized Levenshtein distance of their texts, or 0 when only the structure
// is compared. TEDS = 1 − distance / max(node count). The tree edit distance is the Zhang–Shasha
// algorithm from the edit-distance package. Pure functions; tested in tests/support/teds.test.ts.
import editDistance from 'edit-distance';
import { levenshtein, normalizeText } from './text-metrics.mjs';

/**
 * A table as rows of cells { text, rowSpan, colSpan } in HTML order: a spanning cell appears once, in
 * the row where it starts, and the slots it covers are left out of the rows below and to its right.
 * @typedef {{ text: string, rowSpan?: number, colSpan?: number }} TedsCell
 * @typedef {TedsCell[][]} TedsTable
 */

/** Cell text as compared: NFKC, dashes and quotes unified, whitespace collapsed. */
export const tedsText = (s) => normalizeText(s ?? '');

function tree(table, withText) {
  return {
    tag: 'table',
    children: table.map((row) => ({
      tag: 'tr',
      children: row.map((c) => ({ tag: 'td', rowSpan: Math.max(1, c.rowSpan ?? 1), colSpan: Math.max(1, c.colSpan ?? 1), text: withText ? tedsText(c.text) : '' })),
    })),
  };
}

const size = (n) => 1 + (n.children ?? []).reduce((s, c) => s + size(c), 0);

function renameCost(a, b) {
  if (a.tag !== b.tag) return 1;
  if (a.tag !== 'td') return 0;
  if (a.rowSpan !== b.rowSpan || a.colSpan !== b.colSpan) return 1;
  if (a.text === b.text) return 0;
  return levenshtein(a.text, b.text) / Math.max(a.text.length, b.text.length);
}

/** TEDS of a predicted table against the truth, in [0, 1]; withText false compares the structure only. */
export function teds(predicted, truth, { withText = true } = {}) {
  const a = tree(predicted, withText), b = tree(truth, withText);
  const n = Math.max(size(a), size(b));
  const one = () => 1;
  const distance = editDistance.ted(a, b, (node) => node.children ?? [], one, one, renameCost).distance;
  return 1 - distance / n;
}

/**
 * A slot grid ((id | null)[][], a spanning cell's id in every slot it covers) as HTML rows: each cell
 * once, at its top-left slot, with the spans it covers; an empty slot is an empty cell.
 */
export function tableFromSlots(grid, textOf) {
  const rows = grid.length, cols = rows ? Math.max(...grid.map((r) => r.length)) : 0;
  const placed = new Set();
  const out = [];
  for (let r = 0; r < rows; r++) {
    const row = [];
    for (let c = 0; c < cols; c++) {
      const id = grid[r][c];
      if (id == null) { row.push({ text: '' }); continue; }
      if (placed.has(id)) continue;
      placed.add(id);
      let colSpan = 1, rowSpan = 1;
      while (c + colSpan < cols && grid[r][c + colSpan] === id) colSpan++;
      while (r + rowSpan < rows && grid[r + rowSpan][c] === id) rowSpan++;
      row.push({ text: textOf(id), colSpan, rowSpan });
    }
    out.push(row);
  }
  return out;
}

/** A plain grid of texts (a CSV or markdown truth, which records no spans) as HTML rows. */
export const tableFromTexts = (rows) => rows.map((row) => row.map((text) => ({ text })));
