import type { ChartData, ChartSeries } from '@quire/core';
import { parseXmlTree, xAttr, xChild, xChildren, xFindAll, xPath, type XEl } from './tree.js';
import { formatNumber, isDateFormat } from './number-format.js';

/**
 * Reads a DrawingML chart part (`c:chartSpace`, used by both PPTX and XLSX) into ChartData from the
 * caches Office saved with it: plot types, series names, categories, values, scatter x values,
 * bubble sizes, the title, axis titles and the cell formulas that feed each series. Nothing is
 * recomputed from the workbook: the caches are what the chart shows.
 */

const PLOT_NAMES: Record<string, string> = {
  lineChart: 'line', line3DChart: 'line3D', pieChart: 'pie', pie3DChart: 'pie3D', doughnutChart: 'doughnut',
  areaChart: 'area', area3DChart: 'area3D', scatterChart: 'scatter', radarChart: 'radar', bubbleChart: 'bubble',
  stockChart: 'stock', surfaceChart: 'surface', surface3DChart: 'surface3D',
};

/** Chart class of a plot element: bar charts split by direction (barDir col → column). */
function plotTypeOf(plot: XEl): string {
  const dir = xAttr(xChild(plot, 'barDir'), 'val');
  if (plot.local === 'barChart') return dir === 'bar' ? 'bar' : 'column';
  if (plot.local === 'bar3DChart') return dir === 'bar' ? 'bar3D' : 'column3D';
  if (plot.local === 'ofPieChart') return xAttr(xChild(plot, 'ofPieType'), 'val') === 'bar' ? 'barOfPie' : 'pieOfPie';
  return PLOT_NAMES[plot.local] ?? plot.local.replace(/Chart$/, '');
}

export interface ParsedChart extends ChartData {
  /** The OOXML plot element names in order (barChart, lineChart, …), for reference. */
  plots: string[];
}

export function parseChartXml(xml: string, name = 'chart', maxDepth = 256): ParsedChart {
  const root = parseXmlTree(xml, name, maxDepth);
  const chart = xChild(root, 'chart');
  const plotArea = xChild(chart, 'plotArea');
  const plotEls = (plotArea?.children ?? []).filter((c) => c.local.endsWith('Chart'));
  const series: ChartSeries[] = [];
  for (const plot of plotEls) {
    const type = plotTypeOf(plot);
    for (const s of xChildren(plot, 'ser')) series.push(readSeries(s, type));
  }
  const types = [...new Set(series.map((s) => s.plotType ?? ''))].filter(Boolean);
  const plotTypes = plotEls.map(plotTypeOf);
  const chartType = types.length > 1 ? 'combo' : types[0] ?? plotTypes[0] ?? 'unknown';
  const sourceRanges: string[] = [];
  for (const s of series) for (const f of Object.values(s.refs ?? {})) if (f && !sourceRanges.includes(f)) sourceRanges.push(f);
  const out: ParsedChart = { chartType, series, sourceRanges, plots: plotEls.map((p) => p.local) };
  const title = chartTitle(chart, series);
  if (title) out.title = title;
  const axes = axisTitles(plotArea);
  if (axes) out.axes = axes;
  return out;
}

function readSeries(ser: XEl, plotType: string): ChartSeries {
  const refs: NonNullable<ChartSeries['refs']> = {};
  const tx = xChild(ser, 'tx');
  let name = '';
  if (tx) {
    const d = readData(tx);
    name = d.points.filter((p) => p !== null).map(String).join(' ');
    if (!d.points.length) name = xChild(tx, 'v')?.text ?? '';
    if (d.ref) refs.name = d.ref;
  }
  const isXY = plotType === 'scatter' || plotType === 'bubble';
  const catEl = xChild(ser, isXY ? 'xVal' : 'cat') ?? xChild(ser, 'cat');
  const valEl = xChild(ser, isXY ? 'yVal' : 'val') ?? xChild(ser, 'val');
  const cat = catEl ? readData(catEl) : undefined;
  const val = valEl ? readData(valEl) : undefined;
  if (cat?.ref) refs.categories = cat.ref;
  if (val?.ref) refs.values = val.ref;
  const values = (val?.points ?? []).map(toNum);
  const out: ChartSeries = { name, categories: (cat?.points ?? []).map((p) => p ?? ''), values, plotType };
  if (isXY) {
    out.xValues = cat ? cat.points.map(toNum) : values.map((_, i) => i + 1);
    if (!cat) out.categories = out.xValues.map((x) => x ?? '');
  }
  const bubble = xChild(ser, 'bubbleSize');
  if (bubble) {
    const b = readData(bubble);
    out.bubbleSizes = b.points.map(toNum);
    if (b.ref) refs.bubbleSizes = b.ref;
  }
  if (Object.keys(refs).length) out.refs = refs;
  return out;
}

