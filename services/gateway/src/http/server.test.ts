import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { PDFDocument } from 'pdf-lib';
import { createGatewayServer } from './server.js';

describe('createGatewayServer', () => {
  it("constructs requests and responses with the app's prototypes, so express has nothing to swap", async () => {
    const app = express();
    app.get('/x', (req, res) => { res.json({ path: req.path, id: req.get('x-id') }); });
    const server = createGatewayServer(app);
    const seen: boolean[] = [];
    // Runs before the app (prepended): what node constructed, before express touched it.
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      seen.push(Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x?q=1`, { headers: { 'x-id': 'abc' } });
      expect(await res.json()).toEqual({ path: '/x', id: 'abc' });
      expect(seen).toEqual([true, true]);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

test("the gateway's modules leave the native JSON and Array builtins in place, also after reading a PDF", async () => {
  // pdf.js's legacy build (core-js) replaces them process-wide with slower versions unless loaded
  // through format-pdf's guarded loader; identity, since core-js makes its versions print as native.
  const natives = () => [JSON.parse, JSON.stringify, Array.prototype.push, Function.prototype.toString];
  const before = natives();
  const { createGatewayApp } = await import('../app.js');
  const { inspectDocument } = await import('@quire/extract');
  const { detectForm } = await import('@quire/forms');
  expect(typeof createGatewayApp).toBe('function');
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]);
  const bytes = await doc.save();
  expect((await inspectDocument(bytes)).pageCount).toBe(1);
  await detectForm(bytes);
  natives().forEach((f, i) => expect(f).toBe(before[i]));
});
