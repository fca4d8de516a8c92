import type { Request, Response } from 'express';
import { QuireError, isErrorCode } from '@quire/core';
import type { JobRecord, JobSummary } from '@quire/storage';
import type { GatewayDeps } from '../deps.js';
import { sendBlob } from './send-blob.js';

export const baseUrl = (req: Request, deps: GatewayDeps) => deps.config.publicUrl ?? `${req.protocol}://${req.get('host')}`;

/**
 * The spec's Job shape. A large (or URL-delivered) result is a single-use pointer. A result kept in the
 * blob store but delivered inline (`result_inline_blob`) is not in the row: the view leaves `result`
 * out and `jobViewBytes` splices the stored bytes in.
 */
function jobView(job: JobRecord, base: string): Record<string, unknown> {
  const view: Record<string, unknown> = {
    job_id: job.id, status: job.status, kind: job.kind,
    created_at: iso(job.created_at), updated_at: iso(job.updated_at),
  };
  if (job.completed_at) view.completed_at = iso(job.completed_at);
  if (job.progress) view.progress = job.progress;
  if (job.status === 'completed') {
    if (job.result_blob) view.result = { is_url: true, url: `${base}/results/${job.id}${job.result_token ? `?token=${job.result_token}` : ''}` };
    else if (!job.result_inline_blob) view.result = job.result;
  }
  if (job.status === 'failed' && job.error) {
    view.error = job.error.message;
    view.error_code = job.error.code;
  }
  return view;
}

const iso = (d: Date | string) => new Date(d).toISOString();

/**
 * The Job view as JSON bytes. A result stored in the blob store is read as bytes (asynchronously) and
 * spliced in as the view's last member: it is neither parsed nor re-serialized on the way out.
 */
export async function jobViewBytes(job: JobRecord, base: string, blobs: GatewayDeps['blobs']): Promise<Buffer> {
  const head = Buffer.from(JSON.stringify(jobView(job, base)));
  if (job.status !== 'completed' || job.result_blob || !job.result_inline_blob) return head;
  const result = await blobs.getBytes(job.result_inline_blob);
  return Buffer.concat([head.subarray(0, head.length - 1), Buffer.from(',"result":'), result, Buffer.from('}')]);
}

/** Where a completed job's result bytes live in the blob store (URL-delivered or kept out of the row); undefined when inline in the row. */
export const storedResultKey = (job: Pick<JobRecord, 'result_blob' | 'result_inline_blob'>) => job.result_blob ?? job.result_inline_blob ?? undefined;

const ACCEPTED_MESSAGE: Record<string, string> = {
  extract: 'Extraction started', schema: 'Schema extraction started', tables: 'Table extraction started', split: 'Split started',
  classify: 'Classification started', charts: 'Chart reconstruction started', form_detect: 'Form detection started', form_fill: 'Form filling started', form_clear: 'Form clearing started',
};

/** 202 for async; otherwise waits (bounded) and answers with the result or the job's error. */
export async function respondWithJob(req: Request, res: Response, deps: GatewayDeps, job: JobSummary, isAsync: boolean, extra: Record<string, unknown> = {}): Promise<void> {
  res.locals.jobId = job.id; // the request log line names the job it made
  if (isAsync) {
    res.status(202).json({
      job_id: job.id, status: 'pending', message: `${ACCEPTED_MESSAGE[job.kind] ?? 'Job accepted'}; poll GET /job/${job.id} for the result`,
      queuedAt: new Date(job.created_at).toISOString(), ...extra,
    });
    return;
  }
  const done = await deps.jobs.waitFor(job.id, deps.config.syncWaitMs);
  if (!done) {
    await deps.jobs.cancel(job.org_id, job.id).catch(() => undefined);
    throw new QuireError('PROC_002', `Processing did not finish within ${Math.round(deps.config.syncWaitMs / 1000)} s; the job was canceled. Resubmit with async=true for long documents.`, { job_id: job.id });
  }
  if (done.status === 'completed') {
    const stored = storedResultKey(done);
    if (stored) {
      await deps.store.jobs.markResultRetrieved(done.id);
      res.status(200).type('application/json');
      sendBlob(res, await deps.blobs.get(stored));
      return;
    }
    await deps.store.jobs.markResultRetrieved(done.id);
    res.status(200).json(done.result);
    return;
  }
  if (done.status === 'failed' && done.error) {
    const code = isErrorCode(done.error.code) ? done.error.code : 'PROC_001';
    throw new QuireError(code, done.error.message, { ...(done.error.details ?? {}), job_id: done.id });
  }
  throw new QuireError('JOB_002', 'Job was cancelled', { job_id: done.id });
}
