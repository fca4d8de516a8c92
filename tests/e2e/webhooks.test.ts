import { verifyWebhook } from '@quire/webhooks';
import { startTestServer, formWith, pollJob, SAMPLE_HTML, type TestServer } from '../support/embedded.js';
import { startReceiver } from '../support/webhook-receiver.js';

/** Webhooks through HTTP: POST /webhook → portal API → endpoint → job events delivered, signed, logged. */
describe('embedded: webhooks', () => {
  let t: TestServer;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    rx = await startReceiver((r) => (r.url.includes('fail=1') ? 500 : 200));
    t = await startTestServer({ QUIRE_WEBHOOK_ALLOW_HOSTS: '127.0.0.1', QUIRE_WEBHOOK_POLL_MS: '50', QUIRE_WEBHOOK_RETRY_SCHEDULE: '0,0.1,0.1' });
  });
  afterAll(async () => { await t?.close(); await rx?.close(); });

  const waitFor = async (cond: () => boolean | Promise<boolean>, ms = 10_000) => {
    const end = Date.now() + ms;
    while (!(await cond())) { if (Date.now() > end) throw new Error('timed out'); await new Promise((r) => setTimeout(r, 50)); }
  };

  it('POST /webhook gives a portal link; the portal manages endpoints; job events arrive signed and filtered', async () => {
    const res = await t.api('/webhook', { method: 'POST' });
    expect(res.status).toBe(200);
    const { link, expires_in } = (await res.json()) as { link: string; expires_in: number };
    expect(expires_in).toBe(3600);
    const token = new URL(link).searchParams.get('token')!;
    const page = await fetch(link);
    expect(page.headers.get('content-type')).toContain('text/html');
    const portal = (p: string, init: RequestInit = {}) => fetch(`${t.url}/webhook-portal/api${p}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });

    expect((await fetch(`${t.url}/webhook-portal/api/endpoints`, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    const bad = await portal('/endpoints', { method: 'POST', body: JSON.stringify({ url: 'ftp://x' }) });
    expect(bad.status).toBe(400);

    const created = await portal('/endpoints', { method: 'POST', body: JSON.stringify({ url: rx.url, description: 'ci', event_types: ['job.completed', 'job.failed'], headers: { authorization: 'Bearer receiver-secret' } }) });
    expect(created.status).toBe(201);
    const ep = (await created.json()) as { id: string; secret: string };
    expect(ep.secret).toMatch(/^whsec_/);
    const all = await portal('/endpoints', { method: 'POST', body: JSON.stringify({ url: `${rx.url}?all=1` }) });
    expect(all.status).toBe(201);
    expect(((await (await portal('/endpoints')).json()) as any).endpoints).toHaveLength(2);

    const acc = await t.api('/extract', { method: 'POST', body: formWith({ bytes: SAMPLE_HTML, name: 'w.html' }, { async: 'true' }) });
    const { job_id } = (await acc.json()) as { job_id: string };
    expect((await pollJob(t, job_id)).status).toBe('completed');

    await waitFor(() => rx.received.filter((r) => JSON.parse(r.body).data?.job_id === job_id).length >= 4);
    const mine = rx.received.filter((r) => JSON.parse(r.body).data?.job_id === job_id);
    const filtered = mine.filter((r) => r.url === '/hook');
    expect(filtered.every((r) => r.headers.authorization === 'Bearer receiver-secret')).toBe(true);
    expect(filtered.map((r) => JSON.parse(r.body).type)).toEqual(['job.completed']);
    const payload = verifyWebhook(ep.secret, filtered[0].body, filtered[0].headers) as any;
    expect(payload).toMatchObject({ type: 'job.completed', timestamp: expect.any(String), data: { job_id, status: 'completed', pages_processed: 1, processing_time: expect.any(Number) } });
    // The unfiltered endpoint got the whole life cycle.
    const types = mine.filter((r) => r.url === '/hook?all=1').map((r) => JSON.parse(r.body).type);
    expect(types).toEqual(expect.arrayContaining(['job.created', 'job.processing', 'job.completed']));

    const log = (await (await portal(`/endpoints/${ep.id}/deliveries`)).json()) as any;
    expect(log.deliveries[0]).toMatchObject({ event_type: 'job.completed', status: 'succeeded', attempts: 1 });
    expect(log.deliveries[0].attempt_log[0]).toMatchObject({ status_code: 200 });
  }, 30_000);

  it('sends a test event from the portal and shows retries in the delivery log', async () => {
    const { link } = (await (await t.api('/webhook', { method: 'POST' })).json()) as { link: string };
    const token = new URL(link).searchParams.get('token')!;
    const portal = (p: string, init: RequestInit = {}) => fetch(`${t.url}/webhook-portal/api${p}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } });
    const ep = (await (await portal('/endpoints', { method: 'POST', body: JSON.stringify({ url: rx.url, description: 'test events' }) })).json()) as { id: string; secret: string };
    const test = await portal(`/endpoints/${ep.id}/test`, { method: 'POST' });
    expect(test.status).toBe(202);
    const { msg_id } = (await test.json()) as { msg_id: string };
    await waitFor(() => rx.received.some((r) => r.headers['webhook-id'] === msg_id));
    const got = rx.received.find((r) => r.headers['webhook-id'] === msg_id)!;
    expect((verifyWebhook(ep.secret, got.body, got.headers) as any).type).toBe('webhook.test');

    // An endpoint that answers 500 is retried on the schedule (0, 0.1, 0.1 s here), then marked failed; every attempt is logged.
    const patched = await portal(`/endpoints/${ep.id}`, { method: 'PATCH', body: JSON.stringify({ url: `${rx.url}?fail=1` }) });
    expect(((await patched.json()) as any).url).toContain('fail=1');
    const failing = (await (await portal(`/endpoints/${ep.id}/test`, { method: 'POST' })).json()) as { delivery_id: number; msg_id: string };
    let d: any;
    await waitFor(async () => {
      d = ((await (await portal(`/endpoints/${ep.id}/deliveries`)).json()) as any).deliveries.find((x: any) => x.id === failing.delivery_id);
      return d?.status === 'failed';
    });
    expect(d.attempts).toBe(3);
    expect(d.attempt_log.map((a: any) => a.status_code)).toEqual([500, 500, 500]);
    expect(rx.received.filter((r) => r.headers['webhook-id'] === failing.msg_id)).toHaveLength(3);
  }, 30_000);

  it('another organization\'s portal token cannot see or touch these endpoints', async () => {
    const store = t.server.ctx.store;
    const other = await store.orgs.create({ name: 'wh-other' });
    const token = await store.webhooks.createPortalSession(other.id, 60);
    const list = (await (await fetch(`${t.url}/webhook-portal/api/endpoints`, { headers: { authorization: `Bearer ${token}` } })).json()) as any;
    expect(list.endpoints).toEqual([]);
    const mine = await store.webhooks.listEndpoints((await store.orgs.findByName('dev'))!.id);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    // Not found, like any other organization's resource (and like an id that does not exist at all).
    for (const [method, sub] of [['GET', ''], ['GET', '/deliveries'], ['PATCH', ''], ['DELETE', ''], ['POST', '/test']]) {
      const res = await fetch(`${t.url}/webhook-portal/api/endpoints/${mine[0].id}${sub}`, { method, headers: auth, ...(method === 'PATCH' ? { body: JSON.stringify({ description: 'x' }) } : {}) });
      expect({ method, sub, status: res.status, code: ((await res.json()) as any).error?.code }).toEqual({ method, sub, status: 404, code: 'STORAGE_002' });
    }
    expect((await fetch(`${t.url}/webhook-portal/api/endpoints/00000000-0000-4000-8000-000000000000`, { headers: auth })).status).toBe(404);
    expect((await store.webhooks.getEndpoint(mine[0].id))?.description).not.toBe('x');
  });

  it('an endpoint on a non-public address is refused when created or changed, with the reason', async () => {
    const store = t.server.ctx.store;
    const org = await store.orgs.create({ name: 'wh-private' });
    const token = await store.webhooks.createPortalSession(org.id, 60);
    const portal = (p: string, method: string, body: unknown) => fetch(`${t.url}/webhook-portal/api${p}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    // 127.0.0.1 is allow-listed in this server; these are not.
    for (const url of ['http://10.0.0.7/hook', 'http://169.254.169.254/latest/meta-data', 'http://[::1]:8080/x', 'http://0x7f000002/hook', 'http://192.168.1.1/', 'http://[::ffff:10.0.0.1]/hook']) {
      const res = await portal('/endpoints', 'POST', { url });
      const body = (await res.json()) as any;
      expect({ url, status: res.status, code: body.error?.code }).toEqual({ url, status: 400, code: 'REQ_003' });
      expect(body.error.message).toMatch(/^Webhook URL refused: .* non-public address/);
      expect(body.error.details).toMatchObject({ field: 'url', range: expect.any(String) });
    }
    expect(await store.webhooks.listEndpoints(org.id)).toEqual([]);
    const ok = await portal('/endpoints', 'POST', { url: 'http://127.0.0.1:9/hook' });
    expect(ok.status).toBe(201);
    const { id } = (await ok.json()) as { id: string };
    const moved = await portal(`/endpoints/${id}`, 'PATCH', { url: 'http://10.1.2.3/hook' });
    expect(moved.status).toBe(400);
    expect((await store.webhooks.getEndpoint(id))?.url).toBe('http://127.0.0.1:9/hook');
  });
});
