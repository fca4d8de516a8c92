import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Test support: a local webhook receiver that records every request (headers + raw body). */
export interface ReceivedWebhook { url: string; headers: http.IncomingHttpHeaders; body: string; at: number }

export async function startReceiver(answer: (req: ReceivedWebhook, n: number) => number = () => 200): Promise<{ url: string; received: ReceivedWebhook[]; close(): Promise<void> }> {
  const received: ReceivedWebhook[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d) => { body += d; });
    req.on('end', () => {
      const r = { url: req.url ?? '', headers: req.headers, body, at: Date.now() };
      received.push(r);
      res.writeHead(answer(r, received.length)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
