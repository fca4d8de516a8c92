import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ensureBuilt, spawnService, type FleetService } from '../../scripts/lib/fleet.mjs';

/**
 * `quire serve` (the built CLI, as a child process) stops gracefully on SIGTERM, like the fleet gateway:
 * a request in flight when the signal comes gets its whole answer (with Connection: close), new
 * connections are refused from then on, and the process exits 0 as soon as the request is done, not
 * after node's 65 s keep-alive. The request is slow because the client sends its upload in two halves
 * around the signal; nothing in the server is slowed down for the test.
 */
const KEY = 'qk_test_serve_drain_0123456789';
const HTML = `<!doctype html><html><head><title>Drain</title></head><body><main><h1>Answered while draining</h1>
<p>${'The embedded server finishes this request before it stops. '.repeat(40)}</p></main></body></html>`;

describe('embedded: quire serve stops gracefully on SIGTERM', () => {
  beforeAll(() => ensureBuilt(), 120_000);
  let serve: FleetService | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-serve-drain-'));
  afterAll(async () => {
    await serve?.stop(5_000);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('an upload in flight gets its full 200, new connections are refused, and the process exits 0', async () => {
    serve = spawnService('quire-serve', 'apps/cli/dist/main.js', {
      QUIRE_MODE: 'embedded', QUIRE_HOST: '127.0.0.1', QUIRE_PORT: '0', QUIRE_DATA_DIR: dataDir, QUIRE_BOOTSTRAP_API_KEY: KEY,
      QUIRE_LOG_LEVEL: 'warn', QUIRE_WORKER_CONCURRENCY: '1', QUIRE_OCR_WORKERS: '1',
    }, { args: ['serve'] });
    const { port } = await serve.ready;
    const url = `http://127.0.0.1:${port}`;
    const dump = () => `\n--- quire serve ---\n${serve!.output().slice(-3000)}`;
    const agent = new http.Agent({ keepAlive: true });
    try {
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      // A synchronous extract whose multipart body is sent in two parts: the first now, the rest after the signal.
      const boundary = '----quiredrain';
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="drain.html"\r\nContent-Type: text/html\r\n\r\n`;
      const body = Buffer.from(`${head}${HTML}\r\n--${boundary}--\r\n`);
      const half = head.length + 200;
      let sendRest: () => void = () => undefined;
      const answer = new Promise<{ status: number; connection?: string; body: any }>((resolve, reject) => {
        const req = http.request(`${url}/extract`, {
          method: 'POST', agent,
          headers: { 'x-api-key': KEY, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length },
        }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d) => { text += d; });
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: JSON.parse(text) }));
        });
        req.on('error', reject);
        req.write(body.subarray(0, half));
        sendRest = () => req.end(body.subarray(half));
      });
      await new Promise((r) => setTimeout(r, 300)); // the server has the request

      serve.child.kill('SIGTERM');
      const end = Date.now() + 5_000;
      for (;;) {
        const seen = await fetch(`${url}/healthz`).then((r) => `HTTP ${r.status}`, (e: { cause?: { code?: string } }) => e.cause?.code ?? String(e));
        if (seen === 'ECONNREFUSED') break;
        if (Date.now() > end) throw new Error(`new connections still answered (${seen})${dump()}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(serve.child.exitCode).toBeNull(); // waiting for the request in flight

      sendRest();
      const res = await answer;
      if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}${dump()}`);
      expect(res.body.markdown).toContain('Answered while draining');
      expect(res.connection).toBe('close');
      const exit = await Promise.race([serve.exited, new Promise((r) => setTimeout(() => r('still running'), 15_000))]);
      expect(exit).toEqual({ code: 0, signal: null });
    } finally {
      agent.destroy();
    }
  }, 90_000);
});
