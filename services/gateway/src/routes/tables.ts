import { randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { creditsFor } from '@quire/core';
import { TablesRequestSchema, type TablesRequest } from '@quire/contracts';
import type { Organization } from '@quire/storage';
import type { GatewayDeps } from '../deps.js';
import { requireArtifact } from '../http/artifacts.js';
import { requireFlag } from '../http/auth.js';
import { respondWithJob } from '../http/job-responses.js';
import { parseOrThrow } from '../http/validate.js';
import type { StepPlan } from './step-plan.js';

/**
 * POST /tables: table-first output from a saved extraction (tables_endpoint flag). The tables_id is
 * the job id; it is saved as a 'tables' artifact, which no step accepts as input (terminal step).
 */
export function tablesRoutes(deps: GatewayDeps): Router {
  const r = Router();
  r.post('/tables', requireFlag('tables_endpoint'), (req, res) => handleTables(req, res, deps));
  return r;
}

/** Checks the extraction and quotes one /tables run (also used per item by /batch/tables). */
export async function planTablesJob(deps: GatewayDeps, org: Organization, extractionId: unknown, cfg: NonNullable<TablesRequest['tables_config']>, field = 'extraction_id'): Promise<StepPlan<'tables'>> {
  const extraction = await requireArtifact(deps, org, 'extraction', extractionId, field);
  const merge = cfg.merge === true;
  const chartsToTables = cfg.charts_to_tables === true;
  // Quote from the counts saved with the extraction (an upper bound: merging only lowers the count).
  const tables = Number(extraction.data.table_count ?? 0), charts = chartsToTables ? Number(extraction.data.chart_count ?? 0) : 0;
  return {
    request: { merge, table_format: cfg.table_format ?? 'html', charts_to_tables: chartsToTables },
    input: { extraction_id: extraction.id },
    parentId: extraction.id,
    quoteCredits: creditsFor('tables', { tables, charts, merge }), quotePages: 0,
  };
}

async function handleTables(req: Request, res: Response, deps: GatewayDeps): Promise<void> {
  const org = req.org!;
  const body = parseOrThrow(TablesRequestSchema, req.body);
  const plan = await planTablesJob(deps, org, body.extraction_id, body.tables_config ?? {});
  const job = await deps.jobs.submit({
    org, key: req.apiKey!, kind: 'tables', jobId: randomUUID(), async: body.async === true,
    request: plan.request, input: plan.input,
    parentId: plan.parentId, quoteCredits: plan.quoteCredits, quotePages: plan.quotePages,
  });
  await respondWithJob(req, res, deps, job, body.async === true, { tables_id: job.id });
}
