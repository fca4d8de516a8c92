import type { ChartData, Document, FigureElement, TableElement } from '@quire/core';
import { chartToTable } from './from-chart.js';
import { mergeAcrossPages } from './merge.js';
import { analyzeStructure } from './structure.js';
import type { MergeDecision, TableView } from './table-view.js';
import { tableToHtml } from './to-html.js';
import { tableToJson, type TableJson } from './to-json.js';

export type TableFormat = 'html' | 'json';

/** What a chart-reading model made of one chart picture: its series, or why there are none. */
export type ChartReading = { chart: ChartData; model: string } | { error: string };

export interface TablesOptions {
  merge?: boolean;
  format?: TableFormat;
  chartsToTables?: boolean;
  /** Charts without stored series, read by a vision model beforehand (by figure id). */
  chartReadings?: ReadonlyMap<string, ChartReading>;
  /** Why a chart without stored series and without a reading could not be converted (default: no chart-reading model is configured). */
  unreadableChart?: string;
}

export const NO_CHART_MODEL = 'no series data: the chart is a picture (a raster image, or a drawing whose axes or sectors could not be read), not stored with its values, and no chart-reading vision model is configured';

export interface OutputTable {
  table_content: string | TableJson;
  citations: string[];
  from_chart: boolean;
}

export interface UnconvertedChart {
  id: string;
  page: number;
  reason: string;
}

export interface TablesOutput {
  tables: OutputTable[];
  /** Output tables that came from the extraction's tables (after merging): what per-table credits count. */
  tableCount: number;
  /** Charts converted to tables: what per-chart credits count. */
  chartCount: number;
  unconvertedCharts: UnconvertedChart[];
  mergeDecisions: MergeDecision[];
  views: TableView[];
}

function viewOfTable(t: TableElement): TableView {
  return { id: t.id ?? '', citations: t.id ? [t.id] : [], pages: [t.page], table: t, structure: analyzeStructure(t), fromChart: false, merges: [] };
}

/**
 * The tables step on a saved extraction: every table in document order (tables merged across pages
 * when asked), and with charts_to_tables every chart whose series the extraction holds (office charts
 * keep their cached series, and charts drawn in a PDF or image were read by a vision model when one is
 * configured: opts.chartReadings) as a table in its place. Charts with neither are listed as not
 * converted, with the reason.
 */
export function buildTables(doc: Document, opts: TablesOptions = {}): TablesOutput {
  const views: TableView[] = [];
  const unconvertedCharts: UnconvertedChart[] = [];
  for (const page of doc.pages) {
    for (const el of page.elements) {
      if (el.kind === 'table' && el.rows > 0 && el.cols > 0) views.push(viewOfTable(el));
      else if (el.kind === 'figure' && el.visualType === 'chart' && opts.chartsToTables) {
        const view = chartView(el, opts);
        if (typeof view === 'string') unconvertedCharts.push({ id: el.id ?? '', page: el.page, reason: view });
        else views.push(view);
      }
    }
  }
  const merged = opts.merge ? mergeAcrossPages(views, doc) : views;
  const format = opts.format ?? 'html';
  return {
    tables: merged.map((v) => ({ table_content: format === 'json' ? tableToJson(v) : tableToHtml(v), citations: v.citations, from_chart: v.fromChart })),
    tableCount: merged.filter((v) => !v.fromChart).length,
    chartCount: merged.filter((v) => v.fromChart).length,
    unconvertedCharts,
    mergeDecisions: merged.flatMap((v) => v.merges),
    views: merged,
  };
}

function chartView(fig: FigureElement, opts: TablesOptions): TableView | string {
  let chart = fig.chart, readBy: string | undefined;
  if (!chart) {
    const reading = fig.id ? opts.chartReadings?.get(fig.id) : undefined;
    if (!reading) return opts.unreadableChart ?? NO_CHART_MODEL;
    if ('error' in reading) return reading.error;
    chart = reading.chart;
    readBy = reading.model;
  }
  const series = chart.series.filter((s) => s.values.length > 0);
  if (series.length === 0) return 'the chart stores no cached series values';
  const table = chartToTable(fig, { ...chart, series });
  if (readBy) table.extra = { ...table.extra, read_by: readBy };
  return {
    id: fig.id ?? '', citations: fig.id ? [fig.id] : [], pages: [fig.page], table, structure: analyzeStructure(table), fromChart: true, merges: [],
    chartType: chart.chartType, ...(readBy ? { chartReadBy: readBy } : {}),
  };
}
