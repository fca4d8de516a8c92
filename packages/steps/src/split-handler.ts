import { creditsFor } from '@quire/core';
import { defineJobHandler } from '@quire/jobs';
import { splitsByTopic } from '@quire/split';
import { loadSavedExtraction } from './saved-extraction.js';

/**
 * The split job: segment a saved extraction into page groups per topic through the LanguageModel
 * port, answer one entry per topic, and save a 'split' artifact (split_id = job id) that /schema's
 * split mode reads: data.groups = [{topic, pages (1-indexed original pages), confidence}].
 */
export const splitHandler = defineJobHandler('split', async (ctx) => {
  const { job } = ctx;
  const { input } = job;
  const { document } = await loadSavedExtraction(ctx, input.extraction_id);
  const lm = ctx.services.languageModel;
  const answer = await lm.split({ document, topics: input.topics });
  const allPages = document.pages.map((p) => p.number);
  const { splits, unassigned } = splitsByTopic(answer, input.topics, allPages);
  const pages = document.pages.length;
  const groups = splits.filter((s) => s.pages.length).map((s) => ({ topic: s.name, pages: s.pages, confidence: s.confidence }));
  return {
    result: { split_id: job.id, extraction_id: input.extraction_id, splits, unassigned_pages: unassigned, page_count: pages, model: lm.id },
    credits: creditsFor('split', { pages }),
    pages,
    artifacts: [{
      id: job.id, type: 'split', parentId: input.extraction_id,
      data: { extraction_id: input.extraction_id, groups, documents: splits.map((s) => ({ topic: s.name, documents: s.documents })), topics: input.topics, model: lm.id },
    }],
  };
});
