import { randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { QuireError, creditsFor } from '@quire/core';
import { SplitOptionsSchema, type SplitOptions } from '@quire/contracts';
import type { JobInput } from '@quire/queue';
import type { Organization } from '@quire/storage';
import type { GatewayDeps } from '../deps.js';
import { requireArtifact } from '../http/artifacts.js';
import { respondWithJob } from '../http/job-responses.js';
import { parseOrThrow } from '../http/validate.js';
import type { StepPlan } from './step-plan.js';

type SplitTopic = JobInput<'split'>['topics'][number];

/**
 * POST /split: extraction_id + split_config.split_input [{name, description}] → split_id and one
 * page group per topic. Billed 2 credits per page of the saved extraction.
 */
export function splitRoutes(deps: GatewayDeps): Router {
  const r = Router();
  r.post('/split', (req, res) => handleSplit(req, res, deps));
  return r;
}

/** The topics of split_config, names unique (REQ_003 otherwise). */
export function splitTopics(config: SplitOptions['split_config']): SplitTopic[] {
  const topics = config.split_input.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}) }));
  const names = topics.map((t) => t.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) throw new QuireError('REQ_003', `Invalid parameter value: split_input names must be unique ("${dup}" is repeated)`, { field: 'split_config.split_input', name: dup });
  return topics;
}

/** Checks the extraction and quotes one /split run (also used per item by /batch/split). */
export async function planSplitJob(deps: GatewayDeps, org: Organization, extractionId: unknown, topics: SplitTopic[], field = 'extraction_id'): Promise<StepPlan<'split'>> {
  const artifact = await requireArtifact(deps, org, 'extraction', extractionId, field);
  const pages = Number(artifact.data.pages_processed ?? artifact.data.page_count ?? 1);
  return {
    request: { split_config: { split_input: topics } },
    input: { extraction_id: artifact.id, topics },
    quoteCredits: creditsFor('split', { pages }), quotePages: pages,
  };
}

async function handleSplit(req: Request, res: Response, deps: GatewayDeps): Promise<void> {
  const org = req.org!;
  const opts = parseOrThrow(SplitOptionsSchema, req.body);
  const plan = await planSplitJob(deps, org, opts.extraction_id, splitTopics(opts.split_config));
  const isAsync = opts.async === true;
  const job = await deps.jobs.submit({
    org, key: req.apiKey!, kind: 'split', jobId: randomUUID(), async: isAsync,
    request: plan.request, input: plan.input,
    quoteCredits: plan.quoteCredits, quotePages: plan.quotePages,
  });
  await respondWithJob(req, res, deps, job, isAsync, isAsync ? { split_id: job.id } : {});
}
