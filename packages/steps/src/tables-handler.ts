import { creditsFor } from '@quire/core';
import type { JobContext, JobHandler, JobOutcome } from '@quire/runtime';
import { buildTables, type TableFormat } from '@quire/tables';
import { readDrawnCharts } from './chart-readings.js';
import { loadSavedExtraction } from './saved-extraction.js';

/**
 * The tables job: reload the saved extraction, build the table-first output (merged across pages and
 * with charts converted when asked: stored series, else a vision model's reading when one is
 * configured), charge per output table (+1 per converted chart), and save a 'tables' artifact holding
 * the result. Nothing chains on a tables_id.
 */
export const tablesHandler: JobHandler = async (ctx: JobContext): Promise<JobOutcome> => {
  const { job } = ctx;
  const req = job.request as { merge?: boolean; table_format?: TableFormat; charts_to_tables?: boolean };
  const input = job.input as { extraction_id: string };
  const saved = await loadSavedExtraction(ctx, input.extraction_id);
  await ctx.checkpoint(0, 1);
  const merge = req.merge === true;
  const chartsToTables = req.charts_to_tables === true;
  const charts = chartsToTables ? await readDrawnCharts(ctx, saved, input.extraction_id) : undefined;
  const out = buildTables(saved.document, {
    merge, format: req.table_format ?? 'html', chartsToTables, chartReadings: charts?.readings, unreadableChart: charts?.unreadable,
  });
  await ctx.checkpoint(1, 1);
  const tablesOutput: Record<string, unknown> = { tables: out.tables };
  if (merge) tablesOutput.merges = out.mergeDecisions;
  if (req.charts_to_tables === true && out.unconvertedCharts.length) tablesOutput.charts_not_converted = out.unconvertedCharts;
  const resultBlob = `${ctx.blobPrefix}out/tables.json`;
  await ctx.blobs.put(resultBlob, Buffer.from(JSON.stringify(tablesOutput)), { contentType: 'application/json' });
  return {
    result: { tables_id: job.id, tables_output: tablesOutput },
    credits: creditsFor('tables', { tables: out.tableCount, charts: out.chartCount, merge }),
    pages: 0,
    artifacts: [{
      id: job.id, type: 'tables', parentId: input.extraction_id,
      data: { result_blob: resultBlob, extraction_id: input.extraction_id, table_count: out.tableCount, chart_count: out.chartCount, table_format: req.table_format ?? 'html', merge },
    }],
  };
};
