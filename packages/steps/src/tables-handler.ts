import { creditsFor } from '@quire/core';
import { defineJobHandler } from '@quire/jobs';
import { buildTables } from '@quire/tables';
import { readDrawnCharts } from './chart-readings.js';
import { loadSavedExtraction } from './saved-extraction.js';

/**
 * The tables job: reload the saved extraction, build the table-first output (merged across pages and
 * with charts converted when asked: stored series, else a vision model's reading when one is
 * configured), charge per output table (+1 per converted chart), and save a 'tables' artifact holding
 * the result. Nothing chains on a tables_id.
 */
export const tablesHandler = defineJobHandler('tables', async (ctx) => {
  const { job } = ctx;
  const { request: { merge, table_format: format, charts_to_tables: chartsToTables }, input } = job;
  const saved = await loadSavedExtraction(ctx, input.extraction_id);
  await ctx.checkpoint(0, 1);
  const charts = chartsToTables ? await readDrawnCharts(ctx, saved, input.extraction_id) : undefined;
  const out = buildTables(saved.document, {
    merge, format, chartsToTables, chartReadings: charts?.readings, unreadableChart: charts?.unreadable,
  });
  await ctx.checkpoint(1, 1);
  const tablesOutput: Record<string, unknown> = { tables: out.tables };
  if (merge) tablesOutput.merges = out.mergeDecisions;
  if (chartsToTables && out.unconvertedCharts.length) tablesOutput.charts_not_converted = out.unconvertedCharts;
  const resultBlob = `${ctx.blobPrefix}out/tables.json`;
  await ctx.blobs.put(resultBlob, Buffer.from(JSON.stringify(tablesOutput)), { contentType: 'application/json' });
  return {
    result: { tables_id: job.id, tables_output: tablesOutput },
    credits: creditsFor('tables', { tables: out.tableCount, charts: out.chartCount, merge }),
    pages: 0,
    artifacts: [{
      id: job.id, type: 'tables', parentId: input.extraction_id,
      data: { result_blob: resultBlob, extraction_id: input.extraction_id, table_count: out.tableCount, chart_count: out.chartCount, table_format: format, merge },
    }],
  };
});
