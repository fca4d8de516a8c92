import type { Request } from 'express';
import { QuireError } from '@quire/core';
import type { GatewayDeps } from '../deps.js';
import { baseUrl } from '../http/job-responses.js';
import { hostedFileForToken, ownHostedFileRef } from './hosted-file.js';
import { closeAfterAnswer, readMultipart, tooLarge } from './read-multipart.js';

export interface ReceivedRequest {
  /** Form fields (multipart) or the JSON body, minus the file itself. */
  fields: Record<string, unknown>;
  /** Where the document was stored, when the request carried one (upload or file_url). */
  document?: { blobKey: string; size: number; filename?: string; source: 'upload' | 'url' };
}

const isMultipart = (req: Request) => (req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data');

/**
 * Takes a document request: a multipart upload streamed straight to the blob store (never whole in
 * memory, cut off at the upload limit), or a JSON/multipart `file_url` downloaded through the SSRF
 * guard, streamed too and accepted at any size. Stores it at `<blobPrefix>source`.
 */
export async function receiveDocument(req: Request, deps: GatewayDeps, blobPrefix: string): Promise<ReceivedRequest> {
  const received = isMultipart(req) ? await receiveMultipart(req, deps, blobPrefix) : { fields: (req.body ?? {}) as Record<string, unknown> };
  const fileUrl = received.fields.file_url;
  if (fileUrl !== undefined && fileUrl !== '') {
    if (received.document) {
      await deps.blobs.delete(received.document.blobKey);
      throw new QuireError('REQ_002', 'Send either file or file_url, not both');
    }
    if (typeof fileUrl !== 'string') throw new QuireError('FILE_007', 'Invalid file URL');
    received.document = await download(fileUrl, deps, blobPrefix, abandonedWith(req), baseUrl(req, deps));
  }
  return received;
}

/**
 * Downloads a file_url to `<blobPrefix>source`; `signal` abandons it (the blob store removes the partial
 * file). One of this service's own /convert URLs (on `ownBase`) is copied from the blob store instead:
 * its token is checked as GET /files checks it, and no request is made, so no private address is opened.
 */
export async function download(url: string, deps: GatewayDeps, blobPrefix: string, signal?: AbortSignal, ownBase?: string): Promise<NonNullable<ReceivedRequest['document']>> {
  const hosted = ownBase === undefined ? undefined : ownHostedFileRef(url, ownBase);
  const { body, filename } = hosted ? await hostedFile(deps, hosted.fileId, hosted.token) : { body: (await deps.fetchUrl(url, signal)).body, filename: undefined };
  const key = `${blobPrefix}source`;
  try {
    const { size } = await deps.blobs.put(key, body);
    if (size === 0) throw new QuireError('FILE_004', 'Empty file: the URL returned no content');
    return { blobKey: key, size, source: 'url', filename: filename ?? (new URL(url).pathname.split('/').pop() || undefined) };
  } catch (e) {
    await deps.blobs.delete(key).catch(() => undefined);
    if (e instanceof QuireError) throw e;
    throw new QuireError('FILE_005', 'Download from URL failed', { reason: (e as Error).message });
  }
}

async function hostedFile(deps: GatewayDeps, fileId: string, token: string) {
  const job = await hostedFileForToken(deps, fileId, token);
  if (!job) throw new QuireError('FILE_005', 'Download from URL failed', { reason: 'this service has no such file, or the token is wrong' });
  if (job.status === 'expired') throw new QuireError('FILE_005', 'Download from URL failed', { reason: 'the file was removed by the retention policy' });
  return { body: await deps.blobs.get(String(job.input.blob_key)), filename: typeof job.input.filename === 'string' ? job.input.filename : undefined };
}

/** Aborts when the client goes away before it has been answered: work done for it would be thrown away. */
export function abandonedWith(req: Request): AbortSignal | undefined {
  const res = req.res;
  if (!res) return undefined;
  const controller = new AbortController();
  res.once('close', () => { if (!res.writableFinished) controller.abort(); });
  return controller.signal;
}

async function receiveMultipart(req: Request, deps: GatewayDeps, blobPrefix: string): Promise<ReceivedRequest> {
  const limit = deps.config.uploadLimitBytes;
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit + 1024 * 1024) {
    // Refuse before reading a byte of a body that cannot fit; the connection is closed after the answer.
    closeAfterAnswer(req);
    throw tooLarge(limit);
  }
  const fields: Record<string, unknown> = {};
  const [file] = await readMultipart(req, deps, {
    limitBytes: limit, maxFiles: 1,
    tooManyFiles: () => new QuireError('REQ_002', 'Send one file per request'),
    acceptsFile: (field) => field === 'file',
    blobKeyFor: () => `${blobPrefix}source`,
    onField: (name, value) => setField(fields, name, value),
  });
  if (!file) return { fields };
  if (file.size === 0) {
    await deps.blobs.delete(file.blobKey).catch(() => undefined);
    throw new QuireError('FILE_004', 'Empty file');
  }
  return { fields, document: { blobKey: file.blobKey, size: file.size, filename: file.filename, source: 'upload' } };
}

/** Accepts "a[b]" and "a.b" names for nested fields; the last value of a repeated name wins. */
export function setField(fields: Record<string, unknown>, name: string, value: string): void {
  const path = name.replace(/\]/g, '').split(/[[.]/).filter(Boolean);
  if (path.some((p) => p === '__proto__' || p === 'constructor' || p === 'prototype')) return;
  let cur = fields;
  for (const p of path.slice(0, -1)) {
    if (typeof cur[p] !== 'object' || cur[p] === null) cur[p] = {};
    cur = cur[p] as Record<string, unknown>;
  }
  cur[path[path.length - 1]] = value;
}
