import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { RequestHandler, Response } from 'express';
import type { ApiKeyRecord, Organization } from '@quire/storage';
import type { Logger, Metrics } from '@quire/runtime';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      id: string;
      org?: Organization;
      apiKey?: ApiKeyRecord;
      /** performance.now() when the request entered the gateway. */
      startedAt: number;
    }
  }
}

const SAFE_ID = /^[A-Za-z0-9._-]{8,128}$/;

type Observer = { observe(seconds: number): void };

/**
 * Request id (from x-request-id when sane, else new), echoed on every response and in every log line;
 * timing and metrics. Per request this costs one listener (shared, not a closure), one histogram
 * observation through a cached label set, and a log line only when info is enabled.
 */
export function requestContext(log: Logger, metrics: Metrics): RequestHandler {
  const observers = new Map<string, Observer>(); // "method route status" → histogram child (bounded: routes × statuses × methods)
  const observer = (method: string, route: string, status: number): Observer => {
    const key = `${method} ${route} ${status}`;
    let o = observers.get(key);
    if (!o) observers.set(key, (o = metrics.httpDuration.labels(method, route, String(status))));
    return o;
  };
  function onFinish(this: Response): void {
    const req = this.req;
    const seconds = (performance.now() - req.startedAt) / 1000;
    const route = (req.route?.path as string | undefined) ?? 'unmatched';
    observer(req.method, route, this.statusCode).observe(seconds);
    if (log.isLevelEnabled('info')) {
      // which organization and which job: the job a route made (res.locals.jobId) or the one its path names
      const jobId = (this.locals.jobId as string | undefined) ?? req.params?.jobId ?? req.params?.fileId;
      log.info({
        requestId: req.id, method: req.method, path: req.path, status: this.statusCode, ms: Math.round(seconds * 1000),
        ...(req.org ? { orgId: req.org.id } : {}), ...(jobId ? { jobId } : {}),
      }, 'request');
    }
  }
  return (req, res, next) => {
    req.startedAt = performance.now();
    const incoming = req.headers['x-request-id'];
    req.id = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader('x-request-id', req.id);
    res.on('finish', onFinish);
    next();
  };
}
