import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Metrics, createLogger, loadConfig } from '@quire/runtime';
import { createGatewayApp, mountedRoutes } from '../app.js';
import type { GatewayDeps } from '../deps.js';
import { listenGateway } from './server.js';

const KEY = 'qk_unit_test_key';

/**
 * The gateway app (the one both the embedded server and the fleet's gateway process serve) over
 * stand-in stores that know one key: enough for requests that no route answers.
 */
async function gateway(): Promise<{ url: string; server: Server; deps: GatewayDeps }> {
  const org = { id: 'org-1', name: 'unit', flags: {}, suspended: false, deleted_at: null };
  const rec = { id: 'key-1', org_id: org.id, revoked_at: null, expires_at: null };
  const deps = {
    config: loadConfig({ QUIRE_LOG_LEVEL: 'silent', QUIRE_AUTH_CACHE_SECONDS: '0' }), log: createLogger('silent'), metrics: new Metrics(async () => ({})),
    store: {
      keys: { findByKey: async (k: string) => (k === KEY ? rec : undefined) }, orgs: { get: async () => org },
      webhooks: { resolvePortalSession: async (t: string) => (t === 'portal-token' ? org.id : undefined) },
    },
    limiter: { take: async () => ({ allowed: true, remaining: 100, retryAfterMs: 0 }) },
    blobs: {}, queue: {}, jobs: {}, fetchUrl: async () => { throw new Error('not used'); },
  } as unknown as GatewayDeps;
  const server = await listenGateway(createGatewayApp(deps), 0, '127.0.0.1');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, deps };
}

describe('requests no route answers', () => {
  let g: Awaited<ReturnType<typeof gateway>>;
  beforeAll(async () => { g = await gateway(); });
  afterAll(() => new Promise((r) => g.server.close(r)));
  const call = (path: string, method = 'GET', key: string | null = KEY) =>
    fetch(g.url + path, { method, headers: key ? { 'x-api-key': key } : {} });
  const errorOf = async (res: Response) => ({ status: res.status, ...((await res.json()) as { error: { code: string } }).error });

  it('an unknown path is 404 ROUTE_NOT_FOUND with the standard error body', async () => {
    const res = await call('/nope/deeper');
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await errorOf(res)).toMatchObject({ status: 404, code: 'ROUTE_NOT_FOUND', details: { method: 'GET', path: '/nope/deeper' } });
    expect(await errorOf(await call('/jobs'))).toMatchObject({ status: 404, code: 'ROUTE_NOT_FOUND' }); // a near miss of /job
  });

  it('a known path with another method is 405 METHOD_NOT_ALLOWED with an Allow header', async () => {
    const res = await call('/extract', 'GET');
    expect(res.headers.get('allow')).toBe('POST');
    expect(await errorOf(res)).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED', details: { allowed: ['POST'] } });
    const pipelines = await call('/pipelines/0f6b3a52-3c1e-4a8e-9a57-2b8f3f1d9c11', 'POST');
    expect(pipelines.headers.get('allow')).toBe('DELETE, GET, HEAD, PATCH, PUT');
    expect(pipelines.status).toBe(405);
    const job = await call('/job/5b0e1c9e-8a39-4bb8-9d0f-3c1c7a0c6a11', 'PUT');
    expect(job.headers.get('allow')).toBe('DELETE, GET, HEAD');
    // routes of a sub-router (the webhook portal API, mounted under /webhook-portal/api)
    const portal = await fetch(`${g.url}/webhook-portal/api/endpoints/e-1/test`, { headers: { authorization: 'Bearer portal-token' } });
    expect(await errorOf(portal)).toMatchObject({ status: 405 });
    expect(portal.headers.get('allow')).toBe('POST');
  });

  it('a malformed job id is 400 REQ_003 on every route under /job, /results and /cancel', async () => {
    for (const [method, path] of [['GET', '/job/not-a-uuid'], ['DELETE', '/job/123'], ['POST', '/cancel/abc'], ['GET', '/results/x'], ['GET', '/results/x/pdf'], ['GET', '/results/x/images/a.png']]) {
      expect(await errorOf(await call(path, method))).toMatchObject({ status: 400, code: 'REQ_003', details: { field: 'job_id' } });
    }
  });

  it('a malformed pipeline, schema or schema configuration id is 400 REQ_003 naming its field', async () => {
    for (const [method, path, field] of [['GET', '/pipelines/p-1', 'pipeline_id'], ['PATCH', '/pipelines/1', 'pipeline_id'], ['GET', '/schema/abc', 'schema_id'],
      ['GET', '/schema/abc/versions', 'schema_id'], ['GET', '/schema/configs/nope', 'schema_config_id'], ['GET', '/schema/configs/nope/versions', 'schema_config_id']]) {
      expect(await errorOf(await call(path, method))).toMatchObject({ status: 400, code: 'REQ_003', details: { field } });
    }
  });

  it('a malformed hosted file id is 400 REQ_003, with the key or with a token', async () => {
    expect(await errorOf(await call('/files/not-a-uuid'))).toMatchObject({ status: 400, code: 'REQ_003', details: { field: 'file_id', value: 'not-a-uuid' } });
    expect(await errorOf(await call('/files/123?token=abc', 'GET', null))).toMatchObject({ status: 400, code: 'REQ_003', details: { field: 'file_id' } });
    expect(await errorOf(await call('/files/not-a-uuid', 'GET', null))).toMatchObject({ status: 401, code: 'AUTH_001' }); // no token, no key
  });

  it('keeps authentication first for keyed paths (without a key an unknown path is 401), not for public ones', async () => {
    expect(await errorOf(await call('/nope', 'GET', null))).toMatchObject({ status: 401, code: 'AUTH_001' });
    expect(await errorOf(await call('/extract', 'GET', null))).toMatchObject({ status: 401, code: 'AUTH_001' });
    const docs = await call('/openapi.json', 'POST', null);
    expect(docs.headers.get('allow')).toBe('GET, HEAD');
    expect(await errorOf(docs)).toMatchObject({ status: 405, code: 'METHOD_NOT_ALLOWED' });
    expect((await call('/healthz', 'GET', null)).status).toBe(200);
  });

  it('lists every mounted route, the portal\'s under its mount path', () => {
    const routes = mountedRoutes(createGatewayApp(g.deps)).map((r) => `${r.method} ${r.path}`);
    expect(routes).toEqual(expect.arrayContaining(['post /extract', 'get /job/:jobId', 'delete /webhook-portal/api/endpoints/:id', 'get /docs/assets/:file']));
  });
});
