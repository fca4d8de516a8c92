import { randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { QuireError, creditsFor, parsePageRange } from '@quire/core';
import { ExtractOptionsSchema, type ExtractOptions } from '@quire/contracts';
import type { NormalizedExtractOptions } from '@quire/queue';
import type { GatewayDeps } from '../deps.js';
import { receiveDocument } from '../intake/receive-document.js';
import { inspectReceived } from '../intake/inspect-stored.js';
import { baseUrl, respondWithJob } from '../http/job-responses.js';
import { parseOrThrow } from '../http/validate.js';
import { legacySchemaConfig } from '../schema/legacy-extract-schema.js';
import { schemaLimitsOf } from '../schema/plan-schema-job.js';

/** POST /extract, and the deprecated POST /extract_async (same with async forced, message field included). */
export function extractRoutes(deps: GatewayDeps): Router {
  const r = Router();
  r.post('/extract', (req, res) => handleExtract(req, res, deps, false));
  r.post('/extract_async', (req, res) => handleExtract(req, res, deps, true));
  return r;
}

async function handleExtract(req: Request, res: Response, deps: GatewayDeps, forceAsync: boolean): Promise<void> {
  const org = req.org!;
  const jobId = randomUUID();
  const prefix = `${org.id}/${jobId}/`;
  const { fields, document } = await receiveDocument(req, deps, prefix);
  try {
    const opts = parseOrThrow(ExtractOptionsSchema, fields);
    const normalized = normalizeExtractOptions(opts);
    // deprecated inputs: validated before any work, run as a schema step after the extraction
    const legacy = legacySchemaConfig(opts, schemaLimitsOf(deps));
    if (!document) throw new QuireError('REQ_001', 'No file or URL provided: send a file (multipart) or file_url');
    const info = await inspectReceived(deps, document);
    const pages = normalized.pages ? parsePageRange(normalized.pages, info.pageCount) : undefined;
    const pageCount = pages?.length ?? info.pageCount;
    const isAsync = forceAsync || opts.async === true;
    const job = await deps.jobs.submit({
      org, key: req.apiKey!, kind: 'extract', jobId, async: isAsync,
      request: { ...normalized, base_url: baseUrl(req, deps), ...(legacy ? { legacy_schema: legacy.config, legacy_schema_key: legacy.key } : {}) },
      input: { blob_key: document.blobKey, format: info.format, filename: document.filename ?? null, size: document.size, page_count: info.pageCount, source: document.source },
      quoteCredits: creditsFor('extract', { pages: pageCount }) + (legacy ? creditsFor('schema', { pages: pageCount }) : 0), quotePages: pageCount,
    });
    const storageEnabled = normalized.storage !== false;
    await respondWithJob(req, res, deps, job, isAsync, storageEnabled ? { extraction_id: job.id } : {});
  } catch (e) {
    // Nothing was accepted: drop the staged copy. (Accepted jobs keep it until retention.)
    if (!(await deps.store.jobs.get(jobId))) await deps.blobs.deletePrefix(prefix).catch(() => undefined);
    throw e;
  }
}

/** Folds legacy names into the current ones and validates ranges (REQ_005 chunk size, REQ_006 page syntax). */
export function normalizeExtractOptions(o: ExtractOptions): NormalizedExtractOptions {
  const pages = o.pages ?? o.page_range;
  if (pages !== undefined) parsePageRange(pages);
  if (o.chunk_size !== undefined && (o.chunk_size < 100 || o.chunk_size > 10000)) {
    throw new QuireError('REQ_005', `Invalid chunk size ${o.chunk_size} (valid 100 to 10000)`, { chunk_size: o.chunk_size });
  }
  return {
    pages,
    show_images: Boolean(o.figure_processing?.show_images ?? o.extract_figure ?? false),
    figure_description: Boolean(o.figure_processing?.description ?? o.figure_description ?? false),
    footnote_references: Boolean(o.extensions?.footnote_references ?? false),
    chart_data: Boolean(o.extensions?.chart_data ?? false),
    ...(o.extensions?.chunking?.chunk_types ? { chunk_types: o.extensions.chunking.chunk_types } : {}),
    ...(o.extensions?.html_main_content !== undefined ? { html_main_content: Boolean(o.extensions.html_main_content) } : {}),
    detect_selections: Boolean(o.detect_selections ?? false),
    return_html: Boolean(o.return_html ?? false),
    chunk_size: o.chunk_size,
    storage: o.storage?.enabled !== false,
  };
}
