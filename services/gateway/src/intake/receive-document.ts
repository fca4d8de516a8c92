import busboy from 'busboy';
import type { Request } from 'express';
import { PassThrough } from 'node:stream';
import { QuireError } from '@quire/core';
import type { GatewayDeps } from '../deps.js';

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
    received.document = await download(fileUrl, deps, blobPrefix);
  }
  return received;
}

export async function download(url: string, deps: GatewayDeps, blobPrefix: string): Promise<NonNullable<ReceivedRequest['document']>> {
  const { body } = await deps.fetchUrl(url);
  const key = `${blobPrefix}source`;
  try {
    const { size } = await deps.blobs.put(key, body);
    if (size === 0) throw new QuireError('FILE_004', 'Empty file: the URL returned no content');
    return { blobKey: key, size, source: 'url', filename: new URL(url).pathname.split('/').pop() || undefined };
  } catch (e) {
    await deps.blobs.delete(key).catch(() => undefined);
    if (e instanceof QuireError) throw e;
    throw new QuireError('FILE_005', 'Download from URL failed', { reason: (e as Error).message });
  }
}

function receiveMultipart(req: Request, deps: GatewayDeps, blobPrefix: string): Promise<ReceivedRequest> {
  const limit = deps.config.uploadLimitBytes;
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit + 1024 * 1024) {
    // Refuse before reading a byte of a body that cannot fit; the connection is closed after the answer.
    closeAfterAnswer(req);
    return Promise.reject(tooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const fields: Record<string, unknown> = {};
    let document: ReceivedRequest['document'];
    let store: Promise<unknown> | undefined;
    let overLimit = false;
    let failed: unknown;
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { fileSize: limit, files: 1, fields: 100, fieldSize: 1024 * 1024 } });
    } catch {
      reject(new QuireError('REQ_002', 'Malformed multipart body'));
      return;
    }
    bb.on('field', (name, value) => setField(fields, name, value));
    bb.on('file', (name, file, info) => {
      if (name !== 'file') { file.resume(); return; }
      const key = `${blobPrefix}source`;
      const pass = new PassThrough();
      file.on('limit', () => {
        overLimit = true;
        file.unpipe(pass);
        pass.destroy(tooLarge(limit));
        // Answer now instead of reading the rest: stop feeding the parser, drop the staged part, and
        // close the connection after the 413 (the client stops sending when its socket closes).
        req.unpipe(bb);
        file.resume();
        closeAfterAnswer(req);
        void (store ?? Promise.resolve()).then(() => deps.blobs.delete(key).catch(() => undefined));
        reject(tooLarge(limit));
      });
      file.pipe(pass);
      store = deps.blobs.put(key, pass).then(
        ({ size }) => { document = { blobKey: key, size, filename: info.filename, source: 'upload' }; },
        (e) => { failed = e; return deps.blobs.delete(key).catch(() => undefined); },
      );
    });
    bb.on('filesLimit', () => { failed ??= new QuireError('REQ_002', 'Send one file per request'); });
    bb.on('error', (e) => reject(new QuireError('REQ_002', 'Malformed multipart body', { reason: (e as Error).message })));
    bb.on('close', () => {
      void (store ?? Promise.resolve()).then(async () => {
        if (overLimit) {
          if (document) await deps.blobs.delete(document.blobKey).catch(() => undefined);
          return reject(tooLarge(limit));
        }
        if (failed) return reject(failed instanceof QuireError ? failed : new QuireError('STORAGE_001', 'Failed to store the upload'));
        if (document && document.size === 0) {
          await deps.blobs.delete(document.blobKey).catch(() => undefined);
          return reject(new QuireError('FILE_004', 'Empty file'));
        }
        resolve({ fields, document });
      });
    });
    req.pipe(bb);
  });
}

/** How long a refused upload's connection stays open after the answer, for the client to read it. */
const LINGER_MS = 2_000;

/**
 * Connection: close on the answer, so the unread rest of a refused body is not drained. Node closes such a
 * socket as soon as the answer is written; closing it with request bytes still unread makes the kernel
 * reset the connection, and the reset can destroy the answer before the client reads it (the client sees
 * EPIPE or ECONNRESET instead of the 413). So the close lingers: the answer is followed by a FIN, what the
 * client still sends is read and discarded (nothing is kept), and the socket is destroyed when the client
 * closes or after LINGER_MS, whichever comes first.
 */
export function closeAfterAnswer(req: Request): void {
  req.headers.connection = 'close';
  if (req.res && !req.res.headersSent) req.res.setHeader('Connection', 'close');
  const socket = req.socket;
  socket.destroySoon = function lingeringClose(this: typeof socket) {
    if (this.writable) this.end();
    req.resume();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
  };
}

export const tooLarge = (limit: number) => new QuireError('FILE_TOO_LARGE_USE_URL',
  `Direct uploads are limited to ${Math.round(limit / 1024 / 1024)} MB; submit larger documents with file_url`, { limit_bytes: limit });

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
