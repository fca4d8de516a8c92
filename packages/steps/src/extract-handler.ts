import type { Document, FigureElement, OcrEngine, SourceFormat } from '@quire/core';
import { creditsFor, parsePageRange } from '@quire/core';
import { extractDocument } from '@quire/extract';
import { renderExtraction } from '@quire/render';
import type { JobContext, JobHandler, JobOutcome, NewArtifactSpec } from '@quire/runtime';
import { legacyStructuredOutput } from './schema/legacy-structured-output.js';

/**
 * The extract job: load the staged source, read it into the document model (page by page, with
 * progress and cancellation at each page), render the spec's output, and save the document so
 * tables, schema, split and charts can chain on the extraction_id.
 */
export const extractHandler: JobHandler = async (ctx: JobContext): Promise<JobOutcome> => {
  const { job, blobs, blobPrefix } = ctx;
  const req = job.request as Record<string, unknown>;
  const input = job.input as { blob_key: string; format: SourceFormat; page_count: number };
  const bytes = await blobs.getBytes(input.blob_key);
  const pages = typeof req.pages === 'string' ? parsePageRange(req.pages, input.page_count) : undefined;
  const doc = await extractDocument(bytes, input.format, {
    pages, detectSelections: req.detect_selections === true,
    onPage: (done, total) => ctx.checkpoint(done, total),
    ocr: ctx.services.ocr as OcrEngine | undefined,
  });
  const base = String(req.base_url ?? '');
  const imageFiles = req.show_images === true ? await storeFigureImages(ctx, doc) : new Map<string, string>();
  const output = renderExtraction(doc, {
    imageUrl: (f: FigureElement) => (f.id && imageFiles.has(f.id) ? `${base}/results/${job.id}/images/${imageFiles.get(f.id)}` : undefined),
    includeDescriptions: req.figure_description === true,
    footnoteReferences: req.footnote_references === true,
    detectSelections: req.detect_selections === true,
    chunkSize: typeof req.chunk_size === 'number' ? req.chunk_size : undefined,
    returnHtml: req.return_html === true,
  });
  const processed = doc.pages.length;
  const storage = req.storage !== false;
  const documentBlob = `${blobPrefix}out/document.json`;
  if (storage) await blobs.put(documentBlob, Buffer.from(JSON.stringify(stripImageBytes(doc))), { contentType: 'application/json' });
  const failedPages = doc.pages.filter((p) => p.error).map((p) => ({ page: p.number, code: p.error!.code, message: p.error!.message }));
  const result: Record<string, unknown> = { ...(storage ? { extraction_id: job.id } : {}), ...output };
  if (failedPages.length) result.errors = { code: 'PROC_005', message: 'Partial extraction failure: some pages could not be read', pages: failedPages };
  if (doc.warnings.length) result.warnings = doc.warnings;
  const artifacts: NewArtifactSpec[] = storage ? [{ id: job.id, type: 'extraction', data: { document_blob: documentBlob, page_count: doc.pageCount, pages_processed: processed, format: input.format, ...elementCounts(doc) } }] : [];
  const legacy = req.legacy_schema ? await legacyStructuredOutput(ctx, doc, storage) : undefined;
  if (legacy) {
    Object.assign(result, legacy.fields);
    if (legacy.artifact) artifacts.push(legacy.artifact);
  }
  return {
    result,
    credits: creditsFor('extract', { pages: processed }) + (legacy?.credits ?? 0),
    pages: processed,
    artifacts,
    preferUrlDelivery: input.format === 'xlsx',
  };
};

/** Saves figures that carry image bytes (office/html embedded pictures) as results/{job}/images/{fig-N}.{ext}. */
async function storeFigureImages(ctx: JobContext, doc: Document): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const page of doc.pages) {
    for (const el of page.elements) {
      if (el.kind !== 'figure' || !el.id || !el.image) continue;
      const ext = el.image.mime === 'image/jpeg' ? 'jpg' : el.image.mime === 'image/png' ? 'png' : undefined;
      if (!ext) continue;
      const name = `${el.id}.${ext}`;
      await ctx.blobs.put(`${ctx.blobPrefix}out/images/${name}`, el.image.bytes, { contentType: el.image.mime });
      files.set(el.id, name);
    }
  }
  return files;
}

/** The saved document keeps structure, not image bytes (those are separate blobs). */
function stripImageBytes(doc: Document): Document {
  return { ...doc, pages: doc.pages.map((p) => ({ ...p, elements: p.elements.map((e) => (e.kind === 'figure' && e.image ? { ...e, image: undefined } : e)) })) };
}

/** Table and chart counts saved with the extraction: what /tables quotes its credits from before the job runs. */
function elementCounts(doc: Document): { table_count: number; chart_count: number } {
  let tables = 0, charts = 0;
  for (const p of doc.pages) for (const e of p.elements) {
    if (e.kind === 'table') tables++;
    else if (e.kind === 'figure' && e.visualType === 'chart' && e.chart) charts++;
  }
  return { table_count: tables, chart_count: charts };
}
