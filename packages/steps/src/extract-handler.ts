import { Readable } from 'node:stream';
import type { Document, FigureElement } from '@quire/core';
import { creditsFor, parsePageRange } from '@quire/core';
import { describeFigures, extractDocument, figureImages, type FigureDescriber, type FigureImage } from '@quire/extract';
import type { LanguageModel } from '@quire/models';
import { renderExtraction, renderPageResults, type RenderOptions } from '@quire/render';
import { safeFetch } from '@quire/runtime';
import { jsonPieceStream, defineJobHandler, type JobContext, type NewArtifactSpec } from '@quire/jobs';
import { legacyStructuredOutput } from './schema/legacy-structured-output.js';
import { embeddedImageOcr } from './embedded-image-ocr.js';

/**
 * The extract job: load the staged source, read it into the document model (page by page, with
 * progress and cancellation at each page), render the spec's output, and save the document so
 * tables, schema, split and charts can chain on the extraction_id.
 */
export const extractHandler = defineJobHandler('extract', async (ctx) => {
  const { job, blobs, blobPrefix } = ctx;
  const { request: req, input } = job;
  const bytes = await blobs.getBytes(input.blob_key);
  const pages = req.pages !== undefined ? parsePageRange(req.pages, input.page_count) : undefined;
  const pageRender: RenderOptions = { includeDescriptions: req.figure_description, detectSelections: req.detect_selections };
  let pagesSent = false;
  const doc = await extractDocument(bytes, input.format, {
    pages, detectSelections: req.detect_selections,
    limits: ctx.config.parseLimits,
    // a PDF or image page goes to live followers as soon as it is read, laid out on its own (provisional)
    onPageLaidOut: async (page) => {
      pagesSent = true;
      await ctx.pagesReady(renderPageResults(page, pageRender).map((p) => ({ ...p, provisional: true })));
    },
    htmlMainContent: req.html_main_content,
    embeddedImageOcr: embeddedImageOcr(ctx.config),
    onPage: (done, total) => ctx.checkpoint(done, total),
    throwIfStopped: ctx.throwIfStopped,
    ocr: ctx.services.ocr,
    fetchRemote: input.format === 'html' && ctx.config.htmlFetchImages ? remoteImageFetcher(ctx) : undefined,
  });
  const describe = req.figure_description ? visionDescriber(ctx.services.languageModel) : undefined;
  const images = req.show_images || describe ? await figureImages(doc, input.format, () => blobs.getBytes(input.blob_key), { limits: ctx.config.parseLimits }) : [];
  const imageFiles = req.show_images ? await storeFigureImages(ctx, images) : new Map<string, string>();
  if (req.figure_description) {
    const pictures = new Map<FigureElement, FigureImage>();
    for (const r of images) if ('image' in r) pictures.set(r.figure, r.image);
    await describeFigures(doc, { describe, images: pictures });
  }
  const storage = req.storage;
  const documentBlob = `${blobPrefix}out/document.json`;
  // Saved before the output is rendered, written as it is stored (from a job thread too): the
  // document's JSON (~85 MB for 1,000 dense pages) is never whole in memory, and never next to the output.
  if (storage) await blobs.put(documentBlob, Readable.from(jsonPieceStream(stripImageBytes(doc)), { objectMode: false }), { contentType: 'application/json' });
  const output = renderExtraction(doc, {
    imageUrl: (f: FigureElement) => (f.id && imageFiles.has(f.id) ? `${req.base_url}/results/${job.id}/images/${imageFiles.get(f.id)}` : undefined),
    includeDescriptions: req.figure_description,
    footnoteReferences: req.footnote_references,
    detectSelections: req.detect_selections,
    chunkSize: req.chunk_size,
    chunkTypes: req.chunk_types,
    chartData: req.chart_data,
    returnHtml: req.return_html,
    wordsAsJson: true, // the result is only serialized (jsonPieceStream writes it page by page)
  });
  // Office and HTML documents are read whole: their pages go to live followers now, final.
  if (!pagesSent) await ctx.pagesReady(renderPageResults(doc, pageRender).map((p) => ({ ...p, provisional: false })));
  const processed = doc.pages.length;
  const failedPages = doc.pages.filter((p) => p.error).map((p) => ({ page: p.number, code: p.error!.code, message: p.error!.message }));
  const result: Record<string, unknown> = { ...(storage ? { extraction_id: job.id } : {}), ...output };
  if (failedPages.length) result.errors = { code: 'PROC_005', message: 'Partial extraction failure: some pages could not be read', pages: failedPages };
  if (doc.warnings.length) result.warnings = doc.warnings;
  const artifacts: NewArtifactSpec[] = storage ? [{ id: job.id, type: 'extraction', data: { document_blob: documentBlob, page_count: doc.pageCount, pages_processed: processed, format: input.format, ...elementCounts(doc) } }] : [];
  const legacy = req.legacy_schema && req.legacy_schema_key !== undefined
    ? await legacyStructuredOutput(ctx, doc, { config: req.legacy_schema, key: req.legacy_schema_key }, storage)
    : undefined;
  if (legacy) {
    Object.assign(result, legacy.fields);
    if (legacy.artifact) artifacts.push(legacy.artifact);
  }
  // A page that could not be read (skipped for its size, too large to render, broken) is reported, not billed.
  const billedPages = processed - failedPages.length;
  return {
    result,
    credits: creditsFor('extract', { pages: billedPages }) + (legacy?.credits ?? 0),
    pages: billedPages,
    artifacts,
    preferUrlDelivery: input.format === 'xlsx',
  };
});

