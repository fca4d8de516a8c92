import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERROR_CODES, QuireError as CoreQuireError, type ErrorCode } from '@quire/core';
import { backoffDelay } from './backoff.js';
import { Quire } from './client.js';
import { QuireError, RETRYABLE_CODES } from './errors.js';

async function serve(answers: { status: number; body: string; headers?: Record<string, string> }[]) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url} ${req.headers['x-api-key'] ?? '-'}`);
    const a = answers[Math.min(hits.length - 1, answers.length - 1)];
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
    res.end(a.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, close: () => new Promise<void>((r) => server.close(() => r())) };
}
const err = (code: string) => JSON.stringify({ error: { code, message: code } });
const fast = { maxRetries: 3, retryBackoff: { initialMs: 1, maxMs: 5 } };

describe('transport: errors and retries', () => {
  it('retryable is exactly the spec\'s list (the server\'s error table agrees)', () => {
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
      expect([code, new QuireError(code, '', 500).retryable]).toEqual([code, new CoreQuireError(code).retryable]);
    }
    expect(RETRYABLE_CODES.size).toBe(11);
  });

  it('retries a retryable code with backoff, then succeeds', async () => {
    const s = await serve([{ status: 503, body: err('GENERAL_002') }, { status: 429, body: err('GENERAL_004'), headers: { 'retry-after': '0' } }, { status: 200, body: '{"ok":true}' }]);
    try {
      expect(await new Quire({ baseUrl: s.url, apiKey: 'k', ...fast }).usage()).toEqual({ ok: true });
      expect(s.hits).toEqual(['GET /usage k', 'GET /usage k', 'GET /usage k']);
    } finally { await s.close(); }
  });

  it('stops after maxRetries and throws the last error; never retries a non-retryable code', async () => {
    const s = await serve([{ status: 500, body: err('PROC_001') }]);
    try {
      await expect(new Quire({ baseUrl: s.url, ...fast }).usage()).rejects.toMatchObject({ code: 'PROC_001', status: 500, retryable: true });
      expect(s.hits).toHaveLength(4);
    } finally { await s.close(); }
    const bad = await serve([{ status: 400, body: err('REQ_006') }]);
    try {
      await expect(new Quire({ baseUrl: bad.url, ...fast }).usage()).rejects.toMatchObject({ code: 'REQ_006', retryable: false });
      expect(bad.hits).toHaveLength(1);
    } finally { await bad.close(); }
  });

  it('a response without the error body still gets a spec code from its status', async () => {
    const s = await serve([{ status: 504, body: '<html>gateway timeout</html>' }]);
    try {
      await expect(new Quire({ baseUrl: s.url, maxRetries: 0 }).usage()).rejects.toMatchObject({ code: 'GENERAL_003', status: 504, retryable: true });
    } finally { await s.close(); }
  });

  it('the API key is sent to the service only, not to another host a result URL names', async () => {
    const service = await serve([{ status: 200, body: '{}' }]);
    const other = await serve([{ status: 200, body: '{"x":1}' }]);
    try {
      const quire = new Quire({ baseUrl: service.url, apiKey: 'secret' });
      await quire.getResult('j');
      await quire.transport.json('GET', `${other.url}/results/j?token=t`);
      expect(service.hits).toEqual(['GET /results/j secret']);
      expect(other.hits).toEqual(['GET /results/j?token=t -']);
    } finally { await service.close(); await other.close(); }
  });

  it('an aborted signal ends a retry wait at once', async () => {
    const s = await serve([{ status: 503, body: err('GENERAL_002') }]);
    try {
      const controller = new AbortController();
      const call = new Quire({ baseUrl: s.url, maxRetries: 5, retryBackoff: { initialMs: 60_000, maxMs: 60_000 } }).usage({}, { signal: controller.signal });
      setTimeout(() => controller.abort(new Error('user stop')), 50);
      await expect(call).rejects.toThrow('user stop');
    } finally { await s.close(); }
  });

  it('backoff grows exponentially with jitter inside [ceiling/2, ceiling], capped', () => {
    const o = { initialMs: 100, maxMs: 1000 };
    expect([0, 1, 2, 3, 10].map((n) => backoffDelay(n, o, () => 0))).toEqual([50, 100, 200, 400, 500]);
    expect([0, 1, 2, 3, 10].map((n) => backoffDelay(n, o, () => 1))).toEqual([100, 200, 400, 800, 1000]);
  });
});
