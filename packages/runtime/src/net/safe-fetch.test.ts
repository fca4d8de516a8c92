import http from 'node:http';
import net from 'node:net';
import type { Readable } from 'node:stream';
import { safeFetch, type SafeFetchOptions } from './safe-fetch.js';

let server: http.Server;
let base: string;
let port: number;
const sockets = new Set<net.Socket>();
const hosts: string[] = [];

async function readAll(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks).toString();
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hosts.push(req.headers.host ?? '');
    const path = req.url ?? '/';
    if (path === '/ok') res.end('hello');
    else if (path === '/404') { res.statusCode = 404; res.end('nope'); }
    else if (path === '/slow') { /* never answers */ }
    else if (path === '/stall') { res.writeHead(200, { 'content-type': 'text/plain' }); res.write('first bytes'); }
    else if (path === '/to-ok') { res.writeHead(302, { location: '/ok' }); res.end(); }
    else if (path === '/to-meta') { res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }); res.end(); }
    else if (path === '/to-private') { res.writeHead(307, { location: 'http://10.0.0.5/internal' }); res.end(); }
    else if (path === '/to-file') { res.writeHead(301, { location: 'file:///etc/passwd' }); res.end(); }
    else if (path === '/loop') { res.writeHead(302, { location: '/loop' }); res.end(); }
    else if (path === '/big') { res.writeHead(200, { 'content-length': String(100_000) }); res.end(Buffer.alloc(100_000)); }
    else if (path === '/big-chunked') { res.writeHead(200); for (let i = 0; i < 10; i++) res.write(Buffer.alloc(10_000)); res.end(); }
    else { res.statusCode = 500; res.end(); }
  });
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as net.AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

const allowed: SafeFetchOptions = { timeoutMs: 2_000, allowHosts: ['127.0.0.1'] };

