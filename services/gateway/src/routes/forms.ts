import { randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { QuireError, creditsFor, parsePageRange } from '@quire/core';
import { FormRequestSchema, type FormRequest } from '@quire/contracts';
import { fromSpecFormCells, toSpecFormCells, type FormCell } from '@quire/forms';
import type { JobInput } from '@quire/queue';
import type { SubmitJob } from '@quire/jobs';
import type { JobSummary } from '@quire/storage';
import type { GatewayDeps } from '../deps.js';
import { requireArtifact } from '../http/artifacts.js';
import { requireFlag } from '../http/auth.js';
import { baseUrl, respondWithJob } from '../http/job-responses.js';
import { parseOrThrow } from '../http/validate.js';
import { receiveDocument } from '../intake/receive-document.js';
import { inspectReceived } from '../intake/inspect-stored.js';

type FormOp = 'detect' | 'fill' | 'clear';

/**
 * POST /form/detect, /form/fill, /form/clear: multipart (file, or form_id / file_url fields) or the
 * legacy JSON body (form_id or file_url). Exactly one source; the form_filler flag is required.
 */
export function formRoutes(deps: GatewayDeps): Router {
  const r = Router();
  for (const op of ['detect', 'fill', 'clear'] as const) {
    r.post(`/form/${op}`, requireFlag('form_filler'), (req, res) => handleForm(req, res, deps, op));
  }
  return r;
}

const given = (v: unknown) => v !== undefined && v !== null && v !== '';

async function handleForm(req: Request, res: Response, deps: GatewayDeps, op: FormOp): Promise<void> {
  const org = req.org!;
  const jobId = randomUUID();
  const prefix = `${org.id}/${jobId}/`;
  const body = (req.body ?? {}) as Record<string, unknown>;
  // JSON body: refuse two sources before downloading anything
  if (given(body.form_id) && given(body.file_url)) throw tooManySources();
  const { fields, document } = await receiveDocument(req, deps, prefix);
  try {
    const opts = parseOrThrow(FormRequestSchema, fields);
    const formId = given(opts.form_id) ? opts.form_id : undefined;
    if (formId && document) throw tooManySources();
    if (!formId && !document) throw new QuireError('REQ_001', 'No PDF provided: send exactly one of form_id, file_url or file');
    const operation = operationOptions(op, opts);
    // malformed cells answer 400 here rather than failing the job
    const formFields = opts.form_fields !== undefined ? toSpecFormCells(fromSpecFormCells(opts.form_fields)) : undefined;
    const pageFilter = opts.pages ?? opts.page_range;
    if (pageFilter !== undefined) parsePageRange(pageFilter);

    let pageCount: number;
    let input: FormInput;
    if (formId) {
      const artifact = await requireArtifact(deps, org, 'form', formId);
      pageCount = Number(artifact.data.page_count);
      input = { form_id: artifact.id, page_count: pageCount, source: 'form' };
    } else {
      const doc = document!;
      const info = await inspectReceived(deps, doc);
      if (info.format !== 'pdf') throw new QuireError('FILE_001', `Form endpoints take PDF files; this file is ${info.format}`, { format: info.format });
      pageCount = info.pageCount;
      input = { blob_key: doc.blobKey, page_count: pageCount, filename: doc.filename ?? null, size: doc.size, source: doc.source };
    }
    const pages = pageFilter !== undefined ? parsePageRange(pageFilter, pageCount) : undefined;
    if (formFields?.some((c) => c.page_number > pageCount)) {
      throw new QuireError('REQ_003', `form_fields names a page past the end of the PDF (${pageCount} page(s))`, { page_count: pageCount });
    }
    const billed = pages?.length ?? pageCount;
    const isAsync = opts.async === true;
    const job = await submitForm(deps, operation, {
      org, key: req.apiKey!, jobId, async: isAsync, input,
      quoteCredits: creditsFor(operation.kind, { pages: billed }), quotePages: billed,
    }, { base_url: baseUrl(req, deps), ...(pageFilter !== undefined ? { pages: pageFilter } : {}) }, formFields);
    await respondWithJob(req, res, deps, job, isAsync);
  } catch (e) {
    if (!(await deps.store.jobs.get(jobId))) await deps.blobs.deletePrefix(prefix).catch(() => undefined);
    throw e;
  }
}

type FormInput = JobInput<'form_detect' | 'form_fill' | 'form_clear'>;

/** The operation's job kind and what only it takes, checked before any work: instructions (fill only, required), form_fields (not detect). */
type FormOperation = { kind: 'form_detect' } | { kind: 'form_fill'; instructions: string } | { kind: 'form_clear' };

function operationOptions(op: FormOp, opts: FormRequest): FormOperation {
  if (op !== 'fill' && opts.instructions !== undefined) throw new QuireError('REQ_002', `instructions apply to /form/fill only, not /form/${op}`, { field: 'instructions' });
  if (op === 'detect' && opts.form_fields !== undefined) throw new QuireError('REQ_002', 'form_fields apply to /form/fill and /form/clear, not /form/detect', { field: 'form_fields' });
  if (op === 'detect') return { kind: 'form_detect' };
  if (op === 'clear') return { kind: 'form_clear' };
  const instructions = opts.instructions?.trim();
  if (!instructions) throw new QuireError('REQ_004', 'Missing required parameter: instructions', { field: 'instructions' });
  return { kind: 'form_fill', instructions };
}

/** Submits the operation's job: the options every operation takes, plus its own. */
function submitForm(
  deps: GatewayDeps, operation: FormOperation, s: Omit<SubmitJob<FormOperation['kind']>, 'kind' | 'request'>,
  base: { base_url: string; pages?: string }, formFields: FormCell[] | undefined,
): Promise<JobSummary> {
  const cells = formFields ? { form_fields: formFields } : {};
  switch (operation.kind) {
    case 'form_detect': return deps.jobs.submit({ ...s, kind: operation.kind, request: base });
    case 'form_fill': return deps.jobs.submit({ ...s, kind: operation.kind, request: { ...base, instructions: operation.instructions, ...cells } });
    case 'form_clear': return deps.jobs.submit({ ...s, kind: operation.kind, request: { ...base, ...cells } });
  }
}

const tooManySources = () => new QuireError('REQ_002', 'Send exactly one of form_id, file_url or file, not several');
