import { startTestServer, formWith, SAMPLE_HTML, type TestServer } from '../support/embedded.js';

describe('embedded: legacy POST /convert', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer(); });
  afterAll(() => t.close());

  it('hosts an uploaded document: a token URL serves it without a key, the key serves it without a token', async () => {
    const res = await t.api('/convert', { method: 'POST', body: formWith({ bytes: SAMPLE_HTML, name: 'page.html' }) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({ file_id: expect.any(String), filename: 'page.html', size: SAMPLE_HTML.length, format: 'html', page_count: 1 });
    const viaToken = await fetch(body.url);
    expect(viaToken.status).toBe(200);
    expect(viaToken.headers.get('content-type')).toContain('text/html');
    expect(await viaToken.text()).toBe(SAMPLE_HTML);
    const viaKey = await t.api(`/files/${body.file_id}`);
    expect(await viaKey.text()).toBe(SAMPLE_HTML);
    expect((await fetch(`${t.url}/files/${body.file_id}?token=wrong`)).status).toBe(404);
    expect((await fetch(`${t.url}/files/${body.file_id}`)).status).toBe(401);
    // Another organization's key does not see it.
    const store = t.server.ctx.store;
    const other = await store.orgs.create({ name: 'convert-other' });
    const { key } = await store.keys.create(other.id);
    expect((await t.api(`/files/${body.file_id}`, { key })).status).toBe(404);
  });

  it('validates the document like /extract (FILE_001, REQ_001)', async () => {
    const bad = await t.api('/convert', { method: 'POST', body: formWith({ bytes: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]), name: 'x.pdf' }) });
    expect(((await bad.json()) as any).error.code).toBe('FILE_001');
    const none = await t.api('/convert', { method: 'POST', body: formWith(undefined, {}) });
    expect(((await none.json()) as any).error.code).toBe('REQ_001');
  });
});
