import busboy from 'busboy';
import type { Request } from 'express';
import { finished } from 'node:stream';
import { QuireError } from '@quire/core';
import type { GatewayDeps } from '../deps.js';

export interface StagedFile {
  /** The multipart field name the file came in. */
  field: string;
  blobKey: string;
  size: number;
  filename?: string;
}

export interface MultipartOptions {
  /** Per-file limit; a file over it fails the whole request with FILE_TOO_LARGE_USE_URL. */
  limitBytes: number;
  maxFiles: number;
  /** Raised when a request carries more than maxFiles files. */
  tooManyFiles: () => QuireError;
  /** Whether a file field is taken; files in other fields are read past and dropped. */
  acceptsFile: (field: string) => boolean;
  /** Where the next accepted file is stored. */
  blobKeyFor: (field: string) => string;
  /** Sets a form field (repeated names are the caller's business). */
  onField: (name: string, value: string) => void;
}

/**
 * Reads a multipart request, streaming each accepted file straight to the blob store. Every stream of the
 * upload has its error handled here: the request body (a client that disconnects mid-body), busboy (a
 * truncated or malformed form) and each file part (busboy ends an unfinished part with an error, which
 * would otherwise be unhandled and end the process). The first failure stops reading, answers with its
 * code and removes every file staged so far (the blob store removes its partial temporary file itself).
 * Resolves only when every file is stored, so a caller never sees a half-written upload.
 */
export function readMultipart(req: Request, deps: GatewayDeps, opts: MultipartOptions): Promise<StagedFile[]> {
  let bb: busboy.Busboy;
  try {
    bb = busboy({ headers: req.headers, limits: { fileSize: opts.limitBytes, files: opts.maxFiles, fields: 100, fieldSize: 1024 * 1024 } });
  } catch (e) {
    return Promise.reject(malformed(e));
  }
  return new Promise((resolve, reject) => {
    const staged: StagedFile[] = [];
    const stores: Promise<void>[] = [];
    let failure: unknown;

    // The first failure wins; the parser is destroyed on the next tick because this may run inside its own
    // callbacks, and destroying it errors the part in progress so that part's store fails and cleans up.
    const fail = (e: unknown) => {
      if (failure !== undefined) return;
      failure = e;
      req.unpipe(bb);
      if (!req.complete && !req.destroyed) closeAfterAnswer(req);
      process.nextTick(() => bb.destroy(e instanceof Error ? e : undefined));
    };

    bb.on('field', opts.onField);
    bb.on('file', (field, file, info) => {
      // A listener before anything else: busboy errors an unfinished part when the form is cut short.
      file.on('error', (e) => fail(malformed(e)));
      if (failure !== undefined || !opts.acceptsFile(field)) { file.resume(); return; }
      const entry: StagedFile = { field, blobKey: opts.blobKeyFor(field), size: 0, filename: info.filename };
      staged.push(entry);
      file.on('limit', () => fail(tooLarge(opts.limitBytes)));
      stores.push(deps.blobs.put(entry.blobKey, file).then(
        ({ size }) => { entry.size = size; },
        (e) => fail(e instanceof QuireError ? e : new QuireError('STORAGE_001', 'Failed to store the upload')),
      ));
    });
    bb.on('filesLimit', () => fail(opts.tooManyFiles()));
    bb.on('error', (e) => fail(malformed(e)));
    finished(req, (e) => { if (e) fail(new QuireError('REQ_002', 'Request body incomplete: the client closed the connection')); });

    bb.on('close', () => {
      void Promise.allSettled(stores).then(async () => {
        if (failure === undefined) return resolve(staged);
        await Promise.all(staged.map((s) => deps.blobs.delete(s.blobKey).catch(() => undefined)));
        reject(failure);
      });
    });
    req.pipe(bb);
  });
}

const malformed = (e: unknown) => new QuireError('REQ_002', 'Malformed multipart body', { reason: (e as Error)?.message ?? String(e) });

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
