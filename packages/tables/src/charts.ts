import { boxToPolygon, type ChartSeries, type Document, type FigureElement } from '@quire/core';
import type { ChartReading } from './build-tables.js';
import { chartToTable } from './from-chart.js';

/** One chart as POST /charts returns it. */
export interface ChartOutput {
  id: string;
  page: number;
  chart_type: string;
  title: string | null;
  series: {
    name: string;
    plot_type: string | null;
    categories: (string | number)[];
    values: (number | null)[];
    x_values?: (number | null)[];
    bubble_sizes?: (number | null)[];
    /** Cell formulas feeding the series (office charts). */
    source_ranges?: { name?: string; categories?: string; values?: string; bubble_sizes?: string };
    /** Charts read from a PDF drawing: true where the value lies between ticks (interpolated on the scale). */
    interpolated?: boolean[];
    /** Charts read from a PDF drawing: each point's mark on the page (normalized polygon), null for a missing point. */
    mark_boxes?: (number[] | null)[];
  }[];
  axes: { x: { title: string | null }; y: { title: string | null } };
  source: {
    /** Polygon on the page (8 numbers, normalized); empty for spreadsheet charts, which are placed by excel_range. */
    bounding_box: number[];
    sheet_name?: string;
    excel_range?: string;
    source_ranges: string[];
  };
  exports: { csv: string; xlsx?: string };
  /** Charts read from a PDF's vector drawing: how sure, through which scale, and how exact the values are. */
  reading?: { confidence: number; value_scale: 'linear' | 'log' | 'share'; uncertainty: number; note: string };
  /** Set when a vision model read the values off the chart's picture (the model id): estimates, not stored data. */
  read_by?: string;
}

export interface ChartNotConverted { id: string; page: number; reason: string }

export interface ChartsResult { charts: ChartOutput[]; not_converted: ChartNotConverted[] }

/**
 * Every chart of a saved extraction, reconstructed from the series Office cached with it: type, title,
 * series (names, categories, values, scatter x, bubble sizes, feeding cell ranges), axis titles, where
 * it sits (page polygon, or sheet and anchor range) and a CSV export (the same grid /tables gives with
 * charts_to_tables). Charts with no stored series (drawn in a PDF or an image) take the series a vision
 * model read off their picture (`readings`, by figure id), else are listed under not_converted with
 * the reading's error or `unreadable` as the reason.
 */
export function reconstructCharts(doc: Document, unreadable: string, readings: ReadonlyMap<string, ChartReading> = new Map()): ChartsResult {
  const charts: ChartOutput[] = [], notConverted: ChartNotConverted[] = [];
  for (const page of doc.pages) for (const el of page.elements) {
    if (el.kind !== 'figure' || el.visualType !== 'chart') continue;
    const id = el.id ?? '';
    const reading = el.chart ? undefined : readings.get(id);
    if (reading && 'error' in reading) { notConverted.push({ id, page: page.number, reason: reading.error }); continue; }
    const chart = el.chart ?? reading?.chart;
    if (!chart) { notConverted.push({ id, page: page.number, reason: unreadable }); continue; }
    const series = chart.series.filter((s) => s.values.length > 0);
    if (!series.length) { notConverted.push({ id, page: page.number, reason: 'the chart stores no cached series values' }); continue; }
    charts.push({
      id, page: page.number, chart_type: chart.chartType, title: chart.title ?? null,
      series: series.map(seriesOut),
      axes: { x: { title: chart.axes?.x?.title ?? null }, y: { title: chart.axes?.y?.title ?? null } },
      source: {
        bounding_box: el.box && !el.spreadsheet ? boxToPolygon(el.box) : [],
        ...(el.spreadsheet ? { sheet_name: el.spreadsheet.sheetName, ...(el.spreadsheet.excelRange ? { excel_range: el.spreadsheet.excelRange } : {}) } : {}),
        source_ranges: chart.sourceRanges,
      },
      exports: { csv: chartCsv(el, { ...chart, series }) },
      ...(reading ? { read_by: reading.model } : {}),
      ...(chart.drawn ? { reading: { confidence: chart.drawn.confidence, value_scale: chart.drawn.valueScale, uncertainty: chart.drawn.uncertainty, note: chart.drawn.note } } : {}),
    });
  }
  return { charts, not_converted: notConverted };
}

function seriesOut(s: ChartSeries): ChartOutput['series'][number] {
  const refs = s.refs ? {
    ...(s.refs.name ? { name: s.refs.name } : {}), ...(s.refs.categories ? { categories: s.refs.categories } : {}),
    ...(s.refs.values ? { values: s.refs.values } : {}), ...(s.refs.bubbleSizes ? { bubble_sizes: s.refs.bubbleSizes } : {}),
  } : undefined;
  return {
    name: s.name, plot_type: s.plotType ?? null, categories: s.categories, values: s.values,
    ...(s.xValues?.length ? { x_values: s.xValues } : {}), ...(s.bubbleSizes?.length ? { bubble_sizes: s.bubbleSizes } : {}),
    ...(refs && Object.keys(refs).length ? { source_ranges: refs } : {}),
    ...(s.interpolated ? { interpolated: s.interpolated } : {}),
    ...(s.markBoxes ? { mark_boxes: s.markBoxes.map((b) => (b ? boxToPolygon(b) : null)) } : {}),
  };
}

/** RFC 4180 CSV of the chart's table (header row, then one row per category or point); CRLF line ends. */
function chartCsv(fig: FigureElement, chart: NonNullable<FigureElement['chart']>): string {
  const table = chartToTable(fig, chart);
  const grid: string[][] = Array.from({ length: table.rows }, () => Array<string>(table.cols).fill(''));
  for (const c of table.cells) grid[c.row][c.col] = c.text;
  const field = (v: string) => (/[",\r\n]/.test(v) || /^\s|\s$/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  return grid.map((r) => r.map(field).join(',')).join('\r\n') + '\r\n';
}
