import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { QuireError, creditsFor, parsePageRange } from '@quire/core';
import { ExtractOptionsSchema } from '@quire/contracts';
import { BATCH_KINDS, submitBatch } from '@quire/runtime';
import type { GatewayDeps } from '../deps.js';
import { receiveBatch } from '../intake/receive-batch.js';
import { inspectReceived } from '../intake/inspect-stored.js';
import { baseUrl } from '../http/job-responses.js';
import { parseOrThrow } from '../http/validate.js';
import { normalizeExtractOptions } from './extract.js';

/**
 * POST /batch/extract (the spec leaves the shape open): several documents (multipart `files`, or
 * `file_urls`) with one set of /extract options. Always asynchronous: 202 with the parent job id and one
 * child extraction per document. The parent completes when every child has settled; its result lists
 * each child's status and extraction_id. Each child is quoted and charged like a single /extract.
 */
export function batchRoutes(deps: GatewayDeps): Router {
  const r = Router();
  r.post('/batch/extract', async (req, res) => {
    const org = req.org!;
    const { fields, inputs } = await receiveBatch(req, deps, org.id);
    const parentId = randomUUID();
    try {
      const { async: _a, ...opts } = parseOrThrow(ExtractOptionsSchema, fields);
      if (opts.file_url) throw new QuireError('REQ_003', 'Use file_urls (a list) with /batch/extract');
      if (opts.structured_output || opts.schema || opts.schema_prompt) throw new QuireError('REQ_003', 'structured_output, schema and schema_prompt are not accepted on /batch/extract; run /schema on the batch afterwards');
      const normalized = normalizeExtractOptions(opts);
      const children = [];
      for (const doc of inputs) {
        let info;
        try {
          info = await inspectReceived(deps, doc);
        } catch (e) {
          if (e instanceof QuireError) throw new QuireError(e.code, `${doc.filename ?? doc.blobKey}: ${e.message}`, { ...(e.details ?? {}), filename: doc.filename });
          throw e;
        }
        const pages = normalized.pages ? parsePageRange(normalized.pages, info.pageCount) : undefined;
        const pageCount = pages?.length ?? info.pageCount;
        children.push({
          kind: 'extract' as const, jobId: doc.childId,
          request: { ...normalized, async: true, base_url: baseUrl(req, deps) },
          input: { blob_key: doc.blobKey, format: info.format, filename: doc.filename ?? null, size: doc.size, page_count: info.pageCount, source: doc.source },
          quoteCredits: creditsFor('extract', { pages: pageCount }), quotePages: pageCount,
          label: { filename: doc.filename ?? null },
        });
      }
      const { parent, children: accepted } = await submitBatch(deps.store, deps.jobs, {
        org, key: req.apiKey!, parentKind: BATCH_KINDS.extract, parentId, retentionHours: deps.config.retentionHours,
        request: { ...normalized, base_url: baseUrl(req, deps) }, children,
      });
      res.status(202).json({
        job_id: parent.id, status: 'pending', message: `Batch extraction of ${accepted.length} documents started; poll GET /job/${parent.id} for the summary`,
        queuedAt: new Date(parent.created_at).toISOString(),
        children: accepted.map((c, i) => ({ job_id: c.id, extraction_id: c.id, filename: inputs[i].filename ?? null })),
      });
    } catch (e) {
      // Nothing accepted: drop every staged copy (accepted children keep theirs until retention).
      for (const doc of inputs) if (!(await deps.store.jobs.get(doc.childId))) await deps.blobs.deletePrefix(`${org.id}/${doc.childId}/`).catch(() => undefined);
      throw e;
    }
  });
  return r;
}
