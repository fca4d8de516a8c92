import { creditsFor, parsePageRange, type Document } from '@quire/core';
import { CLASSIFY_PAGES, classifyPagePlan } from '@quire/classify';
import { extractDocument } from '@quire/extract';
import type { JobInput } from '@quire/queue';
import { defineJobHandler, type JobContext } from '@quire/jobs';
import { loadSavedExtraction } from './saved-extraction.js';
import { embeddedImageOcr } from './embedded-image-ocr.js';

/** A staged document to classify (the other input is a saved extraction). */
type StagedClassifyInput = Extract<JobInput<'classify'>, { blob_key: string }>;

/**
 * The classify job: read only the pages classification needs (the first 5 by default, for PDFs and
 * images; office and HTML files are laid out whole), ask the LanguageModel port which pipeline the
 * document belongs to, and return the choice with every candidate's score.
 */
export const classifyHandler = defineJobHandler('classify', async (ctx) => {
  const { job } = ctx;
  const { request: req, input } = job;
  const { document, pageCount, read, billed } = 'extraction_id' in input
    ? await fromExtraction(ctx, input.extraction_id, req.page_range)
    : await fromSource(ctx, input, req.page_range);
  const readSet = new Set(read);
  const reading: Document = { ...document, pages: document.pages.filter((p) => readSet.has(p.number)) };
  const lm = ctx.services.languageModel;
  const answer = await lm.classify({ document: reading, pipelines: input.pipelines, maxPages: reading.pages.length });
  const names = new Map(input.pipelines.map((p) => [p.id, p.name]));
  const scores = answer.scores.map((s) => ({ pipeline_id: s.pipelineId, name: names.get(s.pipelineId) ?? '', score: s.score }));
  const chosen = answer.pipelineId;
  const result = {
    classification_id: job.id,
    pipeline_id: chosen,
    pipeline_name: chosen ? names.get(chosen) ?? null : null,
    confidence: chosen ? scores.find((s) => s.pipeline_id === chosen)?.score ?? 0 : 0,
    scores,
    pages_read: reading.pages.map((p) => p.number),
    page_count: pageCount,
    model: lm.id,
  };
  return {
    result,
    credits: creditsFor('classify', { pages: billed }),
    pages: billed,
    artifacts: [{ id: job.id, type: 'classify', parentId: 'extraction_id' in input ? input.extraction_id : null, data: { pipeline_id: chosen, scores, pages_read: result.pages_read, model: lm.id } }],
  };
});

interface Reading { document: Document; pageCount: number; read: number[]; billed: number }

/** A saved extraction: page_range among its saved pages, else its first 5; billed per page read. */
async function fromExtraction(ctx: JobContext, extractionId: string, pageRange?: string): Promise<Reading> {
  const { document } = await loadSavedExtraction(ctx, extractionId);
  const numbers = document.pages.map((p) => p.number);
  const wanted = pageRange ? new Set(parsePageRange(pageRange)) : undefined;
  const read = wanted ? numbers.filter((n) => wanted.has(n)) : numbers.slice(0, CLASSIFY_PAGES);
  return { document, pageCount: numbers.length, read, billed: read.length };
}

/** The staged file: parses only the pages read (PDFs, images) or the whole file (office, HTML). */
async function fromSource(ctx: JobContext, input: StagedClassifyInput, pageRange?: string): Promise<Reading> {
  const { format } = input;
  const bytes = await ctx.blobs.getBytes(input.blob_key);
  const first = classifyPagePlan(format, input.page_count, pageRange);
  const document = await extractDocument(bytes, format, {
    pages: first.parse,
    limits: ctx.config.parseLimits,
    onPage: (done, total) => ctx.checkpoint(done, total),
    throwIfStopped: ctx.throwIfStopped,
    ocr: ctx.services.ocr,
    embeddedImageOcr: embeddedImageOcr(ctx.config),
  });
  if (first.parse) return { document, pageCount: input.page_count, read: first.read, billed: first.billed };
  // office/HTML: the real page count is known only now
  const plan = classifyPagePlan(format, document.pages.length, pageRange);
  return { document, pageCount: document.pages.length, read: plan.read, billed: plan.billed };
}
