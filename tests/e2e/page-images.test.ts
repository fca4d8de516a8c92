import sharp from 'sharp';
import { startTestServer, formWith, pollJob, SAMPLE_HTML, type TestServer } from '../support/embedded.js';
import { makeFormPdf, makePng } from '../fixtures/pdf/documents.js';
import { makeReportPdf } from '../fixtures/playground/report-pdf.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function submit(t: TestServer, file: { bytes: Uint8Array | string; name: string; type: string }): Promise<string> {
  const res = await t.api('/extract', { method: 'POST', body: formWith(file, { async: 'true' }) });
  expect(res.status).toBe(202);
  const { job_id: jobId } = (await res.json()) as { job_id: string };
  expect((await pollJob(t, jobId, 60_000)).status).toBe('completed');
  return jobId;
}

async function png(res: Response): Promise<{ bytes: Buffer; width: number; height: number }> {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^image\/png/);
  const bytes = Buffer.from(await res.arrayBuffer());
  const meta = await sharp(bytes).metadata();
  return { bytes, width: meta.width!, height: meta.height! };
}

const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string; details?: Record<string, unknown> } }).error;

describe('GET /results/{jobId}/pages/{n}.png', () => {
  let t: TestServer;
  let pdfJob: string;
  beforeAll(async () => {
    t = await startTestServer();
    pdfJob = await submit(t, { bytes: await makeReportPdf(2), name: 'report.pdf', type: 'application/pdf' });
  }, 120_000);
  afterAll(() => t?.close());

  it('draws each PDF page as PNG at its own size, scaled by dpi', async () => {
    const at72 = await png(await t.api(`/results/${pdfJob}/pages/1.png?dpi=72`));
    expect(at72.bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect([at72.width, at72.height]).toEqual([612, 792]); // 1 px per point
    const at144 = await png(await t.api(`/results/${pdfJob}/pages/1.png?dpi=144`));
    expect([at144.width, at144.height]).toEqual([1224, 1584]);
    const landscape = await png(await t.api(`/results/${pdfJob}/pages/2.png?dpi=72`));
    expect([landscape.width, landscape.height]).toEqual([792, 612]);
    // the page was drawn: the title's dark glyphs are on it, not a blank sheet
    const { channels } = await sharp(at72.bytes).stats();
    expect(channels[0].min).toBeLessThan(60);
    expect(channels[0].max).toBe(255);
    const byDefault = await t.api(`/results/${pdfJob}/pages/1.png`);
    expect(byDefault.headers.get('x-page-count')).toBe('2');
    expect((await png(byDefault)).width).toBe(Math.round((612 * 110) / 72));
  });

  it('refuses pages outside the document and bad dpi values with the spec\'s codes', async () => {
    const past = await t.api(`/results/${pdfJob}/pages/3.png`);
    expect(past.status).toBe(400);
    const err = await errorOf(past);
    expect(err.code).toBe('REQ_006');
    expect(err.message).toMatch(/Page 3 is outside the document \(1-2\)/);
    expect(err.details).toMatchObject({ page: 3, page_count: 2 });
    expect((await errorOf(await t.api(`/results/${pdfJob}/pages/0.png`))).code).toBe('REQ_006');
    for (const bad of ['one.png', '1.png.png', '-1.png']) {
      const res = await t.api(`/results/${pdfJob}/pages/${bad}`);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe('REQ_003');
    }
    // only PNG is served: another extension is no route at all (the gateway's unknown-endpoint answer)
    const jpg = await t.api(`/results/${pdfJob}/pages/1.jpg`);
    expect(jpg.status).not.toBe(200);
    expect((await errorOf(jpg)).message).toMatch(/No such endpoint/);
    for (const dpi of ['0', '35', '301', '1e3', 'high']) {
      const res = await t.api(`/results/${pdfJob}/pages/1.png?dpi=${dpi}`);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toMatch(/dpi must be a whole number from 36 to 300/);
    }
  });

  it('is in the OpenAPI document with its query parameters', async () => {
    const oas = (await (await t.api('/openapi.json', { key: null })).json()) as any;
    const op = oas.paths['/results/{jobId}/pages/{page}.png'].get;
    expect(op.parameters.map((p: any) => `${p.in}:${p.name}`).sort()).toEqual(['path:jobId', 'path:page', 'query:dpi', 'query:of']);
    expect(oas.paths['/playground'].get).toBeDefined();
  });

  it('is the owning organization\'s only: another organization\'s key gets 404, no key 401', async () => {
    const store = t.server.ctx.store;
    const other = await store.orgs.create({ name: 'someone else' });
    const { key } = await store.keys.create(other.id);
    const foreign = await t.api(`/results/${pdfJob}/pages/1.png`, { key });
    expect(foreign.status).toBe(404);
    expect((await errorOf(foreign)).code).toBe('STORAGE_002');
    expect((await t.api(`/results/${pdfJob}/pages/1.png`, { key: null })).status).toBe(401);
    expect((await t.api('/results/00000000-0000-4000-8000-000000000000/pages/1.png')).status).toBe(404);
  });

  it('draws image sources at their page size in points, and says which formats it cannot draw', async () => {
    const imageJob = await submit(t, { bytes: await makePng(300, 200), name: 'chart.png', type: 'image/png' });
    // a small PNG without a density is 1 px per point (format-image's page size): 72 dpi is its own size
    const own = await png(await t.api(`/results/${imageJob}/pages/1.png?dpi=72`));
    expect([own.width, own.height]).toEqual([300, 200]);
    const doubled = await png(await t.api(`/results/${imageJob}/pages/1.png?dpi=144`));
    expect([doubled.width, doubled.height]).toEqual([600, 400]);
    expect((await errorOf(await t.api(`/results/${imageJob}/pages/2.png`))).code).toBe('REQ_006');

    const htmlJob = await submit(t, { bytes: SAMPLE_HTML, name: 'report.html', type: 'text/html' });
    const html = await t.api(`/results/${htmlJob}/pages/1.png`);
    expect(html.status).toBe(400);
    const err = await errorOf(html);
    expect(err.code).toBe('FILE_001');
    expect(err.message).toMatch(/drawn for pdf, png, jpeg, tiff documents; this job's source is html/);
  });
});

describe('GET /results/{jobId}/pages/{n}.png?of=output', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer(); }, 60_000);
  afterAll(() => t?.close());

  it('draws the PDF a form fill produced; jobs without one say so', async () => {
    const res = await t.api('/form/fill', { method: 'POST', body: formWith({ bytes: await makeFormPdf(), name: 'form.pdf', type: 'application/pdf' }, { instructions: 'Name: Grace Hopper', async: 'true' }) });
    expect(res.status).toBe(202);
    const { job_id: fillJob } = (await res.json()) as { job_id: string };
    expect((await pollJob(t, fillJob, 60_000)).status).toBe('completed');
    const source = await png(await t.api(`/results/${fillJob}/pages/1.png?dpi=72`));
    const output = await png(await t.api(`/results/${fillJob}/pages/1.png?dpi=72&of=output`));
    expect([output.width, output.height]).toEqual([source.width, source.height]);
    expect(output.bytes.equals(source.bytes)).toBe(false); // the filled value is drawn on the output only

    const extractJob = await submit(t, { bytes: await makeReportPdf(), name: 'report.pdf', type: 'application/pdf' });
    const none = await t.api(`/results/${extractJob}/pages/1.png?of=output`);
    expect(none.status).toBe(404);
    expect((await errorOf(none)).message).toMatch(/No output PDF for this job/);
    const bad = await t.api(`/results/${extractJob}/pages/1.png?of=filled`);
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).code).toBe('REQ_003');
  }, 120_000);
});

