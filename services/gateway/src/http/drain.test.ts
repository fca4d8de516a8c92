import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import express from 'express';
import { loadConfig, Metrics } from '@quire/runtime';
import type { GatewayDeps, GatewayLifecycle } from '../deps.js';
import { operationsRoutes } from '../routes/operations.js';
import { createGatewayServer } from './server.js';
import { DRAIN_MARGIN_MS, ServerDrain, drainTimeoutMs } from './drain.js';

/**
 * ServerDrain over a real gateway server (createGatewayServer) with the real operations routes and a
 * route whose answer the test releases: requests in flight finish, with `Connection: close`; new
 * connections are refused; kept-alive connections do not hold the stop up; the bound cuts the rest.
 */
interface Answer { status: number; connection: string | undefined; body: string }

function get(agent: http.Agent, url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http.get(url, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
    }).on('error', reject);
  });
}

async function start() {
  const lifecycle: GatewayLifecycle = { draining: false };
  const ping = async () => undefined;
  const deps = { store: { ping }, queue: { ping }, blobs: { ping }, lifecycle, metrics: new Metrics(async () => ({})) } as unknown as GatewayDeps;
  const gates: (() => void)[] = [];
  let entered: () => void = () => undefined;
  const app = express();
  app.use(operationsRoutes(deps));
  // Answers when the test calls release(): a request kept in flight for as long as the test needs.
  app.get('/slow', (_req, res) => { gates.push(() => res.json({ done: true })); entered(); });
  // Headers out at once, the body later: a response already streaming when the drain starts.
  app.get('/stream', (_req, res) => { res.writeHead(200, { 'content-type': 'text/plain' }); res.write('part 1\n'); gates.push(() => res.end('part 2\n')); entered(); });
  const server = createGatewayServer(app);
  const drain = new ServerDrain(server, lifecycle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = new http.Agent({ keepAlive: true });
  return {
    url, server, drain, lifecycle, agent,
    /** Starts a request to `path`; resolves once the app holds it, with the answer to come (wrapped: an async function would adopt it). */
    async inFlight(path: string): Promise<{ answer: Promise<Answer> }> {
      const held = new Promise<void>((r) => { entered = r; });
      const answer = get(agent, url + path);
      answer.catch(() => undefined);
      await held;
      return { answer };
    },
    release: () => { for (const g of gates.splice(0)) g(); },
    close: () => { agent.destroy(); server.closeAllConnections(); server.close(); },
  };
}

const refused = (url: string) => fetch(url).then(() => 'answered', (e: { cause?: { code?: string } }) => e.cause?.code ?? String(e));

describe('ServerDrain', () => {
  it('bounds the drain by the sync wait plus a margin', () => {
    expect(drainTimeoutMs(loadConfig({ QUIRE_SYNC_WAIT_SECONDS: '300' }))).toBe(300_000 + DRAIN_MARGIN_MS);
    expect(drainTimeoutMs(loadConfig({ QUIRE_SYNC_WAIT_SECONDS: '2' }))).toBe(2_000 + DRAIN_MARGIN_MS);
  });

  it('lets requests in flight finish with Connection: close, refuses new connections, and reports not ready (healthz stays 200)', async () => {
    const t = await start();
    try {
      expect(await get(t.agent, `${t.url}/readyz`)).toMatchObject({ status: 200 }); // leaves an idle kept-alive connection
      const { answer: slow } = await t.inFlight('/slow');
      const { answer: stream } = await t.inFlight('/stream');
      const probeHalf = await halfSent(t.server, t.url, '/readyz');
      const probeHalf2 = await halfSent(t.server, t.url, '/healthz');
      const drained = t.drain.drain(10_000);
      expect(t.lifecycle.draining).toBe(true);
      // Requests that still reach the process arrive on connections opened before the drain (here: whose
      // request was on its way); they are served, not ready, with Connection: close.
      const readyz = await probeHalf.finish();
      const healthz = await probeHalf2.finish();
      expect(readyz).toMatch(/^HTTP\/1\.1 503 .*\r\nConnection: close\r\n.*\{"status":"draining"\}$/s);
      expect(healthz).toMatch(/^HTTP\/1\.1 200 .*\r\nConnection: close\r\n.*\{"status":"ok"\}$/s);
      expect(await refused(`${t.url}/healthz`)).toBe('ECONNREFUSED');
      expect(t.drain.active).toBe(2); // /slow and /stream
      let done = false;
      void drained.then(() => { done = true; });
      expect(done).toBe(false); // still waiting for the two requests, not cutting them (their answers below are whole)
      t.release();
      expect(await slow).toEqual({ status: 200, connection: 'close', body: '{"done":true}' });
      // its headers went out before the drain (keep-alive); the connection is closed once it ends
      expect(await stream).toEqual({ status: 200, connection: 'keep-alive', body: 'part 1\npart 2\n' });
      // not held up by the kept-alive /readyz connection (node would keep it 65 s; the bound here is 10 s)
      expect(await drained).toEqual({ timedOut: false, cut: 0 });
    } finally {
      t.close();
    }
  });

  it('closes what is still open when the bound passes', async () => {
    const t = await start();
    try {
      const slow = (await t.inFlight('/slow')).answer.then(() => 'answered', (e: { code?: string }) => e.code);
      const started = Date.now();
      expect(await t.drain.drain(300)).toEqual({ timedOut: true, cut: 1 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(await slow).toBe('ECONNRESET');
    } finally {
      t.close();
    }
  });

  it('with nothing in flight, stops at once (idle kept-alive connections closed)', async () => {
    const t = await start();
    try {
      await get(t.agent, `${t.url}/healthz`);
      expect(await t.drain.drain(10_000)).toEqual({ timedOut: false, cut: 0 });
    } finally {
      t.close();
    }
  });
});

/** A raw connection with a request to `path` sent but for its final blank line; finish() sends it and reads to the close. */
async function halfSent(server: http.Server, url: string, path: string): Promise<{ finish(): Promise<string> }> {
  const { hostname, port } = new URL(url);
  const accepted = new Promise<net.Socket>((r) => server.once('connection', r));
  const socket = net.connect(Number(port), hostname);
  await new Promise((r) => socket.once('connect', r));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\n`);
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (d) => { text += d; });
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  const serverSide = await accepted;
  while (serverSide.bytesRead === 0) await new Promise((r) => setImmediate(r)); // the server has read the first part
  return { finish: async () => { socket.write('\r\n'); await closed; return text; } };
}
