import type { TableCell } from '@quire/core';
import { rowsOf } from './grid.js';
import type { TableView } from './table-view.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const cellHtml = (s: string) => esc(s.trim()).replace(/\r?\n/g, '<br>');

/**
 * HTML for one output table: header rows in <thead> with th scope="col" (colgroup when spanning),
 * stub cells as th scope="row", spans as rowspan/colspan, total and section rows marked with
 * data-row-role. The table names its id (data-bb-table-id), a merged table the ids it was merged from
 * (data-merged-from, comma-separated), a chart-derived one its source figure (data-from-chart).
 */
export function tableToHtml(view: TableView): string {
  const { table, structure } = view;
  const rows = rowsOf(table);
  const h = structure.headerRows;
  const tr = (cells: TableCell[], r: number) => {
    const inHead = r < h;
    const tds = cells.map((c) => {
      const stub = !inHead && c.col < structure.stubCols;
      const tag = inHead || stub || c.isHeader ? 'th' : 'td';
      const scope = inHead ? (c.colSpan > 1 ? 'colgroup' : 'col') : stub ? (c.rowSpan > 1 ? 'rowgroup' : 'row') : '';
      const attrs = [
        scope ? ` scope="${scope}"` : '',
        c.rowSpan > 1 ? ` rowspan="${c.rowSpan}"` : '',
        c.colSpan > 1 ? ` colspan="${c.colSpan}"` : '',
        c.id ? ` data-bb-cell-id="${esc(c.id)}"` : '',
      ].join('');
      return `<${tag}${attrs}>${cellHtml(c.text)}</${tag}>`;
    });
    const role = structure.rowRoles[r];
    return `<tr${role === 'total' || role === 'section' ? ` data-row-role="${role}"` : ''}>${tds.join('')}</tr>`;
  };
  const head = rows.slice(0, h).map((cells, i) => tr(cells, i)).join('');
  const body = rows.slice(h).map((cells, i) => tr(cells, h + i)).join('');
  const attrs = [
    ` data-bb-table-id="${esc(view.id)}"`,
    view.citations.length > 1 ? ` data-merged-from="${esc(view.citations.join(','))}"` : '',
    view.fromChart ? ` data-from-chart="${esc(view.citations[0])}"` : '',
    view.chartReadBy ? ` data-chart-read-by="${esc(view.chartReadBy)}"` : '',
  ].join('');
  return `<table${attrs}>${head ? `<thead>${head}</thead>` : ''}<tbody>${body}</tbody></table>`;
}
