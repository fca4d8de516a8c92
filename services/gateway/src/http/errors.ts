import type { ErrorRequestHandler, RequestHandler } from 'express';
import { QuireError, isQuireError } from '@quire/core';
import type { Logger } from '@quire/runtime';

/**
 * The one place errors become HTTP: QuireError → its code's status and the standard body; body-parser
 * and other known framework errors → the matching spec code; anything else → GENERAL_001 without
 * internals (the log keeps them, under the request id).
 */
export function errorHandler(log: Logger, debug: boolean): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const e = toQuireError(err, debug);
    if (e.code === 'GENERAL_001') log.error({ err, requestId: req.id, path: req.path }, 'unhandled error');
    else log.info({ requestId: req.id, code: e.code, path: req.path }, e.message);
    if (res.headersSent) { res.end(); return; }
    if (e.code === 'GENERAL_004' && e.details?.retry_after_seconds) res.setHeader('Retry-After', String(e.details.retry_after_seconds));
    res.status(e.status).json(e.toBody());
  };
}

function toQuireError(err: unknown, debug: boolean): QuireError {
  if (isQuireError(err)) return err;
  const e = err as { type?: string; status?: number; message?: string };
  if (e?.type === 'entity.parse.failed') return new QuireError('REQ_002', 'Invalid request body: malformed JSON');
  if (e?.type === 'entity.too.large') return new QuireError('REQ_002', 'Request body too large');
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') return new QuireError('REQ_002', 'Unsupported request body encoding');
  return new QuireError('GENERAL_001', 'Internal server error', debug && e?.message ? { internal: e.message } : undefined);
}

/** Unknown paths get the standard error body too (never an HTML 404 page). */
export const notFound: RequestHandler = (req, _res, next) => {
  next(new QuireError('REQ_003', `No such endpoint: ${req.method} ${req.path}`, { method: req.method, path: req.path }));
};
