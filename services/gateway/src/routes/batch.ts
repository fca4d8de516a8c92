import { randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { QuireError, creditsFor, parsePageRange } from '@quire/core';
import { BatchSchemaRequestSchema, BatchSplitRequestSchema, BatchTablesRequestSchema, ExtractOptionsSchema } from '@quire/contracts';
import { BATCH_KINDS, BATCH_OUTPUT_ID, submitBatch, type BatchStep } from '@quire/jobs';
import type { Organization } from '@quire/storage';
import type { GatewayDeps } from '../deps.js';
import { receiveBatch } from '../intake/receive-batch.js';
import { inspectReceived } from '../intake/inspect-stored.js';
import { requireFlag } from '../http/auth.js';
import { batchExtractionIds } from '../http/batch-parent.js';
import { baseUrl } from '../http/job-responses.js';
import { parseOrThrow } from '../http/validate.js';
import { normalizeExtractOptions } from './extract.js';
import { planSchemaJob } from '../schema/plan-schema-job.js';
import { planSplitJob, splitTopics } from './split.js';
import { planTablesJob } from './tables.js';
import type { StepPlan } from './step-plan.js';

/** One child of a batch: its planned step run and the label the summary repeats (filename, input id). */
interface BatchChild<K extends BatchStep> { jobId: string; plan: StepPlan<K>; label: Record<string, unknown> }

/**
 * POST /batch/{extract,schema,tables,split} (the spec leaves the shapes open): one step run across
 * many inputs with one set of options. Every item is checked and quoted the way the single-item route
 * does it before anything is accepted (an item's error names it); then a parent job and one child job
 * per item are created (all or nothing, see submitBatch). Always asynchronous: 202 with the parent job
 * id and the children. The parent completes when every child has settled; its result lists each child's
 * status and output id. Each child is charged like the single-item call.
 */
export function batchRoutes(deps: GatewayDeps): Router {
  const r = Router();

  r.post('/batch/extract', async (req, res) => {
    const org = req.org!;
    const { fields, inputs } = await receiveBatch(req, deps, org.id);
    try {
      const { async: _a, ...opts } = parseOrThrow(ExtractOptionsSchema, fields);
      if (opts.file_url) throw new QuireError('REQ_003', 'Use file_urls (a list) with /batch/extract');
      if (opts.structured_output || opts.schema || opts.schema_prompt) throw new QuireError('REQ_003', 'structured_output, schema and schema_prompt are not accepted on /batch/extract; run /schema on the batch afterwards');
      const normalized = normalizeExtractOptions(opts);
      const children: BatchChild<'extract'>[] = [];
      for (const doc of inputs) {
        const info = await forItem(doc.filename ?? doc.blobKey, { filename: doc.filename }, () => inspectReceived(deps, doc));
        const pages = normalized.pages ? parsePageRange(normalized.pages, info.pageCount) : undefined;
        const pageCount = pages?.length ?? info.pageCount;
        children.push({
          jobId: doc.childId, label: { filename: doc.filename ?? null },
          plan: {
            request: { ...normalized, base_url: baseUrl(req, deps) },
            input: { blob_key: doc.blobKey, format: info.format, filename: doc.filename ?? null, size: doc.size, page_count: info.pageCount, source: doc.source },
            quoteCredits: creditsFor('extract', { pages: pageCount }), quotePages: pageCount,
          },
        });
      }
      await acceptBatch(req, res, deps, 'extract', { ...normalized, base_url: baseUrl(req, deps) }, children, 'documents');
    } catch (e) {
      // Nothing accepted: drop every staged copy (accepted children keep theirs until retention).
      for (const doc of inputs) if (!(await deps.store.jobs.get(doc.childId))) await deps.blobs.deletePrefix(`${org.id}/${doc.childId}/`).catch(() => undefined);
      throw e;
    }
  });

  r.post('/batch/tables', requireFlag('tables_endpoint'), async (req, res) => {
    const org = req.org!;
    const body = parseOrThrow(BatchTablesRequestSchema, req.body);
    const cfg = body.tables_config ?? {};
    const children = await planEach(await extractionInputs(deps, org, body), 'extraction_id',
      (id, field) => planTablesJob(deps, org, id, cfg, field));
    await acceptBatch(req, res, deps, 'tables', { tables_config: cfg, ...(body.batch_id ? { batch_id: body.batch_id } : {}) }, children, 'extractions');
  });

  r.post('/batch/split', async (req, res) => {
    const org = req.org!;
    const body = parseOrThrow(BatchSplitRequestSchema, req.body);
    const topics = splitTopics(body.split_config);
    const children = await planEach(await extractionInputs(deps, org, body), 'extraction_id',
      (id, field) => planSplitJob(deps, org, id, topics, field));
    await acceptBatch(req, res, deps, 'split', { split_config: { split_input: topics }, ...(body.batch_id ? { batch_id: body.batch_id } : {}) }, children, 'extractions');
  });

  r.post('/batch/schema', async (req, res) => {
    const org = req.org!;
    const { async: _a, extraction_ids, batch_id, split_ids, ...shared } = parseOrThrow(BatchSchemaRequestSchema, req.body);
    let children: BatchChild<'schema'>[];
    if (split_ids) {
      if (extraction_ids || batch_id) throw new QuireError('REQ_003', 'Give one of extraction_ids, batch_id or split_ids', { fields: ['extraction_ids', 'batch_id', 'split_ids'] });
      children = await planEach([...new Set(split_ids)], 'split_id', (id) => planSchemaJob(deps, org, { ...shared, split_id: id }));
    } else {
      if (shared.split_schema_config) throw new QuireError('REQ_003', 'split_schema_config goes with split_ids', { field: 'split_schema_config' });
      children = await planEach(await extractionInputs(deps, org, { extraction_ids, batch_id }), 'extraction_id',
        (id) => planSchemaJob(deps, org, { ...shared, extraction_id: id }));
    }
    await acceptBatch(req, res, deps, 'schema', { ...shared, ...(batch_id ? { batch_id } : {}) }, children, split_ids ? 'splits' : 'extractions');
  });

  return r;
}

/** The extractions a JSON batch runs over: extraction_ids (deduplicated) or a /batch/extract parent's completed children. */
async function extractionInputs(deps: GatewayDeps, org: Organization, body: { extraction_ids?: string[]; batch_id?: string }): Promise<string[]> {
  if (body.extraction_ids && body.batch_id) throw new QuireError('REQ_003', 'Give extraction_ids or batch_id, not both', { fields: ['extraction_ids', 'batch_id'] });
  if (body.batch_id !== undefined) {
    const ids = await batchExtractionIds(deps, org, body.batch_id, 'batch_id');
    if (!ids) throw new QuireError('STORAGE_002', `batch_id ${body.batch_id} not found`, { field: 'batch_id', id: body.batch_id });
    return ids;
  }
  if (!body.extraction_ids) throw new QuireError('REQ_004', 'Missing required parameter: extraction_ids (or batch_id)', { field: 'extraction_ids' });
  return [...new Set(body.extraction_ids)];
}

/** Plans every item in order; the first item that fails rejects the batch, its error naming the item. */
async function planEach<K extends BatchStep>(ids: string[], noun: string, plan: (id: string, field: string) => Promise<StepPlan<K>>): Promise<BatchChild<K>[]> {
  const children: BatchChild<K>[] = [];
  for (const [i, id] of ids.entries()) {
    const field = `${noun}s[${i}]`;
    children.push({ jobId: randomUUID(), label: { [noun]: id }, plan: await forItem(`${field} ${id}`, { index: i, [noun]: id }, () => plan(id, field)) });
  }
  return children;
}

/** Runs one item's check; a QuireError keeps its code and gains the item's name in message and details. */
async function forItem<T>(name: string, details: Record<string, unknown>, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof QuireError && !e.message.startsWith(name)) throw new QuireError(e.code, `${name}: ${e.message}`, { ...(e.details ?? {}), ...details });
    throw e;
  }
}

/** Creates the parent and its children (all or nothing) and answers 202 with both. */
async function acceptBatch<K extends BatchStep>(req: Request, res: Response, deps: GatewayDeps, step: K, request: Record<string, unknown>, children: BatchChild<K>[], what: string): Promise<void> {
  const parentId = randomUUID();
  const { parent, children: accepted } = await submitBatch(deps.store, deps.jobs, {
    org: req.org!, key: req.apiKey!, parentKind: BATCH_KINDS[step], parentId, retentionHours: deps.config.retentionHours, request,
    children: children.map((c) => ({ kind: step, jobId: c.jobId, async: true, request: c.plan.request, input: c.plan.input, quoteCredits: c.plan.quoteCredits, quotePages: c.plan.quotePages, label: c.label })),
  });
  res.status(202).json({
    job_id: parent.id, status: 'pending',
    message: `Batch ${step} of ${accepted.length} ${what} started; poll GET /job/${parent.id} for the summary`,
    queuedAt: new Date(parent.created_at).toISOString(),
    children: accepted.map((c, i) => ({ job_id: c.id, ...children[i].label, [BATCH_OUTPUT_ID[step]]: c.id })),
  });
}
