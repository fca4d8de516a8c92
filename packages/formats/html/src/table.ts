import type { TableCell, TableElement } from '@quire/core';
import { attr, children, DROPPED, isElement, isHidden, type El, type Node } from './dom.js';
import { isDecorative } from './image.js';
import { mathIn, mathMarkdown, mathText } from './math.js';

const BLOCKISH = new Set(['p', 'div', 'li', 'tr', 'br', 'ul', 'ol', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'blockquote', 'table']);

/** Text of a cell: nested tables flattened (cells separated by spaces), blocks and <br> on their own lines. */
export function cellText(n: Node): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    for (const c of children(node)) {
      if (c.nodeName === '#text') parts.push((c as { value: string }).value);
      else if (isElement(c) && c.tagName === 'math') pushMath(parts, c);
      else if (isElement(c) && isHidden(c)) for (const m of mathIn(c)) pushMath(parts, m);
      else if (isElement(c) && !DROPPED.has(c.tagName)) {
        if (c.tagName === 'br') { parts.push('\n'); continue; }
        // A picture in a cell (a flag, a rating, an icon with a meaning) reads as its alt text.
        if (c.tagName === 'img') { if (!isDecorative(c)) parts.push(` ${(attr(c, 'alt') ?? '').trim()} `); continue; }
        const block = BLOCKISH.has(c.tagName);
        if (block) parts.push('\n');
        walk(c);
        parts.push(block ? '\n' : c.tagName === 'td' || c.tagName === 'th' ? ' ' : '');
      }
    }
  };
  walk(n);
  return parts.join('').split('\n').map((l) => l.replace(/[\s\u00a0]+/g, ' ').trim()).filter(Boolean).join('\n');
}

function pushMath(parts: string[], math: El) {
  const m = mathText(math);
  if (m.latex) parts.push(` ${mathMarkdown({ ...m, display: false })} `);
}

/** The table's own rows (not those of nested tables): thead first, then body rows, tfoot last. */
function ownRows(table: El): { tr: El; inHead: boolean }[] {
  const head: El[] = [], body: El[] = [], foot: El[] = [];
  for (const c of children(table)) {
    if (!isElement(c) || isHidden(c)) continue;
    if (c.tagName === 'tr') body.push(c);
    else if (c.tagName === 'thead' || c.tagName === 'tbody' || c.tagName === 'tfoot') {
      const rows = children(c).filter((r): r is El => isElement(r) && r.tagName === 'tr' && !isHidden(r));
      (c.tagName === 'thead' ? head : c.tagName === 'tfoot' ? foot : body).push(...rows);
    }
  }
  return [...head.map((tr) => ({ tr, inHead: true })), ...body.map((tr) => ({ tr, inHead: false })), ...foot.map((tr) => ({ tr, inHead: false }))];
}

const span = (v: string | undefined, max: number) => {
  const n = parseInt(v ?? '1', 10);
  return Number.isFinite(n) && n >= 1 ? Math.min(n, max) : 1;
};

/** An HTML <table> as a TableElement: cells placed on the grid around row and column spans. */
export function buildTable(table: El): TableElement {
  const rows = ownRows(table);
  const taken: boolean[][] = [];
  const cells: TableCell[] = [];
  const headRow: boolean[] = [];
  rows.forEach(({ tr, inHead }, r) => {
    let col = 0;
    let allTh = true, any = false;
    for (const c of children(tr)) {
      if (!isElement(c) || (c.tagName !== 'td' && c.tagName !== 'th') || isHidden(c)) continue;
      while (taken[r]?.[col]) col++;
      // rowspan="0" means "to the end of the table"; spans are capped to keep a hostile page small.
      const rowSpan = attr(c, 'rowspan') === '0' ? Math.max(1, rows.length - r) : Math.min(span(attr(c, 'rowspan'), 1000), rows.length - r);
      const colSpan = span(attr(c, 'colspan'), 1000);
      for (let i = 0; i < rowSpan; i++) for (let j = 0; j < colSpan; j++) (taken[r + i] ??= [])[col + j] = true;
      const isHeader = c.tagName === 'th' || inHead;
      allTh &&= isHeader;
      any = true;
      cells.push({ row: r, col, rowSpan, colSpan, text: cellText(c), box: null, isHeader, confidence: 1 });
      col += colSpan;
    }
    headRow[r] = any && allTh;
  });
  let headerRows = 0;
  while (headerRows < rows.length && headRow[headerRows]) headerRows++;
  // A table made only of <th> has no body to head: at most its first row is the header.
  if (headerRows === rows.length) headerRows = rows.length > 1 ? 1 : 0;
  const cols = Array.from(taken, (r) => r?.length ?? 0).reduce((a, b) => Math.max(a, b), 0);
  const nrows = Math.max(rows.length, taken.length);
  return { kind: 'table', page: 1, box: null, rows: nrows, cols, cells: fillEmpty(cells, taken, nrows, cols), confidence: null, headerRows };
}

/** Every grid position is covered: positions no cell reaches become empty cells (ragged rows). */
function fillEmpty(cells: TableCell[], taken: boolean[][], rows: number, cols: number): TableCell[] {
  const out = [...cells];
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) {
    if (!taken[r]?.[c]) out.push({ row: r, col: c, rowSpan: 1, colSpan: 1, text: '', box: null, isHeader: false, confidence: 1 });
  }
  return out.sort((a, b) => a.row - b.row || a.col - b.col);
}

export const tableCaption = (table: El): El | undefined =>
  children(table).find((c): c is El => isElement(c) && c.tagName === 'caption');

/** Layout tables (role=presentation, or a single cell) are read as ordinary content, not as data. */
export function isLayoutTable(table: El): boolean {
  const role = attr(table, 'role');
  if (role === 'presentation' || role === 'none') return true;
  const rows = ownRows(table);
  const cellsInRow = (tr: El) => children(tr).filter((c) => isElement(c) && (c.tagName === 'td' || c.tagName === 'th')).length;
  return rows.length <= 1 && rows.every(({ tr }) => cellsInRow(tr) <= 1);
}
