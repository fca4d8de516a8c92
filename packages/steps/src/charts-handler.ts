import { creditsFor } from '@quire/core';
import { defineJobHandler } from '@quire/jobs';
import { reconstructCharts } from '@quire/tables';
import { readDrawnCharts } from './chart-readings.js';
import { chartsCsv, chartsWorkbook } from './chart-workbook.js';
import { loadSavedExtraction } from './saved-extraction.js';

/**
 * The charts job: reload the saved extraction and reconstruct every chart whose series Office cached
 * with it (see reconstructCharts), 1 credit per reconstructed chart. Charts drawn
 * as vectors in a PDF carry the series read off the drawing at extraction (packages/layout/src/charts)
 * and come back like office charts. Raster charts have no series: a configured vision model reads them
 * off their picture (readDrawnCharts), else they are listed under not_converted with the reason. Each
 * chart, and the whole set, also comes as an XLSX workbook with a native chart (chart-workbook.ts). The
 * result lives on the job; no artifact chains on it.
 */
export const chartsHandler = defineJobHandler('charts', async (ctx) => {
  const { input } = ctx.job;
  const saved = await loadSavedExtraction(ctx, input.extraction_id);
  await ctx.checkpoint(0, 1);
  const { readings, unreadable } = await readDrawnCharts(ctx, saved, input.extraction_id);
  const out = reconstructCharts(saved.document, unreadable, readings);
  // XLSX exports: one workbook per chart and one for the whole extraction (base64 in the JSON result)
  const base64 = (b: Uint8Array) => Buffer.from(b).toString('base64');
  const charts = [];
  for (const c of out.charts) charts.push({ ...c, exports: { ...c.exports, xlsx: base64(await chartsWorkbook([c])) } });
  const exports = out.charts.length ? { csv: chartsCsv(out.charts), xlsx: base64(await chartsWorkbook(out.charts)) } : undefined;
  await ctx.checkpoint(1, 1);
  return {
    result: { charts_id: ctx.job.id, extraction_id: input.extraction_id, charts, not_converted: out.not_converted, ...(exports ? { exports } : {}) },
    credits: creditsFor('charts', { charts: out.charts.length }),
    pages: 0,
    artifacts: [],
  };
});
