import type { ChartData } from '@quire/core';
import { escapeHtml } from './table-render.js';

/**
 * The data of a chart read from its file (office charts keep a cache of every series), as a small
 * categories × series table printed under the chart's placeholder, so a reader of the markdown sees
 * what the chart shows. Large charts are cut to a readable size and the table says what was left out.
 */

/** Rows (categories) and series shown at most; a chart past these is summarized, not dumped. */
export const CHART_TABLE_MAX_ROWS = 60;
export const CHART_TABLE_MAX_SERIES = 12;

export interface ChartGrid {
  /** Header row: an empty corner cell, then one name per series. */
  header: string[];
  rows: string[][];
  /** Why the table is partial ("12 more categories not shown"), or undefined when it is whole. */
  omitted?: string;
}

/** Sheet name of a cell formula ("Data!$B$2:$B$5", "'My data'!$B$2", "(Data!$B$2,Data!$B$4)"), or undefined. */
export function refSheet(ref: string): string | undefined {
  const m = /^\(?(?:'((?:[^']|'')+)'|([^'!(),]+))!/.exec(ref.trim());
  if (!m) return undefined;
  return m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2];
}

/**
 * Whether the markdown already shows the chart's data: every series reads its values (and
 * categories) from a sheet whose cells the document renders as a table (a workbook chart over its
 * own data). Repeating those cells under the chart would say the same thing twice; a chart whose
 * data lives elsewhere (a slide's embedded workbook, a hidden sheet) is shown.
 */
export function chartDataShown(chart: ChartData, renderedSheets: ReadonlySet<string>): boolean {
  if (renderedSheets.size === 0) return false;
  const refs = chart.series.flatMap((s) => [s.refs?.values, s.refs?.categories]).filter((r): r is string => !!r);
  if (refs.length === 0 || refs.length < chart.series.length) return false;
  return refs.every((r) => { const sheet = refSheet(r); return sheet !== undefined && renderedSheets.has(sheet); });
}

const cellText = (v: string | number | null | undefined): string =>
  v === null || v === undefined ? '' : typeof v === 'number' ? formatValue(v) : String(v).replace(/\s+/g, ' ').trim();

/** Numbers as a person would type them: no float noise (0.30000000000000004 → 0.3). */
function formatValue(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return String(Number(n.toPrecision(12)));
}

/** The chart's series as a grid, or null when the chart carries no values to show. */
export function chartGrid(chart: ChartData): ChartGrid | null {
  const series = chart.series.filter((s) => s.values.some((v) => v !== null));
  if (series.length === 0) return null;
  // Series of one chart usually share categories; the longest list labels the rows, and a series
  // without its own categories is read against it by position.
  const categories = series.reduce<(string | number)[]>((best, s) => (s.categories.length > best.length ? s.categories : best), []);
  const rowCount = Math.max(categories.length, ...series.map((s) => s.values.length));
  const shownSeries = series.slice(0, CHART_TABLE_MAX_SERIES);
  const shownRows = Math.min(rowCount, CHART_TABLE_MAX_ROWS);
  const header = ['', ...shownSeries.map((s, i) => cellText(s.name) || `Series ${i + 1}`)];
  const rows: string[][] = [];
  for (let r = 0; r < shownRows; r++) {
    const label = r < categories.length ? cellText(categories[r]) : String(r + 1);
    rows.push([label, ...shownSeries.map((s) => cellText(s.values[r]))]);
  }
  const notes: string[] = [];
  if (rowCount > shownRows) notes.push(`${rowCount - shownRows} more categories`);
  if (series.length > shownSeries.length) notes.push(`${series.length - shownSeries.length} more series`);
  return { header, rows, ...(notes.length ? { omitted: `${notes.join(' and ')} not shown` } : {}) };
}

const pipe = (s: string) => s.replace(/\|/g, '\\|');

/** The grid as a GFM table (the clean markdown). */
export function chartGridMarkdown(grid: ChartGrid): string {
  const line = (cells: string[]) => `| ${cells.map(pipe).join(' | ')} |`;
  const out = [line(grid.header), line(grid.header.map(() => '---')), ...grid.rows.map(line)].join('\n');
  return grid.omitted ? `${out}\n\n(${grid.omitted})` : out;
}

/** The grid as an HTML table, carrying the chart's figure id when given (markdown_with_ids). */
export function chartGridHtml(grid: ChartGrid, figureId?: string): string {
  const tr = (cells: string[], tag: 'th' | 'td') => `<tr>${cells.map((c) => `<${tag}>${escapeHtml(c)}</${tag}>`).join('')}</tr>`;
  const id = figureId === undefined ? '' : ` data-bb-image-id="${escapeHtml(figureId)}"`;
  const table = `<table${id}>${tr(grid.header, 'th')}${grid.rows.map((r) => tr(r, 'td')).join('')}</table>`;
  return grid.omitted ? `${table}\n\n(${escapeHtml(grid.omitted)})` : table;
}
