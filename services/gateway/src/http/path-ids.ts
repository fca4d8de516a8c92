import { Router } from 'express';
import { QuireError } from '@quire/core';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Job ids are UUIDs (the job service makes them with randomUUID). A path whose job id cannot be one is a
 * malformed parameter, 400 REQ_003, not a job that was not found; checked once for every route under
 * /job/{jobId}, /results/{jobId} and /cancel/{jobId}, routes added there later included.
 */
export function jobIdGuard(): Router {
  const r = Router();
  r.use(['/job/:jobId', '/results/:jobId', '/cancel/:jobId'], (req, _res, next) => {
    const jobId = String(req.params.jobId);
    if (UUID.test(jobId)) { next(); return; }
    next(new QuireError('REQ_003', 'Invalid job id: expected a UUID as returned when the job was submitted', { field: 'job_id', value: jobId.slice(0, 100) }));
  });
  return r;
}
