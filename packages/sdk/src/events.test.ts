import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Quire } from './client.js';
import { EventsUnavailableError, type JobEvent } from './events.js';

/** A small SSE server following the live-progress contract, with switches for what a test needs. */
function startSseServer(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const requests: { url: string; lastEventId?: string; key?: string }[] = [];
  const server = http.createServer((req, res) => {
    requests.push({ url: req.url!, lastEventId: req.headers['last-event-id'] as string | undefined, key: req.headers['x-api-key'] as string | undefined });
    handler(req, res);
  });
  return new Promise<{ url: string; requests: typeof requests; close: () => Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests,
      close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
    }));
  });
}

const sse = (res: http.ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
const send = (res: http.ServerResponse, id: number, type: string, data: object) => res.write(`id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
const job = (status: string, extra: object = {}) => ({ job_id: 'j1', status, created_at: '2026-01-01T00:00:00Z', ...extra });

describe('job events (SSE client)', () => {
  it('reads status, progress and page events in order, skipping keep-alives, until end', async () => {
    const srv = await startSseServer((req, res) => {
      sse(res);
      res.write(': keep-alive\n\n');
      send(res, 1, 'status', { job_id: 'j1', status: 'processing', pages_done: 0, pages_total: 2 });
      send(res, 2, 'progress', { job_id: 'j1', pages_done: 1, pages_total: 2 });
      res.write('id: 3\nevent: page\ndata: {"job_id":"j1","page":1,"markdown":"# One"}\n\n');
      send(res, 4, 'status', { job_id: 'j1', status: 'completed', pages_done: 2, pages_total: 2 });
      send(res, 5, 'end', { job_id: 'j1', status: 'completed' });
      res.end();
    });
    try {
      const quire = new Quire({ baseUrl: srv.url, apiKey: 'k' });
      const events: JobEvent[] = [];
      for await (const e of quire.jobEvents('j1', { partial: true })) events.push(e);
      expect(events.map((e) => [e.id, e.type])).toEqual([[1, 'status'], [2, 'progress'], [3, 'page'], [4, 'status'], [5, 'end']]);
      expect(events[2].data).toEqual({ job_id: 'j1', page: 1, markdown: '# One' });
      expect(srv.requests[0]).toMatchObject({ url: '/job/j1/events?partial=true', key: 'k' });
    } finally { await srv.close(); }
  });

  it('reconnects a dropped stream with Last-Event-ID and gets the rest', async () => {
    let connection = 0;
    const srv = await startSseServer((req, res) => {
      sse(res);
      if (connection++ === 0) {
        send(res, 1, 'status', { job_id: 'j1', status: 'processing' });
        send(res, 2, 'progress', { job_id: 'j1', pages_done: 1, pages_total: 3 });
        setTimeout(() => res.destroy(), 50); // dropped without end, after the events went out
        return;
      }
      const after = Number(req.headers['last-event-id']);
      for (let id = after + 1; id <= 3; id++) send(res, id, 'progress', { job_id: 'j1', pages_done: id - 1, pages_total: 3 });
      send(res, 4, 'end', { job_id: 'j1', status: 'completed' });
      res.end();
    });
    try {
      const quire = new Quire({ baseUrl: srv.url });
      const ids: number[] = [];
      for await (const e of quire.jobEvents('j1')) ids.push(e.id!);
      expect(ids).toEqual([1, 2, 3, 4]);
      expect(srv.requests.map((r) => r.lastEventId)).toEqual([undefined, '2']);
    } finally { await srv.close(); }
  });

  it('is unavailable when the route is missing (404) or the answer is not an event stream', async () => {
    const srv = await startSseServer((req, res) => {
      if (req.url!.startsWith('/job/missing')) { res.writeHead(404, { 'content-type': 'application/json' }); res.end('{"error":{"code":"REQ_003","message":"No such endpoint"}}'); return; }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    try {
      const quire = new Quire({ baseUrl: srv.url });
      for (const id of ['missing', 'json']) {
        const it = quire.jobEvents(id)[Symbol.asyncIterator]();
        await expect(it.next()).rejects.toBeInstanceOf(EventsUnavailableError);
      }
    } finally { await srv.close(); }
  });

  it('an auth error on the events route is not a fallback: it throws QuireError', async () => {
    const srv = await startSseServer((_req, res) => { res.writeHead(401, { 'content-type': 'application/json' }); res.end('{"error":{"code":"AUTH_002","message":"Invalid API key"}}'); });
    try {
      const it = new Quire({ baseUrl: srv.url }).jobEvents('j1')[Symbol.asyncIterator]();
      await expect(it.next()).rejects.toMatchObject({ name: 'QuireError', code: 'AUTH_002', status: 401 });
    } finally { await srv.close(); }
  });

  it('waitForJob uses the events for progress, then reads the settled job once', async () => {
    const srv = await startSseServer((req, res) => {
      if (req.url!.includes('/events')) {
        sse(res);
        send(res, 1, 'status', { job_id: 'j1', status: 'processing', pages_done: 0, pages_total: 2 });
        send(res, 2, 'progress', { job_id: 'j1', pages_done: 1, pages_total: 2 });
        send(res, 3, 'page', { job_id: 'j1', page: 1, markdown: 'one' });
        send(res, 4, 'status', { job_id: 'j1', status: 'completed', pages_done: 2, pages_total: 2 });
        send(res, 5, 'end', { job_id: 'j1', status: 'completed' });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(job('completed', { result: { markdown: 'one\n\ntwo' } })));
    });
    try {
      const quire = new Quire({ baseUrl: srv.url });
      const progress: (number | undefined)[] = [];
      const pages: number[] = [];
      const result = await quire.waitForJob<{ markdown: string }>('j1', { onProgress: (p) => progress.push(p.pages_done), onPage: (p) => pages.push(p.page) });
      expect(result.markdown).toBe('one\n\ntwo');
      expect(progress).toEqual([0, 1, 2]);
      expect(pages).toEqual([1]);
      expect(srv.requests.map((r) => r.url)).toEqual(['/job/j1/events?partial=true', '/job/j1']);
    } finally { await srv.close(); }
  });

  it('falls back to polling with backoff when the events route answers 405, and follows a result URL', async () => {
    let polls = 0;
    const srv = await startSseServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url!.includes('/events')) { res.writeHead(405); res.end('{"error":{"code":"REQ_003","message":"Method not allowed"}}'); return; }
      if (req.url!.startsWith('/results/j1')) { res.end('{"markdown":"big"}'); return; }
      polls++;
      res.end(JSON.stringify(polls < 3 ? job('processing', { progress: { pages_done: polls, pages_total: 3 } }) : job('completed', { result: { is_url: true, url: `http://${req.headers.host}/results/j1?token=t` } })));
    });
    try {
      const quire = new Quire({ baseUrl: srv.url, poll: { initialMs: 5, maxMs: 20 } });
      const statuses: string[] = [];
      expect(await quire.waitForJob('j1', { onProgress: (p) => statuses.push(`${p.status}:${p.pages_done}`) })).toEqual({ markdown: 'big' });
      expect(statuses).toEqual(['processing:1', 'processing:2', 'completed:2']); // the last page count is kept
      expect(srv.requests.at(-1)!.url).toBe('/results/j1?token=t');
    } finally { await srv.close(); }
  });
});
