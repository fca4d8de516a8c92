import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { HOSTILE_RSS_GROWTH_LIMIT, measured } from '../support/bounds.js';
import { startTestServer, type TestServer } from '../support/embedded.js';

/**
 * file_url downloads are bounded (QUIRE_FILE_URL_MAX_MB, QUIRE_FILE_URL_TIMEOUT_SECONDS as the total time)
 * and stop when the client that asked goes away; no partial file is left in either case. The origin
 * server is local (allow-listed) and sends bodies that never end: fast, or slow but never silent.
 */
const CHUNK = Buffer.alloc(64 * 1024, 0x25);

interface Origin { url: string; responses: http.ServerResponse[]; requested: Promise<void>; close(): Promise<void> }

/** `/fast` streams without end as fast as the socket takes it; `/slow` sends 1 KB every 100 ms forever; `/big` declares 50 MB. */
async function startOrigin(): Promise<Origin> {
  const responses: http.ServerResponse[] = [];
  let onRequest: () => void = () => undefined;
  const requested = new Promise<void>((r) => { onRequest = r; });
  const server = http.createServer((req, res) => {
    responses.push(res);
    onRequest();
    if (req.url === '/big') { res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) }); res.write(CHUNK); return; }
    res.writeHead(200, { 'content-type': 'application/pdf' });
    if (req.url === '/slow') {
      const timer = setInterval(() => res.write(CHUNK.subarray(0, 1024)), 100);
      res.on('close', () => clearInterval(timer));
      return;
    }
    const pump = () => { while (!res.destroyed && res.write(CHUNK)); if (!res.destroyed) res.once('drain', pump); };
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, responses, requested,
    close: () => { server.closeAllConnections(); return new Promise((r) => server.close(() => r())); },
  };
}

const closed = (res: http.ServerResponse) => new Promise<void>((r) => (res.destroyed ? r() : res.once('close', () => r())));

describe('embedded: file_url downloads are bounded', () => {
  let t: TestServer;
  let origin: Origin;
  const tmpFiles = () => (fs.existsSync(path.join(t.dataDir, 'blobs', 'tmp')) ? fs.readdirSync(path.join(t.dataDir, 'blobs', 'tmp')) : []);
  const blobFiles = () => (fs.existsSync(path.join(t.dataDir, 'blobs', 'blobs')) ? fs.readdirSync(path.join(t.dataDir, 'blobs', 'blobs'), { recursive: true }).filter((f) => fs.statSync(path.join(t.dataDir, 'blobs', 'blobs', String(f))).isFile()) : []);
  beforeAll(async () => {
    origin = await startOrigin();
    t = await startTestServer({ QUIRE_FILE_URL_ALLOW_HOSTS: '127.0.0.1', QUIRE_FILE_URL_MAX_MB: '2', QUIRE_FILE_URL_TIMEOUT_SECONDS: '2' });
  });
  afterAll(async () => { await t?.close(); await origin?.close(); });

  const extract = (fileUrl: string, signal?: AbortSignal) => t.api('/extract', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ file_url: fileUrl }), signal,
  });
  const expectError = async (res: Response, status: number, code: string) => {
    expect({ status: res.status, code: ((await res.json()) as any).error?.code }).toEqual({ status, code });
  };

  it('an endless body is cut at the size limit: 413 FILE_002, nothing kept, in bounded time and memory', async () => {
    const { value: res, ms, rssGrowth } = await measured(() => extract(`${origin.url}/fast`));
    await expectError(res, 413, 'FILE_002');
    expect(ms).toBeLessThan(20_000);
    expect(rssGrowth).toBeLessThan(HOSTILE_RSS_GROWTH_LIMIT);
    await closed(origin.responses.at(-1)!); // the download stopped
    expect(tmpFiles()).toEqual([]);
    expect(blobFiles()).toEqual([]);
  });

  it('a declared length over the limit is refused before the body: 413 FILE_002', async () => {
    await expectError(await extract(`${origin.url}/big`), 413, 'FILE_002');
    expect(tmpFiles()).toEqual([]);
  });

  it('a slow body that never goes silent is cut at the total time: 408 FILE_006, nothing kept', async () => {
    const { value: res, ms } = await measured(() => extract(`${origin.url}/slow`));
    await expectError(res, 408, 'FILE_006');
    expect(ms).toBeLessThan(10_000); // the total time is set to 2 s here
    await closed(origin.responses.at(-1)!);
    expect(tmpFiles()).toEqual([]);
    expect(blobFiles()).toEqual([]);
  });

  it('stops downloading when the client goes away, and removes the partial file', async () => {
    // A server whose time limit is out of reach: only the client leaving can end this download.
    const patient = await startTestServer({ QUIRE_FILE_URL_ALLOW_HOSTS: '127.0.0.1', QUIRE_FILE_URL_TIMEOUT_SECONDS: '3600' });
    const tmp = path.join(patient.dataDir, 'blobs', 'tmp');
    try {
      const before = origin.responses.length;
      const client = new AbortController();
      const answer = patient.api('/extract', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ file_url: `${origin.url}/slow` }), signal: client.signal })
        .catch((e: Error) => e);
      while (origin.responses.length === before || !fs.existsSync(tmp) || !fs.readdirSync(tmp).length) await new Promise((r) => setTimeout(r, 10)); // the download is being written
      client.abort();
      expect(((await answer) as Error).name).toBe('AbortError');
      await closed(origin.responses.at(-1)!); // the gateway hung up on the origin
      for (let i = 0; fs.readdirSync(tmp).length && i < 500; i++) await new Promise((r) => setTimeout(r, 10));
      expect(fs.readdirSync(tmp)).toEqual([]);
      expect((await fetch(`${patient.url}/healthz`)).status).toBe(200);
    } finally {
      await patient.close();
    }
  });
});
