import { Router } from 'express';
import { QuireError } from '@quire/core';
import type { GatewayDeps } from '../deps.js';
import { baseUrl, jobView } from '../http/job-responses.js';

/**
 * Completed jobs never change again except by expiring, so their serialized view is kept for a few
 * seconds (QUIRE_JOB_CACHE_SECONDS): a client polling a finished job costs no database read and no
 * re-serialization of a large result. Not cached: unfinished jobs, URL-delivered results (single-use
 * token), organizations that delete after retrieval. Expiry is checked against the job's expires_at.
 */
class CompletedJobCache {
  private readonly entries = new Map<string, { body: string; until: number; expiresAt: number }>();
  constructor(private readonly ttlMs: number, private readonly max = 2_000) {}
  get(k: string): string | undefined {
    const e = this.entries.get(k);
    if (!e) return undefined;
    const now = Date.now();
    if (e.until <= now || e.expiresAt <= now) { this.entries.delete(k); return undefined; }
    return e.body;
  }
  set(k: string, body: string, expiresAt: number): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(k, { body, until: Date.now() + this.ttlMs, expiresAt });
  }
}

/** GET/DELETE /job/{id} and the legacy POST /cancel/{job_id}. */
export function jobRoutes(deps: GatewayDeps): Router {
  const r = Router();
  const cache = new CompletedJobCache(deps.config.jobCacheMs);
  r.get('/job/:jobId', async (req, res) => {
    const base = baseUrl(req, deps);
    const cacheKey = `${req.org!.id} ${req.params.jobId} ${base}`;
    const cached = cache.get(cacheKey);
    if (cached !== undefined) { res.type('application/json').send(cached); return; }
    const job = await deps.store.jobs.getForOrg(req.org!.id, req.params.jobId);
    if (!job) throw new QuireError('JOB_001', 'Job not found', { job_id: req.params.jobId });
    if (job.status === 'expired') throw new QuireError('JOB_003', 'Job expired: its stored result was removed by the retention policy; submit the document again', { job_id: job.id });
    if (job.status === 'completed' && !job.result_blob && !job.result_retrieved_at) await deps.store.jobs.markResultRetrieved(job.id);
    const body = JSON.stringify(jobView(job, base));
    if (job.status === 'completed' && !job.result_blob && !req.org!.delete_after_retrieval) cache.set(cacheKey, body, new Date(job.expires_at).getTime());
    res.type('application/json').send(body);
  });
  const cancel = async (orgId: string, jobId: string) => {
    const job = await deps.jobs.cancel(orgId, jobId);
    return { job_id: job.id, status: 'canceled', message: 'Job canceled; a worker that already started stops at its next page boundary and its result is discarded' };
  };
  r.delete('/job/:jobId', async (req, res) => { res.json(await cancel(req.org!.id, req.params.jobId)); });
  r.post('/cancel/:jobId', async (req, res) => { res.json(await cancel(req.org!.id, req.params.jobId)); });
  return r;
}
