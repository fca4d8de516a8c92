import { Router } from 'express';
import type { GatewayDeps } from '../deps.js';

/** /healthz (process up), /readyz (metadata store, queue and blob store reachable, and not stopping), /metrics (Prometheus). No key needed. */
export function operationsRoutes(deps: GatewayDeps): Router {
  const r = Router();
  r.get('/healthz', (_req, res) => { res.json({ status: 'ok' }); });
  r.get('/readyz', async (_req, res) => {
    // Stopping: take this gateway out of the load balancer's rotation, whatever the stores say.
    if (deps.lifecycle?.draining) { res.status(503).json({ status: 'draining' }); return; }
    const check = async (fn: () => Promise<unknown>) => {
      try { await withTimeout(fn(), 2000); return 'ok'; } catch (e) { return `error: ${(e as Error).message}`; }
    };
    const [database, queue, blobs] = await Promise.all([check(() => deps.store.ping()), check(() => deps.queue.ping()), check(() => deps.blobs.ping())]);
    const ready = database === 'ok' && queue === 'ok' && blobs === 'ok';
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', checks: { database, queue, blobs } });
  });
  r.get('/metrics', async (_req, res) => {
    res.type(deps.metrics.contentType).send(await deps.metrics.render());
  });
  return r;
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([p, new Promise<T>((_, rej) => setTimeout(() => rej(new Error('timeout')), ms).unref())]);
}
