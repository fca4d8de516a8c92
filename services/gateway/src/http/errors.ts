import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { QuireError, isQuireError } from '@quire/core';
import type { Logger } from '@quire/runtime';
import type { RouteTable } from './route-table.js';

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

/**
 * For routes that need no API key (health, docs, the webhook portal, hosted files): a known path asked
 * with another method is 405 here, before authentication would answer 401 for a key the route never
 * needed. Only requests under those routes' first path segments are looked at; the rest pass on untouched.
 */
export function wrongMethodOnPublicRoute(routes: RouteTable): RequestHandler {
  const segments = new Set(routes.routes().map((r) => firstSegment(r.path)));
  return (req, res, next) => {
    if (!segments.has(firstSegment(req.path))) { next(); return; }
    const allowed = routes.allowedMethods(req.path);
    if (allowed.length === 0 || allowed.includes(req.method)) { next(); return; }
    methodNotAllowed(req, res, next, allowed);
  };
}

/**
 * A request no route answered: 405 METHOD_NOT_ALLOWED with an `Allow` header when the path exists under
 * other methods, else 404 ROUTE_NOT_FOUND; the standard error body either way (never an HTML page).
 */
export function unmatchedRoute(routes: RouteTable): RequestHandler {
  return (req, res, next) => {
    const allowed = routes.allowedMethods(req.path);
    if (allowed.length === 0) {
      next(new QuireError('ROUTE_NOT_FOUND', `No such endpoint: ${req.method} ${req.path} (see /openapi.json)`, { method: req.method, path: req.path }));
      return;
    }
    methodNotAllowed(req, res, next, allowed);
  };
}

function methodNotAllowed(req: Request, res: Response, next: NextFunction, allowed: string[]): void {
  res.setHeader('Allow', allowed.join(', '));
  next(new QuireError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${req.path}; allowed: ${allowed.join(', ')}`, { method: req.method, path: req.path, allowed }));
}

const firstSegment = (path: string) => path.split('/')[1]?.toLowerCase() ?? '';
