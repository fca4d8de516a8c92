import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, formWith, pollJob } from '../support/embedded.js';
import { makePng } from '../fixtures/pdf/documents.js';

/**
 * Remote <img> sources of HTML uploads: off by default (listed in warnings), and when
 * QUIRE_HTML_FETCH_IMAGES is on, fetched through the file_url SSRF guard (loopback only when allow-listed).
 */
describe('embedded: remote images in HTML uploads', () => {
  let images: http.Server;
  let hits = 0;
  let src = '';
  beforeAll(async () => {
    const png = await makePng(40, 30);
    images = http.createServer((_req, res) => { hits++; res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from(png)); });
    await new Promise<void>((r) => images.listen(0, '127.0.0.1', r));
    src = `http://127.0.0.1:${(images.address() as AddressInfo).port}/chart.png`;
  });
  afterAll(() => new Promise<void>((r) => images.close(() => r())));

  const html = () => `<!doctype html><html><body><main><h1>Report</h1><p>Revenue by region.</p><figure><img src="${src}" alt="chart"><figcaption>Figure 1. Revenue</figcaption></figure></main></body></html>`;

  async function extract(env: Record<string, string>) {
    const t = await startTestServer(env);
    try {
      const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes: html(), name: 'page.html', type: 'text/html' }, { figure_processing: JSON.stringify({ show_images: true }), async: 'true' }) });
      expect(res.status).toBe(202);
      const job = (await pollJob(t, ((await res.json()) as { job_id: string }).job_id)) as any;
      expect(job.status).toBe('completed');
      const fig = job.result.bounding_boxes.Images[0];
      const image = fig?.image_url ? await t.api(new URL(fig.image_url, t.url).pathname) : undefined;
      // Read the body so the connection is released before the server closes.
      const bytes = image ? new Uint8Array(await image.arrayBuffer()) : undefined;
      return { result: job.result, fig, image, bytes };
    } finally {
      await t.close();
    }
  }

  it('does not fetch remote images unless the setting is on', async () => {
    hits = 0;
    const { result, fig } = await extract({});
    expect(hits).toBe(0);
    expect(fig?.image_url).toBeUndefined();
    expect(JSON.stringify(result.warnings)).toMatch(/remote image\(s\) not fetched/);
  });

  it('with the setting on, a loopback source is still refused by the SSRF guard unless allow-listed', async () => {
    hits = 0;
    const { result, fig } = await extract({ QUIRE_HTML_FETCH_IMAGES: 'true' });
    expect(hits).toBe(0);
    expect(fig?.image_url).toBeUndefined();
    expect(JSON.stringify(result.warnings)).toMatch(/could not be fetched/);
  });

  it('with the setting on and the host allow-listed, the image is fetched and served', async () => {
    hits = 0;
    const { fig, image, bytes } = await extract({ QUIRE_HTML_FETCH_IMAGES: 'true', QUIRE_FILE_URL_ALLOW_HOSTS: '127.0.0.1' });
    expect(hits).toBe(1);
    expect(fig.image_url).toMatch(/\/images\/fig-1\.png$/);
    expect(bytes?.byteLength).toBeGreaterThan(50);
    expect(image?.status).toBe(200);
    expect(image?.headers.get('content-type')).toMatch(/^image\/png/);
  });
});
