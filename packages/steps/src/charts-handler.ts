import { creditsFor } from '@quire/core';
import type { JobContext, JobHandler, JobOutcome } from '@quire/runtime';
import { reconstructCharts } from '@quire/tables';
import { languageModelFor } from './language-model.js';
import { loadSavedExtraction } from './saved-extraction.js';

/**
 * The charts job: reload the saved extraction and reconstruct every chart whose series Office cached
 * with it (see reconstructCharts), 1 credit per reconstructed chart. Charts drawn in a PDF or an image
 * have no stored series; they are listed under not_converted (reading values off a chart image is not
 * built yet, with or without a vision model). The result lives on the job; no artifact chains on it.
 */
export const chartsHandler: JobHandler = async (ctx: JobContext): Promise<JobOutcome> => {
  const input = ctx.job.input as { extraction_id: string };
  const { document } = await loadSavedExtraction(ctx, input.extraction_id);
  await ctx.checkpoint(0, 1);
  const lm = languageModelFor(ctx);
  const unreadable = lm.describeFigure
    ? `no series data: the chart is drawn, not stored with its values (PDF or image), and reading values from chart images with the configured model (${lm.id}) is not supported yet`
    : 'no series data: the chart is drawn, not stored with its values (PDF or image), and no chart-reading vision model is configured';
  const out = reconstructCharts(document, unreadable);
  await ctx.checkpoint(1, 1);
  return {
    result: { charts_id: ctx.job.id, extraction_id: input.extraction_id, charts: out.charts, not_converted: out.not_converted },
    credits: creditsFor('charts', { charts: out.charts.length }),
    pages: 0,
    artifacts: [],
  };
};
