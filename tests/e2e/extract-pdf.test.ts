import { PDFDocument, StandardFonts } from 'pdf-lib';
import { startTestServer, formWith, type TestServer } from '../support/embedded.js';

/** A two-page report: a title, a heading, body text, and a page footer number on each page. */
async function makeReport(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  for (let i = 1; i <= 2; i++) {
    const page = doc.addPage([612, 792]);
    if (i === 1) page.drawText('Annual Water Report', { x: 72, y: 720, size: 24, font: bold });
    page.drawText(i === 1 ? 'Introduction' : 'Results', { x: 72, y: 670, size: 16, font: bold });
    for (let l = 0; l < 6; l++) page.drawText(`Line ${l + 1} of page ${i}: the reservoir held steady through the season.`, { x: 72, y: 640 - l * 16, size: 11, font: regular });
    page.drawText(String(i), { x: 300, y: 40, size: 10, font: regular });
  }
  return doc.save();
}

describe('embedded: PDF extraction through HTTP', () => {
  let t: TestServer;
  let pdf: Uint8Array;
  beforeAll(async () => { t = await startTestServer(); pdf = await makeReport(); });
  afterAll(() => t.close());

  it('a page skipped for its size is reported and not billed', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage([612, 792]).drawText('An ordinary page', { x: 72, y: 700, size: 14, font });
    doc.addPage([20_000, 612]).drawText('A banner far over the page size limit', { x: 72, y: 300, size: 14, font });
    doc.addPage([612, 792]).drawText('Another ordinary page', { x: 72, y: 700, size: 14, font });
    const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes: await doc.save(), name: 'banner.pdf', type: 'application/pdf' }) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.page_count).toBe(3);
    expect(body.errors.pages).toEqual([expect.objectContaining({ page: 2, code: 'PROC_005', message: expect.stringContaining('outside the allowed size') })]);
    expect(body.credits_used).toBe(2);
    expect(await t.server.ctx.store.jobs.get(body.extraction_id)).toMatchObject({ credits_used: 2, pages: 2 });
  });

  it('returns markdown with headings, ids that resolve, and 1-indexed pages', async () => {
    const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes: pdf, name: 'report.pdf', type: 'application/pdf' }) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.page_count).toBe(2);
    expect(body.markdown).toMatch(/^# Annual Water Report/m);
    expect(body.markdown).toMatch(/^#+ Introduction/m);
    expect(body.markdown.indexOf('Introduction')).toBeLessThan(body.markdown.indexOf('Results'));
    const ids = [...body.markdown_with_ids.matchAll(/data-bb-text-id="([^"]+)"/g)].map((m: RegExpMatchArray) => m[1]);
    expect(ids.length).toBeGreaterThan(3);
    const all = Object.values(body.bounding_boxes).filter(Array.isArray).flat() as any[];
    for (const id of ids) expect(all.some((e) => e.id === id)).toBe(true);
    const title = body.bounding_boxes.Title[0];
    expect(title.bounding_box).toHaveLength(8);
    expect(title.page_number).toBe(1);
    expect(body.credits_used).toBe(2);
  });

  it('extensions.chunking.chunk_types: header and page chunks with heading paths, pages and boxes that lead back to the page; a bad name is REQ_003', async () => {
    const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes: pdf, name: 'report.pdf', type: 'application/pdf' }, { extensions: JSON.stringify({ chunking: { chunk_types: ['header', 'page'] } }) }) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    const header = body.chunks.filter((c: any) => c.chunk_type === 'header');
    const pages = body.chunks.filter((c: any) => c.chunk_type === 'page');
    expect(header.map((c: any) => c.heading_path)).toEqual([['Annual Water Report', 'Introduction'], ['Annual Water Report', 'Results']]);
    expect(pages.map((c: any) => c.page_numbers)).toEqual([[1], [2]]);
    const all = Object.values(body.bounding_boxes).filter(Array.isArray).flat() as any[];
    for (const c of body.chunks) {
      for (const b of c.boxes) {
        expect(c.element_ids).toContain(b.element_id);
        expect(all.find((e) => e.id === b.element_id)).toMatchObject({ page_number: b.page_number, bounding_box: b.bounding_box });
      }
    }
    const bad = await t.api('/extract', { method: 'POST', body: formWith({ bytes: pdf, name: 'report.pdf', type: 'application/pdf' }, { extensions: JSON.stringify({ chunking: { chunk_types: ['paragraph'] } }) }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('REQ_003');
  }, 120_000);

  it('a page filter processes only those pages and keeps original page numbers', async () => {
    const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes: pdf, name: 'report.pdf' }, { pages: '2' }) });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    const texts = Object.values(body.bounding_boxes).filter(Array.isArray).flat() as any[];
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every((e) => (e.page_number ?? e.table_info?.location?.page) === 2 || e.page_number === undefined)).toBe(true);
    expect(body.markdown).toContain('Results');
    expect(body.markdown).not.toContain('Introduction');
    expect(body.credits_used).toBe(1);
  });
});
