import { boxToPolygon, type Polygon, type TableCell, type TableElement } from '@quire/core';

const HTML_SPECIAL = /[&<>"]/;
export const escapeHtml = (s: string) =>
  HTML_SPECIAL.test(s) ? s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;') : s;

const cellHtml = (s: string) => {
  const t = escapeHtml(s.trim());
  return t.includes('\n') ? t.replace(/\r?\n/g, '<br>') : t;
};

export const hasSpans = (t: TableElement) => t.cells.some((c) => c.rowSpan > 1 || c.colSpan > 1);

function rowsOf(table: TableElement): TableCell[][] {
  const rows: TableCell[][] = Array.from({ length: table.rows }, () => []);
  for (const c of table.cells) if (c.row >= 0 && c.row < table.rows) rows[c.row].push(c);
  for (const r of rows) r.sort((a, b) => a.col - b.col);
  return rows;
}

/**
 * HTML rendering of a table: header rows in <thead>, header cells as <th>, spans as rowspan/colspan.
 * With `withIds` the table carries data-bb-table-id and every cell data-bb-cell-id (markdown_with_ids).
 */
export function renderTableHtml(table: TableElement, opts: { withIds?: boolean } = {}): string {
  const rows = rowsOf(table);
  const tr = (cells: TableCell[], header: boolean) => {
    const tds = cells.map((c) => {
      const tag = header || c.isHeader ? 'th' : 'td';
      const attrs = [
        opts.withIds && c.id ? ` data-bb-cell-id="${escapeHtml(c.id)}"` : '',
        c.rowSpan > 1 ? ` rowspan="${c.rowSpan}"` : '',
        c.colSpan > 1 ? ` colspan="${c.colSpan}"` : '',
      ].join('');
      return `<${tag}${attrs}>${cellHtml(c.text)}</${tag}>`;
    });
    return `<tr>${tds.join('')}</tr>`;
  };
  const head = rows.slice(0, table.headerRows).map((r) => tr(r, true)).join('');
  const body = rows.slice(table.headerRows).map((r) => tr(r, false)).join('');
  const idAttr = opts.withIds && table.id ? ` data-bb-table-id="${escapeHtml(table.id)}"` : '';
  return `<table${idAttr}>${head ? `<thead>${head}</thead>` : ''}<tbody>${body}</tbody></table>`;
}

/**
 * Text that markdown would read as HTML ("<m:oMath>", "<b>", "&amp;") is escaped, so the reader sees the
 * characters the document holds instead of a swallowed tag or a decoded entity.
 */
export const escapeMarkdownHtml = (s: string) =>
  (s.includes('<') || s.includes('&') ? s.replace(/&(?=#?[A-Za-z0-9]+;)/g, '&amp;').replace(/<(?=[A-Za-z/!?])/g, '&lt;') : s);

const pipeCell = (s: string) => {
  let t = escapeMarkdownHtml(s.trim());
  if (t.includes('|')) t = t.replace(/\|/g, '\\|');
  return t.includes('\n') ? t.replace(/\r?\n/g, '<br>') : t;
};

/**
 * Markdown for a table: a GFM pipe table when the grid is plain (no spans, at most one header row; the
 * first row serves as the header when none is marked, as GFM needs one), else the HTML table, which
 * GFM renders and which keeps spans and multi-row headers intact.
 */
export function renderTableMarkdown(table: TableElement): string {
  if (table.rows === 0 || table.cols === 0) return '';
  if (hasSpans(table) || table.headerRows > 1) return renderTableHtml(table);
  const grid: string[][] = Array.from({ length: table.rows }, () => Array<string>(table.cols).fill(''));
  for (const c of table.cells) if (c.row < table.rows && c.col < table.cols) grid[c.row][c.col] = pipeCell(c.text);
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const sep = line(Array<string>(table.cols).fill('---'));
  return [line(grid[0]), sep, ...grid.slice(1).map(line)].join('\n');
}

/** Polygon of a cell: its own box, else its span's share of an even grid over the table box, else null. */
export function cellPolygon(table: TableElement, cell: TableCell): Polygon | null {
  if (cell.box) return boxToPolygon(cell.box);
  const b = table.box;
  if (!b || table.rows === 0 || table.cols === 0) return null;
  const w = (b.x1 - b.x0) / table.cols, h = (b.y1 - b.y0) / table.rows;
  return boxToPolygon({
    x0: b.x0 + cell.col * w, x1: b.x0 + (cell.col + cell.colSpan) * w,
    y0: b.y0 + cell.row * h, y1: b.y0 + (cell.row + cell.rowSpan) * h,
  });
}

/** Row boundaries (after row r-1, before r) that no row span crosses: where a table may be split. */
export function safeRowBoundaries(table: TableElement): Set<number> {
  const ok = new Set<number>();
  for (let r = table.headerRows + 1; r < table.rows; r++) ok.add(r);
  for (const c of table.cells) for (let r = c.row + 1; r < c.row + c.rowSpan; r++) ok.delete(r);
  return ok;
}

/** The header rows plus body rows [from, to) as a table of its own (row spans clipped to the slice). */
function sliceTable(table: TableElement, from: number, to: number): TableElement {
  return tableSlicer(table)(from, to);
}

/**
 * `sliceTable` for many slices of one table: the cells are bucketed by row once, so each slice costs
 * its own rows rather than a pass over every cell of the table (a 50,000-row sheet is cut into
 * thousands of chunks).
 */
export function tableSlicer(table: TableElement): (from: number, to: number) => TableElement {
  const h = table.headerRows;
  const header: TableCell[] = [];
  const byRow: TableCell[][] = [];
  for (const c of table.cells) {
    if (c.row < h) header.push(c);
    else (byRow[c.row] ??= []).push(c);
  }
  return (from, to) => {
    const cells: TableCell[] = header.map((c) => ({ ...c, rowSpan: Math.min(c.rowSpan, h - c.row) }));
    for (let r = Math.max(from, h); r < to && r < byRow.length; r++) {
      for (const c of byRow[r] ?? []) cells.push({ ...c, row: c.row - from + h, rowSpan: Math.min(c.rowSpan, to - c.row) });
    }
    return { ...table, rows: h + (to - from), cells };
  };
}
