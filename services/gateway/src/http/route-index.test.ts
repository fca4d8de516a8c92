import type { AddressInfo } from 'node:net';
import express, { Router, type ErrorRequestHandler } from 'express';
import { routeIndex } from './route-index.js';

/** An app whose modules count how often each was entered, behind routeIndex. */
async function withApp(modules: Record<string, Router>, run: (get: (path: string, method?: string) => Promise<{ status: number; body: string }>, entered: Record<string, number>) => Promise<void>) {
  const entered: Record<string, number> = Object.fromEntries(Object.keys(modules).map((k) => [k, 0]));
  const app = express();
  // each module wrapped to count entries; the wrapper shows the index the module's own layers
  const wrapped = Object.entries(modules).map(([name, r]) => {
    const w = ((req, res, next) => { entered[name]++; r(req, res, next); }) as Router;
    w.stack = r.stack;
    return w;
  });
  app.use(routeIndex(wrapped));
  app.use((req, res) => { res.status(404).send(`none ${req.path}`); });
  app.use(((err, _req, res, _next) => { res.status(500).send(`error ${(err as Error).message}`); }) as ErrorRequestHandler);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await run(async (path, method = 'GET') => {
      const res = await fetch(base + path, { method });
      return { status: res.status, body: await res.text() };
    }, entered);
  } finally {
    await new Promise((r) => server.close(r));
  }
}

describe('routeIndex', () => {
  const jobs = () => {
    const r = Router();
    r.get('/job/:id', (req, res) => { res.send(`job ${req.params.id}`); });
    r.delete('/job/:id', (_req, res) => { res.send('deleted'); });
    return r;
  };
  const files = () => {
    const r = Router();
    // falls through without a token, like the gateway's hosted-file route
    r.get('/files/:id', (req, res, next) => { if (!req.query.token) return next(); res.send('by token'); });
    return r;
  };
  const filesByKey = () => {
    const r = Router();
    r.get('/files/:id', (_req, res) => { res.send('by key'); });
    r.get('/boom', () => { throw new Error('kaput'); });
    return r;
  };

  it('enters only the modules with a route under the first path segment', async () => {
    await withApp({ jobs: jobs(), files: files(), filesByKey: filesByKey() }, async (get, entered) => {
      expect(await get('/job/42')).toEqual({ status: 200, body: 'job 42' });
      expect(entered).toEqual({ jobs: 1, files: 0, filesByKey: 0 });
      expect(await get('/JOB/7', 'DELETE')).toEqual({ status: 200, body: 'deleted' }); // case-insensitive, like express
      expect(await get('/nothing/here')).toEqual({ status: 404, body: 'none /nothing/here' });
      expect(entered).toEqual({ jobs: 2, files: 0, filesByKey: 0 });
    });
  });

  it('passes on to the next candidate when a module calls next(), and errors to the error handlers', async () => {
    await withApp({ files: files(), filesByKey: filesByKey(), jobs: jobs() }, async (get, entered) => {
      expect(await get('/files/1?token=t')).toEqual({ status: 200, body: 'by token' });
      expect(await get('/files/1')).toEqual({ status: 200, body: 'by key' });
      expect(entered).toEqual({ files: 2, filesByKey: 1, jobs: 0 });
      expect(await get('/boom')).toEqual({ status: 500, body: 'error kaput' });
      expect(await get('/job')).toEqual({ status: 404, body: 'none /job' }); // entered, no route matched
      expect(entered.jobs).toBe(1);
    });
  });

  it('enters a module whose patterns do not start with a literal segment for every request, in order', async () => {
    const anywhere = Router();
    anywhere.use((req, res, next) => { if (req.headers['x-stop']) return res.send('stopped'); next(); });
    const params = Router();
    params.get('/:kind/info', (req, res) => { res.send(`info ${req.params.kind}`); });
    await withApp({ anywhere, jobs: jobs(), params }, async (get, entered) => {
      expect(await get('/job/1')).toEqual({ status: 200, body: 'job 1' });
      expect(await get('/thing/info')).toEqual({ status: 200, body: 'info thing' });
      expect(entered).toEqual({ anywhere: 2, jobs: 1, params: 1 });
    });
  });

  it('indexes mounted sub-routers by their mount path', async () => {
    const portal = Router();
    const api = Router();
    api.use((_req, _res, next) => next(new Error('portal auth')));
    api.get('/endpoints', (_req, res) => { res.send('endpoints'); });
    portal.use('/portal/api', api);
    await withApp({ portal, jobs: jobs() }, async (get, entered) => {
      expect(await get('/portal/api/endpoints')).toEqual({ status: 500, body: 'error portal auth' });
      expect(await get('/portal/api/unknown')).toEqual({ status: 500, body: 'error portal auth' });
      expect(await get('/job/3')).toEqual({ status: 200, body: 'job 3' });
      expect(entered).toEqual({ portal: 2, jobs: 1 });
    });
  });
});
