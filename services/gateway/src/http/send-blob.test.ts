import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { Response } from 'express';
import { sendBlob } from './send-blob.js';

/** A server whose every response is `sendBlob(res, make())`. */
async function serveWith(make: () => Readable): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => { res.setHeader('content-type', 'application/json'); sendBlob(res as unknown as Response, make()); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

describe('sendBlob', () => {
  it('streams the blob', async () => {
    const s = await serveWith(() => Readable.from([Buffer.from('{"a":'), Buffer.from('1}')]));
    try {
      expect(await (await fetch(s.url)).json()).toEqual({ a: 1 });
    } finally { await s.close(); }
  });

  it('a read that fails half-way ends the response (it does not hang)', async () => {
    const s = await serveWith(() => {
      let started = false;
      return new Readable({
        read() {
          if (started) return;
          started = true;
          this.push('{"partial":');
          setTimeout(() => this.destroy(new Error('disk gone')), 20);
        },
      });
    });
    try {
      const res = await fetch(s.url);
      await expect(Promise.race([res.text(), new Promise((_r, rej) => setTimeout(() => rej(new Error('hung')), 5_000))])).rejects.toThrow(/terminated|other side closed|socket/i);
    } finally { await s.close(); }
  });

  it('a client that goes away closes the blob stream', async () => {
    let source!: Readable;
    let pending = false;
    const s = await serveWith(() => (source = new Readable({
      read() {
        if (pending) return;
        pending = true;
        setTimeout(() => { pending = false; this.push(Buffer.alloc(1024, 97)); }, 10);
      },
    })));
    try {
      const ac = new AbortController();
      const res = await fetch(s.url, { signal: ac.signal });
      const reader = res.body!.getReader();
      await reader.read();
      ac.abort();
      for (let i = 0; i < 100 && !source.destroyed; i++) await new Promise((r) => setTimeout(r, 20));
      expect(source.destroyed).toBe(true);
    } finally { await s.close(); }
  });
});
