import type { AddressInfo } from 'node:net';
import express from 'express';
import { recordedExamples, routeDocs } from '../route-docs.js';
import { docsRoutes } from './docs.js';

describe('GET /docs', () => {
  let server: ReturnType<express.Express['listen']>;
  let base: string;
  beforeAll(async () => {
    const app = express();
    app.use(docsRoutes(routeDocs(), recordedExamples()));
    app.use((_req, res) => { res.status(404).send('none'); });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('serves an HTML page whose scripts and styles are all served by the gateway itself', async () => {
    const res = await fetch(`${base}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    const refs = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs).toEqual(expect.arrayContaining(['/docs/assets/swagger-ui.css', '/docs/assets/swagger-ui-bundle.js', '/docs/assets/quire-docs.js']));
    for (const ref of refs) expect(ref).toMatch(/^\/[^/]/); // same origin: no CDN, no protocol-relative URL
    for (const ref of refs.filter((r) => r.startsWith('/docs/assets/'))) {
      const asset = await fetch(base + ref);
      expect({ ref, status: asset.status }).toEqual({ ref, status: 200 });
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
  });

  it('serves the renderer from the installed swagger-ui-dist package, started on /openapi.json', async () => {
    const bundle = await fetch(`${base}/docs/assets/swagger-ui-bundle.js`);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect(await bundle.text()).toContain('SwaggerUIBundle');
    const init = await (await fetch(`${base}/docs/assets/quire-docs.js`)).text();
    expect(init).toContain("url: '/openapi.json'");
    expect(init).toContain('validatorUrl: null'); // Swagger UI would otherwise send the document to validator.swagger.io
    expect((await fetch(`${base}/docs/assets/..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${base}/docs/assets/index.html`)).status).toBe(404); // only the listed files
  });

  it('serves the document the page renders, with the curl and SDK snippets in each operation', async () => {
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, Record<string, { description?: string }>> };
    expect(doc.paths['/extract'].post.description).toContain('curl -X POST "$QUIRE_URL/extract"');
    expect(doc.paths['/extract'].post.description).toContain('quire.extract(');
    expect(doc.paths['/job/{jobId}'].get.description).toContain('quire.getJob(');
  });
});