describe('page images are drawn on a worker thread in the built gateway', () => {
  it('the built PageRenderer runs its thread module and returns the page', async () => {
    // CI builds before jest (scripts/test.mjs); the thread only exists as built JavaScript
    const { PageRenderer } = await import('../../services/gateway/dist/page-images/page-renderer.js' as string) as typeof import('../../services/gateway/src/page-images/page-renderer.js');
    const renderer = new PageRenderer();
    try {
      expect(renderer.onThread).toBe(true);
      const pdf = await makeReportPdf(2);
      const image = await renderer.render(pdf, 'pdf', 2, 36);
      expect([image.width, image.height, image.pageCount]).toEqual([396, 306, 2]);
      expect(Buffer.from(image.png.subarray(0, 8)).equals(PNG_SIGNATURE)).toBe(true);
      await expect(renderer.render(await makeReportPdf(1), 'pdf', 4, 36)).rejects.toMatchObject({ code: 'REQ_006', message: 'Page 4 is outside the document (1-1)' });
      // requests in flight together each get their own answer (portrait page 1, landscape page 2)
      const both = await Promise.all([1, 2, 1].map(async (n) => renderer.render(await makeReportPdf(2), 'pdf', n, 72)));
      expect(both.map((i) => [i.width, i.height])).toEqual([[612, 792], [792, 612], [612, 792]]);
    } finally {
      await renderer.close();
    }
  });
});