const toNum = (p: string | number | null): number | null => {
  if (p === null || p === '') return null;
  const n = typeof p === 'number' ? p : Number(p);
  return Number.isFinite(n) ? n : null;
};

interface Data { ref?: string; points: (string | number | null)[] }

/**
 * Reads a data source (tx, cat, val, xVal, yVal, bubbleSize): a reference with its cache, or a
 * literal. Points are placed by idx over ptCount, so gaps stay null. Numeric caches with a date
 * format come back as the text the chart shows; other numbers stay numbers.
 */
function readData(el: XEl): Data {
  const holder = el.children.find((c) => /^(strRef|numRef|multiLvlStrRef|strLit|numLit)$/.test(c.local));
  if (!holder) return { points: [] };
  const ref = xChild(holder, 'f')?.text.trim() || undefined;
  const cache = holder.local.endsWith('Lit') ? holder
    : xChild(holder, 'strCache') ?? xChild(holder, 'numCache') ?? xChild(holder, 'multiLvlStrCache');
  if (!cache) return { ref, points: [] };
  const numeric = cache.local === 'numCache' || holder.local === 'numLit';
  if (cache.local === 'multiLvlStrCache') return { ref, points: multiLevel(cache) };
  const fmt = xChild(cache, 'formatCode')?.text ?? 'General';
  const asDate = numeric && isDateFormat(fmt);
  return { ref, points: points(cache, (v, ptFmt) => {
    if (!numeric) return v;
    const n = Number(v);
    if (!Number.isFinite(n)) return v;
    const f = ptFmt ?? fmt;
    return asDate || (ptFmt && isDateFormat(ptFmt)) ? formatNumber(n, f) : n;
  }) };
}

function points(cache: XEl, conv: (v: string, fmt?: string) => string | number): (string | number | null)[] {
  const count = Number(xAttr(xChild(cache, 'ptCount'), 'val') ?? NaN);
  const pts = xChildren(cache, 'pt');
  const n = Number.isFinite(count) ? count : pts.length;
  const out: (string | number | null)[] = new Array(Math.min(n, 1_000_000)).fill(null);
  pts.forEach((pt, k) => {
    const idx = Number(xAttr(pt, 'idx') ?? k);
    const v = xChild(pt, 'v')?.text;
    if (v === undefined || !(idx >= 0)) return;
    const fmt = xAttr(pt, 'formatCode');
    if (idx >= out.length) out.length = idx + 1;
    out[idx] = conv(v, fmt);
  });
  return out.map((p) => (p === undefined ? null : p));
}

/** Multi-level categories: the innermost level (the first `lvl`, the one next to the axis). */
function multiLevel(cache: XEl): (string | null)[] {
  const levels = xChildren(cache, 'lvl').map((l) => points(l, (v) => v));
  if (!levels.length) return [];
  return levels[0].map((p) => (p === null ? null : String(p)));
}

function richText(el: XEl | undefined): string {
  if (!el) return '';
  return xFindAll(el, 'p').map((p) => xFindAll(p, 't').map((t) => t.text).join('')).filter((s) => s.trim()).join(' ').trim();
}

function titleText(title: XEl | undefined): string | undefined {
  const tx = xChild(title, 'tx');
  if (!tx) return undefined;
  const rich = xChild(tx, 'rich');
  if (rich) return richText(rich) || undefined;
  const d = readData(tx);
  const s = d.points.filter((p) => p !== null).join(' ').trim();
  return s || undefined;
}

function chartTitle(chart: XEl | undefined, series: ChartSeries[]): string | undefined {
  const title = xChild(chart, 'title');
  const explicit = titleText(title);
  if (explicit) return explicit;
  // Excel shows the series name as the title of a single-series chart whose title has no text.
  const deleted = xAttr(xChild(chart, 'autoTitleDeleted'), 'val');
  if (title && deleted !== '1' && deleted !== 'true' && series.length === 1 && series[0].name) return series[0].name;
  return undefined;
}

function axisTitles(plotArea: XEl | undefined): ChartData['axes'] | undefined {
  const axes: NonNullable<ChartData['axes']> = {};
  for (const ax of (plotArea?.children ?? []).filter((c) => /^(catAx|valAx|dateAx|serAx)$/.test(c.local))) {
    const t = titleText(xChild(ax, 'title'));
    if (!t) continue;
    const pos = xAttr(xChild(ax, 'axPos'), 'val');
    const key = pos === 'l' || pos === 'r' ? 'y' : 'x';
    if (!axes[key]) axes[key] = { title: t };
  }
  return axes.x || axes.y ? axes : undefined;
}
