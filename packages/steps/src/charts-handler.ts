import { creditsFor } from '@quire/core';
import { defineJobHandler } from '@quire/jobs';
import { reconstructCharts } from '@quire/tables';
import { readDrawnCharts } from './chart-readings.js';
import { loadSavedExtraction } from './saved-extraction.js';

/**
 * The charts job: reload the saved extraction and reconstruct every chart whose series Office cached
 * with it (see reconstructCharts), 1 credit per reconstructed chart. Charts drawn in a PDF or an image
 * have no stored series: a configured vision model reads them off their picture (readDrawnCharts),
 * else they are listed under not_converted with the reason. The result lives on the job; no artifact
 * chains on it.
 */
export const chartsHandler = defineJobHandler('charts', async (ctx) => {
  const { input } = ctx.job;
  const saved = await loadSavedExtraction(ctx, input.extraction_id);
  await ctx.checkpoint(0, 1);
  const { readings, unreadable } = await readDrawnCharts(ctx, saved, input.extraction_id);
  const out = reconstructCharts(saved.document, unreadable, readings);
  await ctx.checkpoint(1, 1);
  return {
    result: { charts_id: ctx.job.id, extraction_id: input.extraction_id, charts: out.charts, not_converted: out.not_converted },
    credits: creditsFor('charts', { charts: out.charts.length }),
    pages: 0,
    artifacts: [],
  };
});
