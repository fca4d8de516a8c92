import { Router } from 'express';
import { QuireError } from '@quire/core';
import type { GatewayDeps } from '../deps.js';
import { PageRenderer } from '../page-images/page-renderer.js';
import { RENDERABLE_FORMATS, type RenderableFormat, isRenderable } from '../page-images/render-source-page.js';
import type { JobRecord } from '@quire/storage';

/** dpi bounds of a page image: 36 is a thumbnail, 300 a print-quality render (a letter page is 2550×3300 px there). */
export const PAGE_IMAGE_DPI = { min: 36, max: 300, default: 110 } as const;

/**
 * GET /results/{jobId}/pages/{n}.png?dpi=&of=: page n of the job's source document (of=output: the
 * PDF a form fill or clear produced) as PNG, for the playground's overlays (or any client that draws boxes). Same key and organization rules as the other
 * /results routes: another organization's job is not found (STORAGE_002). Documents Quire does not
 * draw (DOCX, PPTX, XLSX, HTML) are FILE_001 naming the formats it does.
 */
export function pageImageRoutes(deps: GatewayDeps): Router {
  const r = Router();
  const renderer = new PageRenderer();
  // the same pattern as its OpenAPI entry (route-docs.ts)
  r.get('/results/:jobId/pages/:page.png', async (req, res) => {
    if (!/^\d{1,6}$/.test(req.params.page)) throw new QuireError('REQ_003', 'Page images are named {n}.png, n the page number from 1', { page: req.params.page });
    const page = Number(req.params.page);
    if (page < 1) throw new QuireError('REQ_006', 'Pages are numbered from 1', { page });
    const dpi = dpiOf(req.query.dpi);
    const which = of(req.query.of);
    const job = await deps.store.jobs.getForOrg(req.org!.id, req.params.jobId);
    if (!job) throw new QuireError('STORAGE_002', 'Results not found', { job_id: req.params.jobId });
    if (job.status === 'expired') throw new QuireError('JOB_003', 'Job expired: its document was removed by the retention policy', { job_id: job.id });
    const { bytes, format } = await (which === 'output' ? outputPdf(deps, job) : sourceDocument(deps, job));
    const image = await renderer.render(bytes, format, page, dpi);
    res.setHeader('x-page-count', String(image.pageCount));
    res.setHeader('cache-control', 'private, max-age=300');
    res.type('image/png').send(Buffer.from(image.png.buffer, image.png.byteOffset, image.png.byteLength));
  });
  return r;
}

/** The document a job was given: its stored source, in the format the intake recognized. */
async function sourceDocument(deps: GatewayDeps, job: JobRecord): Promise<{ bytes: Uint8Array; format: RenderableFormat }> {
  const blobKey = typeof job.input.blob_key === 'string' ? job.input.blob_key : undefined;
  if (!blobKey) throw new QuireError('STORAGE_002', 'This job has no source document to draw (it was made from an earlier result)', { job_id: job.id, kind: job.kind });
  const bytes = await stored(deps, blobKey, 'The job\'s source document is no longer stored', job.id);
  // form jobs store PDFs without a format field: they take nothing else
  const format = typeof job.input.format === 'string' ? job.input.format : isPdf(bytes) ? 'pdf' : 'unknown';
  if (!isRenderable(format)) {
    throw new QuireError('FILE_001', `Page images are drawn for ${RENDERABLE_FORMATS.join(', ')} documents; this job's source is ${format}, which Quire reads without drawing pages`, { format, renderable_formats: RENDERABLE_FORMATS });
  }
  return { bytes, format };
}

/** The PDF a form fill or clear produced (GET /results/{jobId}/pdf), so filled values can be seen under their cells. */
async function outputPdf(deps: GatewayDeps, job: JobRecord): Promise<{ bytes: Uint8Array; format: RenderableFormat }> {
  if (job.status !== 'completed') throw new QuireError(job.status === 'failed' ? 'JOB_005' : 'JOB_004', `Job ${job.status}: it has no output PDF`, { job_id: job.id, status: job.status });
  const bytes = await stored(deps, `${job.org_id}/${job.id}/out/form.pdf`, 'No output PDF for this job (only form fill and clear produce one)', job.id);
  return { bytes, format: 'pdf' };
}

async function stored(deps: GatewayDeps, key: string, missing: string, jobId: string): Promise<Uint8Array> {
  return deps.blobs.getBytes(key).catch((e: unknown) => {
    if (e instanceof QuireError && e.code === 'STORAGE_002') throw new QuireError('STORAGE_002', missing, { job_id: jobId });
    throw e;
  });
}

function of(raw: unknown): 'source' | 'output' {
  if (raw === undefined || raw === 'source' || raw === 'output') return raw ?? 'source';
  throw new QuireError('REQ_003', 'of must be source (the document the job was given) or output (the PDF a form fill or clear produced)', { of: raw });
}

function dpiOf(raw: unknown): number {
  if (raw === undefined) return PAGE_IMAGE_DPI.default;
  const dpi = typeof raw === 'string' && /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(dpi >= PAGE_IMAGE_DPI.min && dpi <= PAGE_IMAGE_DPI.max)) {
    throw new QuireError('REQ_003', `dpi must be a whole number from ${PAGE_IMAGE_DPI.min} to ${PAGE_IMAGE_DPI.max}`, { dpi: raw, min: PAGE_IMAGE_DPI.min, max: PAGE_IMAGE_DPI.max });
  }
  return dpi;
}

const isPdf = (b: Uint8Array) => b.length > 4 && b[0] === 0x25 && b[1] === 0x50 && b[2] === 0x44 && b[3] === 0x46; // %PDF
