import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { ApiKeyRecord, Organization } from '@quire/storage';
import type { Logger, Metrics } from '@quire/runtime';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      id: string;
      org?: Organization;
      apiKey?: ApiKeyRecord;
    }
  }
}

const SAFE_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** Request id (from x-request-id when sane, else new), echoed on every response and in every log line; timing and metrics. */
export function requestContext(log: Logger, metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const incoming = req.header('x-request-id');
    req.id = incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('x-request-id', req.id);
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const route = (req.route?.path as string | undefined) ?? 'unmatched';
      metrics.httpDuration.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
      log.info({ requestId: req.id, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(seconds * 1000) }, 'request');
    });
    next();
  };
}