describe('safeFetch refuses non-public targets (FILE_007)', () => {
  it.each([
    'http://127.0.0.1/', 'http://127.1.2.3/', 'http://10.1.2.3/', 'http://172.16.0.1/', 'http://172.31.255.255/',
    'http://192.168.1.1/', 'http://169.254.169.254/latest/meta-data/', 'http://100.64.0.1/', 'http://0.0.0.0/',
    'http://224.0.0.1/', 'http://[::1]/', 'http://[fc00::1]/', 'http://[fd12::1]/', 'http://[fe80::1]/',
    'http://[::ffff:127.0.0.1]/', 'http://[::ffff:a9fe:a9fe]/', 'http://[64:ff9b::a00:1]/', 'https://10.0.0.1/',
    'http://2130706433/', 'http://0x7f.0.0.1/', 'http://0177.0.0.1/',
  ])('%s', async (url) => {
    await expect(safeFetch(url, { timeoutMs: 1_000 })).rejects.toMatchObject({ code: 'FILE_007' });
  });

  it('refuses a host name that resolves to loopback (localhost)', async () => {
    await expect(safeFetch(`http://localhost:${port}/ok`, { timeoutMs: 1_000 })).rejects.toMatchObject({ code: 'FILE_007' });
  });

  it('refuses a host when any of its addresses is private', async () => {
    const resolve = async () => [{ address: '93.184.216.34', family: 4 as const }, { address: '10.0.0.7', family: 4 as const }];
    await expect(safeFetch('http://mixed.example.test/', { timeoutMs: 1_000, resolve })).rejects.toMatchObject({
      code: 'FILE_007', details: expect.objectContaining({ range: 'private' }),
    });
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/a.pdf', 'gopher://example.com/', 'javascript:alert(1)', 'not a url', ''])(
    'refuses the URL %j', async (url) => {
      await expect(safeFetch(url, { timeoutMs: 1_000 })).rejects.toMatchObject({ code: 'FILE_007' });
    });

  it('refuses a redirect from an allowed server to the metadata address', async () => {
    await expect(safeFetch(`${base}/to-meta`, allowed)).rejects.toMatchObject({ code: 'FILE_007' });
  });

  it('refuses a redirect to a private address and to a non-http scheme', async () => {
    await expect(safeFetch(`${base}/to-private`, allowed)).rejects.toMatchObject({ code: 'FILE_007' });
    await expect(safeFetch(`${base}/to-file`, allowed)).rejects.toMatchObject({ code: 'FILE_007' });
  });
});

describe('safeFetch on allowed targets', () => {
  it('lets an allow-listed 127.0.0.1 server through and streams the body', async () => {
    const res = await safeFetch(`${base}/ok`, allowed);
    expect(res.status).toBe(200);
    expect(res.finalUrl).toBe(`${base}/ok`);
    expect(await readAll(res.body)).toBe('hello');
  });

  it('allowPrivate lifts the checks', async () => {
    const res = await safeFetch(`${base}/ok`, { timeoutMs: 2_000, allowPrivate: true });
    expect(await readAll(res.body)).toBe('hello');
  });

  it('connects to the address it checked, not to a second DNS answer (no rebinding)', async () => {
    let calls = 0;
    // First answer: allowed test server; any later answer would be the metadata service.
    const resolve = async () => (++calls === 1
      ? [{ address: '127.0.0.1', family: 4 as const }]
      : [{ address: '169.254.169.254', family: 4 as const }]);
    const res = await safeFetch(`http://files.example.test:${port}/ok`, { ...allowed, resolve });
    expect(await readAll(res.body)).toBe('hello');
    expect(calls).toBe(1);
    expect(hosts[hosts.length - 1]).toBe(`files.example.test:${port}`);
  });

  it('follows a relative redirect and checks it again', async () => {
    const res = await safeFetch(`${base}/to-ok`, allowed);
    expect(res.finalUrl).toBe(`${base}/ok`);
    expect(await readAll(res.body)).toBe('hello');
  });

  it('gives up after maxRedirects with FILE_005', async () => {
    await expect(safeFetch(`${base}/loop`, { ...allowed, maxRedirects: 3 })).rejects.toMatchObject({ code: 'FILE_005' });
  });
});

describe('safeFetch failures', () => {
  it('a 404 is FILE_005 with the status', async () => {
    await expect(safeFetch(`${base}/404`, allowed)).rejects.toMatchObject({ code: 'FILE_005', details: expect.objectContaining({ status: 404 }) });
  });

  it('a server that never answers is FILE_006', async () => {
    await expect(safeFetch(`${base}/slow`, { ...allowed, timeoutMs: 250 })).rejects.toMatchObject({ code: 'FILE_006' });
  });

  it('a body that stops arriving fails the stream with FILE_006', async () => {
    const res = await safeFetch(`${base}/stall`, { ...allowed, timeoutMs: 250 });
    await expect(readAll(res.body)).rejects.toMatchObject({ code: 'FILE_006' });
  });

  it('a signal stops a download waiting for headers, or one reading its body, with the signal\'s reason', async () => {
    const waiting = new AbortController();
    const hanging = safeFetch(`${base}/slow`, { ...allowed, timeoutMs: 600_000, signal: waiting.signal });
    await new Promise<void>((r) => server.once('request', () => r()));
    const reason = new Error('job canceled');
    waiting.abort(reason);
    await expect(hanging).rejects.toBe(reason);
    const reading = new AbortController();
    const res = await safeFetch(`${base}/stall`, { ...allowed, timeoutMs: 600_000, signal: reading.signal });
    const read = readAll(res.body);
    reading.abort(reason);
    await expect(read).rejects.toBe(reason);
    const stopped = new AbortController();
    stopped.abort(reason);
    await expect(safeFetch(`${base}/ok`, { ...allowed, signal: stopped.signal })).rejects.toBe(reason);
  });

  it('a refused connection is FILE_005', async () => {
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    await expect(safeFetch(`http://127.0.0.1:${closed}/`, allowed)).rejects.toMatchObject({ code: 'FILE_005' });
  });

  it('a DNS lookup that hangs counts against the timeout (FILE_006)', async () => {
    const resolve = () => new Promise<never>(() => undefined);
    await expect(safeFetch('http://hang.example.test/', { timeoutMs: 200, resolve })).rejects.toMatchObject({ code: 'FILE_006' });
  });

  it('an unresolvable host is FILE_005', async () => {
    const resolve = async () => { throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }); };
    await expect(safeFetch('http://nowhere.example.test/', { timeoutMs: 1_000, resolve })).rejects.toMatchObject({ code: 'FILE_005' });
  });

  it('enforces maxBytes from Content-Length and while streaming (FILE_002)', async () => {
    await expect(safeFetch(`${base}/big`, { ...allowed, maxBytes: 50_000 })).rejects.toMatchObject({ code: 'FILE_002' });
    const res = await safeFetch(`${base}/big-chunked`, { ...allowed, maxBytes: 50_000 });
    await expect(readAll(res.body)).rejects.toMatchObject({ code: 'FILE_002' });
    const ok = await safeFetch(`${base}/big`, { ...allowed, maxBytes: 100_000 });
    expect((await readAll(ok.body)).length).toBe(100_000);
  });
});
