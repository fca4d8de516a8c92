import { Router } from 'express';
import { QuireError } from '@quire/core';
import type { JobRecord } from '@quire/storage';
import type { GatewayDeps } from '../deps.js';
import { storedResultKey } from '../http/job-responses.js';
import { sendBlob } from '../http/send-blob.js';

/**
 * Why a job has no result, by its state: a canceled job never will (JOB_002), a failed one says what
 * failed it (JOB_005 with the job's own error code), only a job still on its way is JOB_004.
 */
export function noResultYet(job: Pick<JobRecord, 'id' | 'status' | 'error'>): QuireError {
  const base = { job_id: job.id, status: job.status };
  if (job.status === 'canceled') return new QuireError('JOB_002', 'Job was cancelled: it has no result', base);
  if (job.status === 'failed') {
    return new QuireError('JOB_005', `Job failed${job.error ? `: ${job.error.message}` : ''}`, { ...base, ...(job.error ? { error_code: job.error.code } : {}) });
  }
  return new QuireError('JOB_004', 'Job still processing', base);
}

/**
 * GET /results/{jobId} (large results; the ?token= of a result URL is single-use),
 * /results/{jobId}/pdf (form PDFs) and /results/{jobId}/images/{filename} (figure crops).
 * All require the organization's key; another organization's job is simply not found.
 */
export function resultRoutes(deps: GatewayDeps): Router {
  const r = Router();
  const ownJob = async (orgId: string, jobId: string) => {
    const job = await deps.store.jobs.getForOrg(orgId, jobId);
    if (!job) throw new QuireError('STORAGE_002', 'Results not found', { job_id: jobId });
    if (job.status === 'expired') throw new QuireError('JOB_003', 'Job expired: its results were removed by the retention policy', { job_id: jobId });
    return job;
  };
  r.get('/results/:jobId', async (req, res) => {
    const job = await ownJob(req.org!.id, req.params.jobId);
    if (job.status !== 'completed') throw noResultYet(job);
    const token = typeof req.query.token === 'string' ? req.query.token : undefined;
    if (token !== undefined && !(await deps.store.jobs.consumeResultToken(job.id, token))) {
      throw new QuireError('STORAGE_002', 'This result URL was already used; fetch the result with your API key at GET /results/{jobId}', { job_id: job.id });
    }
    await deps.store.jobs.markResultRetrieved(job.id);
    const stored = storedResultKey(job);
    if (!stored) { res.json(job.result); return; }
    res.type('application/json');
    sendBlob(res, await deps.blobs.get(stored));
  });
  r.get('/results/:jobId/pdf', async (req, res) => {
    const job = await ownJob(req.org!.id, req.params.jobId);
    const key = `${job.org_id}/${job.id}/out/form.pdf`;
    if (!(await deps.blobs.head(key))) throw new QuireError('STORAGE_002', 'No PDF for this job', { job_id: job.id });
    res.type('application/pdf');
    sendBlob(res, await deps.blobs.get(key));
  });
  r.get('/results/:jobId/images/:filename', async (req, res) => {
    const job = await ownJob(req.org!.id, req.params.jobId);
    const name = req.params.filename;
    if (!/^[A-Za-z0-9._-]+\.(png|jpe?g)$/.test(name) || name.includes('..')) throw new QuireError('STORAGE_002', 'Image not found');
    const key = `${job.org_id}/${job.id}/out/images/${name}`;
    const head = await deps.blobs.head(key);
    if (!head) throw new QuireError('STORAGE_002', 'Image not found', { filename: name });
    res.type(head.contentType ?? (name.endsWith('.png') ? 'image/png' : 'image/jpeg'));
    sendBlob(res, await deps.blobs.get(key));
  });
  return r;
}
