import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { creditsFor } from '@quire/core';
import { ChartsRequestSchema } from '@quire/contracts';
import type { GatewayDeps } from '../deps.js';
import { requireArtifact } from '../http/artifacts.js';
import { respondWithJob } from '../http/job-responses.js';
import { parseOrThrow } from '../http/validate.js';

/**
 * POST /charts: chart series, axes, source boxes and CSV exports from a saved extraction. Quoted at
 * 1 credit per chart with stored series (the count saved with the extraction); charged per chart
 * actually reconstructed. charts_id is the job id.
 */
export function chartsRoutes(deps: GatewayDeps): Router {
  const r = Router();
  r.post('/charts', async (req, res) => {
    const org = req.org!;
    const body = parseOrThrow(ChartsRequestSchema, req.body);
    const extraction = await requireArtifact(deps, org, 'extraction', body.extraction_id);
    const isAsync = body.async === true;
    const job = await deps.jobs.submit({
      org, key: req.apiKey!, kind: 'charts', jobId: randomUUID(), async: isAsync,
      request: {}, input: { extraction_id: extraction.id }, parentId: extraction.id,
      quoteCredits: creditsFor('charts', { charts: Number(extraction.data.chart_count ?? 0) }), quotePages: 0,
    });
    await respondWithJob(req, res, deps, job, isAsync, { charts_id: job.id });
  });
  return r;
}
