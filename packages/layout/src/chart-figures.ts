import type { Box, RawPage, RawWord } from '@quire/core';
import { boxArea, intersection } from '@quire/core';
import { readDrawnCharts } from './charts/index.js';
import type { FigureCandidate } from './figures.js';

const DRAWING_MODEL = 'quire-drawn-chart-v1';

/**
 * Charts drawn as vector graphics become chart figures carrying the series read off the drawing, so
 * /charts and charts_to_tables return them like office charts. The figure covers the plot, its axis
 * labels and legend; the words there become the figure's text.
 */
export function drawnChartFigures(raw: RawPage, words: readonly RawWord[]): FigureCandidate[] {
  if (raw.source !== 'text-layer' || !raw.paths) return [];
  return readDrawnCharts(raw, words).map(({ box, chart }) => ({
    figure: {
      kind: 'figure', page: raw.number, box: { ...box }, visualType: 'chart', text: '', chart,
      classification: { confidence: chart.drawn?.confidence ?? 0.8, model: DRAWING_MODEL },
      extra: { chartType: chart.chartType },
    },
    capture: { ...box },
  }));
}

/** A box (a drawing cluster, a grid of rules) mostly inside a drawn chart: part of the chart. */
export const coveredByChart = (charts: readonly FigureCandidate[], box: Box | null): boolean =>
  !!box && charts.some((c) => intersection(c.figure.box!, box) >= 0.5 * boxArea(box));
