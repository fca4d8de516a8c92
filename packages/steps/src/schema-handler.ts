import { QuireError } from '@quire/core';
import type { JobRequest } from '@quire/queue';
import { defineJobHandler, type JobContext, type JobOutcome } from '@quire/jobs';
import { loadSavedExtraction } from './saved-extraction.js';
import { applySchema, schemaCredits, schemaRecord, type AppliedSchema } from './schema/apply-schema.js';
import { compositeDocument, pagesOf } from './schema/schema-documents.js';

type ExtractionsModeRequest = Extract<JobRequest<'schema'>, { mode: 'single' | 'composite' }>;
type SplitModeRequest = Extract<JobRequest<'schema'>, { mode: 'split' }>;

interface SplitGroup { topic: string; pages: number[]; confidence?: number }

/**
 * The schema job: one saved extraction, several combined (citations `<extraction_id>-<id>`), or
 * the topics of a split (each topic reads only its pages). Every run is a new versioned schema
 * record whose id is the job id.
 */
export const schemaHandler = defineJobHandler('schema', async (ctx) => {
  const { request, input } = ctx.job;
  if (request.mode !== 'split') return extractionMode(ctx, request, input.extraction_ids);
  if (input.split_id === undefined) throw new QuireError('JOB_005', 'This split-mode schema job names no split_id');
  return splitMode(ctx, request, input.split_id);
});

async function extractionMode(ctx: JobContext, req: ExtractionsModeRequest, ids: string[]): Promise<JobOutcome> {
  const { config } = req;
  const parts = [];
  for (const [i, id] of ids.entries()) {
    parts.push({ extractionId: id, document: (await loadSavedExtraction(ctx, id)).document });
    await ctx.checkpoint(i + 1, ids.length + 1);
  }
  const document = req.mode === 'composite' ? compositeDocument(parts) : parts[0].document;
  const applied = await applySchema(ctx.services.languageModel, document, config);
  const pages = document.pages.length;
  const configRef = req.schema_config_id ? { schema_config_id: req.schema_config_id, config_version: req.config_version } : {};
  const { version, artifact } = await schemaRecord(ctx, ctx.job.id, ids[0], req.config_key, {
    mode: req.mode, extraction_ids: ids, ...configRef, schema_output: applied.schema_output,
  });
  return {
    result: {
      schema_id: ctx.job.id, version, schema_output: applied.schema_output,
      ...(req.mode === 'composite' ? { extraction_ids: ids } : {}),
      ...(req.schema_config_id ? { schema_config_id: req.schema_config_id } : {}),
      details: applied.details,
    },
    credits: schemaCredits(pages, config), pages, artifacts: [artifact],
  };
}

async function splitMode(ctx: JobContext, req: SplitModeRequest, splitId: string): Promise<JobOutcome> {
  const split = await ctx.store.artifacts.getForOrg(ctx.org.id, 'split', splitId);
  if (!split) throw new QuireError('STORAGE_002', `split_id ${splitId} not found`, { id: splitId });
  if (split.expired) throw new QuireError('STORAGE_005', `split_id ${splitId} has expired`, { id: splitId });
  const extractionId = String(split.data.extraction_id);
  const { document } = await loadSavedExtraction(ctx, extractionId);
  const groups = (split.data.groups ?? []) as SplitGroup[];
  const lm = ctx.services.languageModel;
  const results: Record<string, AppliedSchema & { pages: number[] }> = {};
  let credits = 0, pages = 0, done = 0;
  const topics = Object.entries(req.topics);
  for (const [topic, config] of topics) {
    // several groups of one topic (two invoices in a packet) are read together: one result per topic
    const topicPages = [...new Set(groups.filter((g) => g.topic === topic).flatMap((g) => g.pages))].sort((a, b) => a - b);
    const applied = await applySchema(lm, pagesOf(document, topicPages), config);
    if (!topicPages.length) applied.details.notes['/'] = `the split has no pages for topic "${topic}"`;
    results[topic] = { schema_output: applied.schema_output, pages: topicPages, details: applied.details };
    credits += schemaCredits(topicPages.length, config);
    pages += topicPages.length;
    await ctx.checkpoint(++done, topics.length);
  }
  const { version, artifact } = await schemaRecord(ctx, ctx.job.id, splitId, req.config_key, {
    mode: 'split', split_id: splitId, extraction_ids: [extractionId],
    results: Object.fromEntries(Object.entries(results).map(([k, v]) => [k, { schema_output: v.schema_output, pages: v.pages }])),
  });
  return {
    result: { schema_id: ctx.job.id, version, split_id: splitId, extraction_ids: [extractionId], results },
    credits: Math.round(credits * 1000) / 1000, pages, artifacts: [artifact],
  };
}
