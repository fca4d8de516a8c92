import { startTestServer, formWith, SAMPLE_HTML, type TestServer } from '../support/embedded.js';

/** Every error code the platform owns, produced through HTTP against a real embedded server. */
describe('embedded: authentication and request errors', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer({ QUIRE_UPLOAD_LIMIT_MB: '1' }); });
  afterAll(() => t.close());

  const expectError = async (res: Response, status: number, code: string) => {
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect({ status: res.status, code: body.error.code }).toEqual({ status, code });
    expect(body.error.message).toEqual(expect.any(String));
    expect(res.headers.get('x-request-id')).toBeTruthy();
    return body;
  };

  it('AUTH_001 without a key, AUTH_002 with a wrong one', async () => {
    await expectError(await t.api('/usage', { key: null }), 401, 'AUTH_001');
    await expectError(await t.api('/usage', { key: 'qk_nope' }), 401, 'AUTH_002');
  });

  it('AUTH_003 for an expired key and AUTH_005 when the organization is gone', async () => {
    const store = t.server.ctx.store;
    const org = await store.orgs.create({ name: 'expiring' });
    const { key, record } = await store.keys.create(org.id);
    expect((await t.api('/usage', { key })).status).toBe(200);
    await store.keys.expire(record.id, new Date(Date.now() - 1000));
    await expectError(await t.api('/usage', { key }), 401, 'AUTH_003');
    const org2 = await store.orgs.create({ name: 'deleted' });
    const k2 = await store.keys.create(org2.id);
    await store.orgs.softDelete(org2.id);
    await expectError(await t.api('/usage', { key: k2.key }), 401, 'AUTH_005');
  });

  it('REQ_001 with neither file nor URL', async () => {
    await expectError(await t.api('/extract', { method: 'POST', body: formWith(undefined, { async: 'false' }) }), 400, 'REQ_001');
  });

  it('REQ_002 for malformed JSON and unknown fields', async () => {
    await expectError(await t.api('/extract', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"file_url": ' }), 400, 'REQ_002');
    await expectError(await t.api('/extract', { method: 'POST', body: formWith({ bytes: SAMPLE_HTML, name: 'a.html' }, { bogus_option: '1' }) }), 400, 'REQ_002');
  });

  it('REQ_003 for a wrongly typed value, REQ_005 for chunk size, REQ_006 for page ranges', async () => {
    await expectError(await t.api('/extract', { method: 'POST', body: formWith({ bytes: SAMPLE_HTML, name: 'a.html' }, { detect_selections: 'perhaps' }) }), 400, 'REQ_003');
    await expectError(await t.api('/extract', { method: 'POST', body: formWith({ bytes: SAMPLE_HTML, name: 'a.html' }, { chunk_size: '50' }) }), 400, 'REQ_005');
    await expectError(await t.api('/extract', { method: 'POST', body: formWith({ bytes: SAMPLE_HTML, name: 'a.html' }, { pages: '3-1' }) }), 400, 'REQ_006');
    await expectError(await t.api('/extract', { method: 'POST', body: formWith({ bytes: SAMPLE_HTML, name: 'a.html' }, { pages: '2' }) }), 400, 'REQ_006');
  });

  it('FILE_001 by magic bytes (not the name), FILE_003 for a broken PDF, FILE_004 for an empty file', async () => {
    await expectError(await t.api('/extract', { method: 'POST', body: formWith({ bytes: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]), name: 'looks.pdf' }) }), 400, 'FILE_001');
    await expectError(await t.api('/extract', { method: 'POST', body: formWith({ bytes: '%PDF-1.7\n this is not really a pdf', name: 'x.pdf' }) }), 400, 'FILE_003');
    await expectError(await t.api('/extract', { method: 'POST', body: formWith({ bytes: new Uint8Array(0), name: 'empty.pdf' }) }), 400, 'FILE_004');
  });

  it('FILE_TOO_LARGE_USE_URL past the upload limit, and the staged bytes are gone', async () => {
    const big = new Uint8Array(1.5 * 1024 * 1024).fill(65);
    await expectError(await t.api('/extract', { method: 'POST', body: formWith({ bytes: big, name: 'big.html' }) }), 413, 'FILE_TOO_LARGE_USE_URL');
  });

  it('FILE_007 for a bad or forbidden URL', async () => {
    const post = (file_url: string) => t.api('/extract', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ file_url }) });
    await expectError(await post('ftp://example.com/a.pdf'), 400, 'FILE_007');
    await expectError(await post('http://127.0.0.1:9/a.pdf'), 400, 'FILE_007'); // loopback refused by the SSRF guard
    await expectError(await post('http://169.254.169.254/latest/meta-data'), 400, 'FILE_007');
  });

  it('JOB_001 for unknown jobs, REQ_003 for a malformed job id', async () => {
    await expectError(await t.api('/job/00000000-0000-4000-8000-000000000000'), 404, 'JOB_001');
    await expectError(await t.api('/job/not-a-uuid'), 400, 'REQ_003');
    await expectError(await t.api('/results/not-a-uuid/pdf'), 400, 'REQ_003');
    await expectError(await t.api('/job/1;DROP', { method: 'DELETE' }), 400, 'REQ_003');
  });

  it('unknown paths are 404 and a wrong method 405 (with Allow), with the standard error body, not an HTML page', async () => {
    const res = await t.api('/nope');
    expect(res.headers.get('content-type')).toContain('application/json');
    await expectError(res, 404, 'ROUTE_NOT_FOUND');
    const wrong = await t.api('/extract');
    expect(wrong.headers.get('allow')).toBe('POST');
    await expectError(wrong, 405, 'METHOD_NOT_ALLOWED');
    const docs = await t.api('/openapi.json', { method: 'DELETE', key: null });
    expect(docs.headers.get('allow')).toBe('GET, HEAD');
    await expectError(docs, 405, 'METHOD_NOT_ALLOWED');
  });
});

describe('embedded: rate limiting', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer({ QUIRE_RATE_LIMIT_PER_MINUTE: '3' }); });
  afterAll(() => t.close());

  it('answers 429 GENERAL_004 with Retry-After once the bucket is empty', async () => {
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 5; i++) { last = await t.api('/usage'); statuses.push(last.status); }
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await last!.json()) as { error: { code: string } }).error.code).toBe('GENERAL_004');
  });
});
