import { Router } from 'express';
import { QuireError } from '@quire/core';
import type { GatewayDeps } from '../deps.js';
import { baseUrl, jobView } from '../http/job-responses.js';

/** GET/DELETE /job/{id} and the legacy POST /cancel/{job_id}. */
export function jobRoutes(deps: GatewayDeps): Router {
  const r = Router();
  r.get('/job/:jobId', async (req, res) => {
    const job = await deps.store.jobs.getForOrg(req.org!.id, req.params.jobId);
    if (!job) throw new QuireError('JOB_001', 'Job not found', { job_id: req.params.jobId });
    if (job.status === 'expired') throw new QuireError('JOB_003', 'Job expired: its stored result was removed by the retention policy; submit the document again', { job_id: job.id });
    if (job.status === 'completed' && !job.result_blob && !job.result_retrieved_at) await deps.store.jobs.markResultRetrieved(job.id);
    res.json(jobView(job, baseUrl(req, deps)));
  });
  const cancel = async (orgId: string, jobId: string) => {
    const job = await deps.jobs.cancel(orgId, jobId);
    return { job_id: job.id, status: 'canceled', message: 'Job canceled; a worker that already started stops at its next page boundary and its result is discarded' };
  };
  r.delete('/job/:jobId', async (req, res) => { res.json(await cancel(req.org!.id, req.params.jobId)); });
  r.post('/cancel/:jobId', async (req, res) => { res.json(await cancel(req.org!.id, req.params.jobId)); });
  return r;
}
