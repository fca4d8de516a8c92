import { randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { QuireError, creditsFor, parsePageRange } from '@quire/core';
import { ClassifyOptionsSchema, type ClassifyOptions } from '@quire/contracts';
import { CLASSIFY_PAGES, classifyPagePlan } from '@quire/classify';
import type { PipelineCandidate } from '@quire/models';
import type { JobInput } from '@quire/queue';
import type { Organization } from '@quire/storage';
import type { GatewayDeps } from '../deps.js';
import { receiveDocument } from '../intake/receive-document.js';
import { inspectReceived } from '../intake/inspect-stored.js';
import { requireArtifact } from '../http/artifacts.js';
import { respondWithJob } from '../http/job-responses.js';
import { parseOrThrow } from '../http/validate.js';

/**
 * POST /classify: a document (multipart file or file_url) or a saved extraction_id, routed to one of
 * the organization's pipelines (or the pipeline_ids / inline pipelines named in the request).
 * Billed 0.5 credit per page read: the first 5 pages (or page_range) of PDFs and images; office
 * and HTML files bill every page.
 */
export function classifyRoutes(deps: GatewayDeps): Router {
  const r = Router();
  r.post('/classify', (req, res) => handleClassify(req, res, deps));
  return r;
}

async function handleClassify(req: Request, res: Response, deps: GatewayDeps): Promise<void> {
  const org = req.org!;
  const jobId = randomUUID();
  const prefix = `${org.id}/${jobId}/`;
  const { fields, document } = await receiveDocument(req, deps, prefix);
  try {
    const opts = parseOrThrow(ClassifyOptionsSchema, fields);
    const pageRange = opts.page_range ?? opts.pages;
    if (pageRange !== undefined) parsePageRange(pageRange);
    if (document && opts.extraction_id) throw new QuireError('REQ_002', 'Send a document (file or file_url) or an extraction_id, not both');
    if (!document && !opts.extraction_id) throw new QuireError('REQ_001', 'No file or URL provided: send a file (multipart), file_url or extraction_id');
    const pipelines = await candidates(deps, org, opts);
    let input: JobInput<'classify'>, quotePages: number;
    if (document) {
      const info = await inspectReceived(deps, document);
      quotePages = classifyPagePlan(info.format, info.pageCount, isPaged(info.format) ? pageRange : undefined).billed;
      input = { blob_key: document.blobKey, format: info.format, filename: document.filename ?? null, size: document.size, page_count: info.pageCount, source: document.source, pipelines };
    } else {
      const artifact = await requireArtifact(deps, org, 'extraction', opts.extraction_id);
      const saved = Number(artifact.data.pages_processed ?? artifact.data.page_count ?? 1);
      quotePages = pageRange ? Math.min(saved, parsePageRange(pageRange).length) : Math.min(saved, CLASSIFY_PAGES);
      input = { extraction_id: artifact.id, pipelines };
    }
    const isAsync = opts.async === true;
    const job = await deps.jobs.submit({
      org, key: req.apiKey!, kind: 'classify', jobId, async: isAsync,
      request: { page_range: pageRange, pipeline_ids: opts.pipeline_ids, inline_pipelines: Boolean(opts.pipelines) },
      input, quoteCredits: creditsFor('classify', { pages: quotePages }), quotePages,
    });
    await respondWithJob(req, res, deps, job, isAsync);
  } catch (e) {
    if (!(await deps.store.jobs.get(jobId))) await deps.blobs.deletePrefix(prefix).catch(() => undefined);
    throw e;
  }
}

const isPaged = (format: string) => ['pdf', 'png', 'jpeg', 'tiff'].includes(format);

/** Inline pipelines, then the named saved ones; with neither, every saved pipeline of the organization. */
async function candidates(deps: GatewayDeps, org: Organization, opts: ClassifyOptions): Promise<PipelineCandidate[]> {
  const out: PipelineCandidate[] = (opts.pipelines ?? []).map((p) => ({ id: p.pipeline_id ?? p.name, name: p.name, description: p.description, keywords: p.keywords }));
  for (const id of opts.pipeline_ids ?? []) {
    const p = await deps.store.configs.getPipeline(org.id, id);
    if (!p) throw new QuireError('STORAGE_002', `pipeline ${id} not found`, { field: 'pipeline_ids', id });
    out.push({ id: p.id, name: p.name, description: p.description, keywords: p.keywords });
  }
  if (!opts.pipelines && !opts.pipeline_ids) {
    for (const p of await deps.store.configs.listPipelines(org.id)) out.push({ id: p.id, name: p.name, description: p.description, keywords: p.keywords });
    if (!out.length) throw new QuireError('REQ_004', 'Missing required parameter: pipelines (this organization has no saved pipelines; create one with POST /pipelines or pass pipelines inline)', { field: 'pipelines' });
  }
  const ids = out.map((p) => p.id);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new QuireError('REQ_003', `Invalid parameter value: pipeline ${dup} is listed twice`, { field: 'pipelines', id: dup });
  return out;
}