/**
 * Saves each figure's picture (figureImages: embedded office/html pictures as they are, PDF figures
 * rendered from their region, image-file figures cropped) as results/{job}/images/{fig-N}.{ext}. A
 * figure that could not be rendered keeps its entry with render_error.
 */
async function storeFigureImages(ctx: JobContext, images: Awaited<ReturnType<typeof figureImages>>): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const r of images) {
    if ('error' in r) { r.figure.extra = { ...r.figure.extra, render_error: r.error }; continue; }
    const name = `${r.figure.id}.${r.image.ext}`;
    await ctx.blobs.put(`${ctx.blobPrefix}out/images/${name}`, r.image.bytes, { contentType: r.image.mime });
    files.set(r.figure.id!, name);
  }
  return files;
}

/** The model's figure description when it has vision, else undefined: figures are then described from their caption and text. */
function visionDescriber(m: LanguageModel): FigureDescriber | undefined {
  return m.supportsVision && m.describeFigure ? m.describeFigure.bind(m) : undefined;
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

const MAX_REMOTE_IMAGE_BYTES = 10 * 1024 * 1024;

/**
 * Remote <img> sources of an HTML upload, fetched only when QUIRE_HTML_FETCH_IMAGES is on, through the
 * file_url SSRF guard (public addresses only unless allow-listed, every redirect re-checked). A failed
 * or non-image fetch is null (the HTML reader reports it in warnings), never a job failure.
 */
function remoteImageFetcher(ctx: JobContext): (url: string) => Promise<{ bytes: Uint8Array; mime: string } | null> {
  const { timeoutMs, allowPrivate, allowHosts } = ctx.config.fileUrl;
  return async (url) => {
    try {
      const r = await safeFetch(url, { timeoutMs, allowPrivate, allowHosts, maxBytes: MAX_REMOTE_IMAGE_BYTES, signal: ctx.signal });
      const mime = String(r.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      const chunks: Buffer[] = [];
      for await (const c of r.body) chunks.push(Buffer.from(c as Uint8Array));
      return mime.startsWith('image/') ? { bytes: Buffer.concat(chunks), mime } : null;
    } catch {
      ctx.signal.throwIfAborted(); // the job was told to stop, not an image that failed
      return null;
    }
  };
}
