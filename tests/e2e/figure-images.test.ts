import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { startTestServer, formWith, pollJob, type TestServer } from '../support/embedded.js';
import { makePng } from '../fixtures/pdf/documents.js';

/** A page of text with a 216×144 pt picture and its caption below. */
async function makeFigurePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText('Reservoir levels', { x: 72, y: 720, size: 18, font });
  for (let l = 0; l < 4; l++) page.drawText(`Line ${l + 1}: the reservoir held steady through the dry season.`, { x: 72, y: 690 - l * 15, size: 11, font });
  const png = await doc.embedPng(await makePng(120, 80));
  page.drawImage(png, { x: 72, y: 400, width: 216, height: 144 });
  page.drawText('Figure 1. Water level over the year.', { x: 72, y: 385, size: 10, font });
  return doc.save();
}

describe('embedded: figure images and descriptions for PDFs', () => {
  let t: TestServer;
  let pdf: Uint8Array;
  beforeAll(async () => { t = await startTestServer(); pdf = await makeFigurePdf(); });
  afterAll(() => t.close());

  it('show_images stores a crop of the PDF figure, served as PNG to the owning organization only', async () => {
    const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes: pdf, name: 'report.pdf', type: 'application/pdf' }, { figure_processing: JSON.stringify({ show_images: true, description: true }), async: 'true' }) });
    expect(res.status).toBe(202);
    const { job_id: jobId } = (await res.json()) as { job_id: string };
    const job = (await pollJob(t, jobId)) as any;
    expect(job.status).toBe('completed');
    const result = job.result ?? (await (await t.api(`/results/${jobId}`)).json());
    const fig = result.bounding_boxes.Images[0];
    expect(fig.id).toBe('fig-1');
    expect(fig.image_url).toMatch(new RegExp(`/results/${jobId}/images/fig-1\\.png$`));
    expect(fig.description).toMatch(/^Described from the extracted caption and text \(no image model configured\)\. Caption: Figure 1\. Water level over the year\./);

    const path = new URL(fig.image_url, t.url).pathname;
    const img = await t.api(path);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toMatch(/^image\/png/);
    const bytes = Buffer.from(await img.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    // 216×144 pt at 150 DPI ≈ 450×300 px: the figure region, not the page
    expect(meta.format).toBe('png');
    expect(meta.width).toBeGreaterThan(430);
    expect(meta.width).toBeLessThan(480);
    expect(meta.height).toBeGreaterThan(285);
    expect(meta.height).toBeLessThan(320);
    const stats = await sharp(bytes).stats();
    expect(stats.channels[2].max - stats.channels[2].min).toBeGreaterThan(150); // the gradient was drawn, not a blank crop

    const store = t.server.ctx.store;
    const other = await store.orgs.create({ name: 'other org' });
    const { key } = await store.keys.create(other.id);
    const foreign = await t.api(path, { key });
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as any).error.code).toBe('STORAGE_002');
    expect((await t.api(path, { key: null })).status).toBe(401);
    expect((await t.api(`/results/${jobId}/images/fig-9.png`)).status).toBe(404);
  });
});
