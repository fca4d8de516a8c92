import { randomBytes, randomUUID } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { QuireError } from '@quire/core';
import type { JobRecord } from '@quire/storage';
import type { GatewayDeps } from '../deps.js';
import { receiveDocument } from '../intake/receive-document.js';
import { inspectReceived } from '../intake/inspect-stored.js';
import { baseUrl } from '../http/job-responses.js';
import { sendBlob } from '../http/send-blob.js';
import { checkPathId } from '../http/path-ids.js';
import { hostedFileForToken, tokenHash } from '../intake/hosted-file.js';

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf', png: 'image/png', jpeg: 'image/jpeg', jpg: 'image/jpeg', tiff: 'image/tiff', webp: 'image/webp', gif: 'image/gif', bmp: 'image/bmp', html: 'text/html',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/**
 * Legacy POST /convert ("upload a file and receive a hosted URL"; shape not shown): the document
 * (multipart `file` or `file_url`) is validated, stored, and recorded as a completed job of kind
 * `convert` so retention removes it like any other input. The answer's `url` is
 * `/files/{file_id}?token=…` — a capability URL valid until retention, usable as `file_url` (intake reads
 * the service's own such URLs from storage: intake/hosted-file.ts); `/files/{file_id}` also serves the organization's own key without a token.
 */
export function convertRoutes(deps: GatewayDeps): Router {
  const r = Router();
  r.post('/convert', async (req, res) => {
    const org = req.org!;
    const fileId = randomUUID();
    const prefix = `${org.id}/${fileId}/`;
    const { document } = await receiveDocument(req, deps, prefix);
    try {
      if (!document) throw new QuireError('REQ_001', 'No file or URL provided: send a file (multipart) or file_url');
      const info = await inspectReceived(deps, document);
      const token = randomBytes(24).toString('base64url');
      const retention = org.retention_hours ?? deps.config.retentionHours;
      const expiresAt = new Date(Date.now() + retention * 3600_000);
      const url = `${baseUrl(req, deps)}/files/${fileId}?token=${token}`;
      const result = { file_id: fileId, url, filename: document.filename ?? null, size: document.size, format: info.format, page_count: info.pageCount, expires_at: expiresAt.toISOString() };
      await deps.store.jobs.create({
        id: fileId, org_id: org.id, key_id: req.apiKey!.id, kind: 'convert', request: {}, credits_reserved: 0, expires_at: expiresAt,
        input: { blob_key: document.blobKey, filename: document.filename ?? null, size: document.size, format: info.format, token_hash: tokenHash(token) },
      });
      await deps.store.jobs.claim(fileId, 60_000);
      await deps.store.jobs.transition(fileId, 'completed', { result, credits_used: 0, pages: 0 });
      res.json(result);
    } catch (e) {
      if (!(await deps.store.jobs.get(fileId))) await deps.blobs.deletePrefix(prefix).catch(() => undefined);
      throw e;
    }
  });
  r.get('/files/:fileId', async (req, res) => {
    await serveFile(deps, req, res, await deps.store.jobs.getForOrg(req.org!.id, req.params.fileId));
  });
  return r;
}

/** GET /files/{id}?token=… before the key check: the token alone grants access to that one file. */
export function hostedFileRoutes(deps: GatewayDeps): Router {
  const r = Router();
  r.get('/files/:fileId', async (req, res, next) => {
    const token = typeof req.query.token === 'string' ? req.query.token : undefined;
    if (token === undefined) return next(); // falls through to the key-authenticated route
    checkPathId(req.params.fileId, 'file_id', 'file id');
    const job = await hostedFileForToken(deps, req.params.fileId, token);
    if (!job) throw new QuireError('STORAGE_002', 'File not found', { file_id: req.params.fileId });
    await serveFile(deps, req, res, job);
  });
  return r;
}

async function serveFile(deps: GatewayDeps, req: Request, res: Response, job: JobRecord | undefined): Promise<void> {
  if (!job || job.kind !== 'convert') throw new QuireError('STORAGE_002', 'File not found', { file_id: req.params.fileId });
  if (job.status === 'expired') throw new QuireError('JOB_003', 'File expired: removed by the retention policy', { file_id: job.id });
  const key = String(job.input.blob_key);
  const head = await deps.blobs.head(key);
  if (!head) throw new QuireError('STORAGE_002', 'File not found', { file_id: job.id });
  res.setHeader('content-type', CONTENT_TYPES[String(job.input.format)] ?? 'application/octet-stream');
  res.setHeader('content-length', String(head.size));
  if (typeof job.input.filename === 'string') res.setHeader('content-disposition', `inline; filename="${job.input.filename.replace(/[^\w.-]/g, '_')}"`);
  sendBlob(res, await deps.blobs.get(key));
}
