import { Router, type Request, type Response } from 'express';
import { QuireError } from '@quire/core';
import type { GatewayDeps } from '../deps.js';
import { baseUrl, jobViewBytes } from '../http/job-responses.js';

/** A serialized GET /job view: the bytes and their ETag, computed once. */
export interface SerializedView { body: Buffer; etag: string | undefined }

/**
 * Completed jobs never change again except by expiring, so their serialized view is kept for a few
 * seconds (QUIRE_JOB_CACHE_SECONDS): a client polling a finished job costs no database read, no
 * re-serialization of a large result and no re-hashing for its ETag (the view is kept as bytes with
 * the ETag express would compute for them). Not cached: unfinished jobs, URL-delivered results
 * (single-use token), organizations that delete after retrieval. Expiry is checked against the job's
 * expires_at. Bounded by entries and by bytes (results run to megabytes), oldest out first.
 */
export class CompletedJobCache {
  private readonly entries = new Map<string, { view: SerializedView; until: number; expiresAt: number }>();
  private bytes = 0;
  constructor(private readonly ttlMs: number, private readonly max = 2_000, private readonly maxBytes = 64 * 1024 * 1024) {}
  get(k: string): SerializedView | undefined {
    const e = this.entries.get(k);
    if (!e) return undefined;
    const now = Date.now();
    if (e.until <= now || e.expiresAt <= now) { this.remove(k); return undefined; }
    return e.view;
  }
  set(k: string, view: SerializedView, expiresAt: number): void {
    if (this.ttlMs <= 0 || view.body.length > this.maxBytes / 4) return;
    this.remove(k);
    this.sweep();
    while (this.entries.size && (this.entries.size >= this.max || this.bytes + view.body.length > this.maxBytes)) this.remove(this.entries.keys().next().value!);
    this.entries.set(k, { view, until: Date.now() + this.ttlMs, expiresAt });
    this.bytes += view.body.length;
  }
  /**
   * Drops the entries whose time is up. Every entry gets the same ttl, so the Map's insertion order is
   * their expiry order: the sweep stops at the first live one. Without it, views nobody asked for again
   * stayed until the bounds pushed them out (up to 64 MB of bodies held for good after a busy hour).
   */
  private sweep(): void {
    const now = Date.now();
    for (const [k, e] of this.entries) {
      if (e.until > now) return;
      this.remove(k);
    }
  }

  /** Entries held (for tests). */
  get size(): number {
    return this.entries.size;
  }

  private remove(k: string): void {
    const e = this.entries.get(k);
    if (!e) return;
    this.entries.delete(k);
    this.bytes -= e.view.body.length;
  }
}

type EtagFn = (body: Buffer, encoding?: string) => string | undefined;

function withEtag(req: Request, body: Buffer): SerializedView {
  const etagFn = req.app.get('etag fn') as EtagFn | undefined; // express's own (the app's 'etag' setting)
  return { body, etag: etagFn?.(body) };
}

/** Same headers and conditional-GET handling (304 on If-None-Match) as res.send of the JSON text. */
function sendView(res: Response, v: SerializedView): void {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (v.etag) res.setHeader('ETag', v.etag); // res.send hashes the body only when no ETag is set
  res.send(v.body);
}

/** GET/DELETE /job/{id} and the legacy POST /cancel/{job_id}. */
export function jobRoutes(deps: GatewayDeps): Router {
  const r = Router();
  const cache = new CompletedJobCache(deps.config.jobCacheMs);
  r.get('/job/:jobId', async (req, res) => {
    const base = baseUrl(req, deps);
    const cacheKey = `${req.org!.id} ${req.params.jobId} ${base}`;
    const cached = cache.get(cacheKey);
    if (cached !== undefined) { sendView(res, cached); return; }
    const job = await deps.store.jobs.getForOrg(req.org!.id, req.params.jobId);
    if (!job) throw new QuireError('JOB_001', 'Job not found', { job_id: req.params.jobId });
    if (job.status === 'expired') throw new QuireError('JOB_003', 'Job expired: its stored result was removed by the retention policy; submit the document again', { job_id: job.id });
    if (job.status === 'completed' && !job.result_blob && !job.result_retrieved_at) await deps.store.jobs.markResultRetrieved(job.id);
    const view = withEtag(req, await jobViewBytes(job, base, deps.blobs));
    if (job.status === 'completed' && !job.result_blob && !req.org!.delete_after_retrieval) cache.set(cacheKey, view, new Date(job.expires_at).getTime());
    sendView(res, view);
  });
  const cancel = async (orgId: string, jobId: string) => {
    const job = await deps.jobs.cancel(orgId, jobId);
    return { job_id: job.id, status: 'canceled', message: 'Job canceled; a worker that already started stops at its next page boundary and its result is discarded' };
  };
  r.delete('/job/:jobId', async (req, res) => { res.json(await cancel(req.org!.id, req.params.jobId)); });
  r.post('/cancel/:jobId', async (req, res) => { res.json(await cancel(req.org!.id, req.params.jobId)); });
  return r;
}
