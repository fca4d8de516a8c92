import { PDFDocument, StandardFonts } from 'pdf-lib';
import { QuireError } from '@quire/core';
import { defineJobHandler } from '@quire/jobs';
import { startTestServer, formWith, pollJob, SAMPLE_HTML, type TestServer } from '../support/embedded.js';
import { buildDocx, para, run } from '../fixtures/office/docx-writer.js';

/**
 * Spec gaps found by a first-use trial (issue 22, item 6): DOCX page numbers agree between intake and
 * extraction; /results of a job that ended without a result says how it ended; a /convert URL works as
 * file_url without opening private addresses; form credits follow the pages processed, stated in the answer.
 */
const outcomes = new Map<string, (how: 'ok' | 'fail') => void>();
/** An extract job that waits until the test says how it ends. */
const gatedExtract = defineJobHandler('extract', async (ctx) => {
  const how = await new Promise<'ok' | 'fail'>((resolve) => {
    outcomes.set(ctx.job.id, resolve);
    ctx.signal.addEventListener('abort', () => resolve('ok'));
  });
  await ctx.checkpoint(1, 1);
  if (how === 'fail') throw new QuireError('FILE_003', 'File corrupted: the test says so');
  return { result: { ok: true }, credits: 1, pages: 1 };
});

async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 20));
}
const body = async (res: Response) => ({ status: res.status, json: (await res.json()) as any });

describe('embedded: results of ended jobs, DOCX pages, hosted file URLs, form credits', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer(); }, 60_000);
  afterAll(() => t.close());

  it('extracts pages 2-3 of a three-page DOCX: intake counts its pages as extraction numbers them', async () => {
    const pageBreak = '<w:r><w:br w:type="page"/></w:r>';
    const docx = await buildDocx({ body: [para(run('First page text')), para(pageBreak + run('Second page text')), para(pageBreak + run('Third page text'))].join('') });
    const file = { bytes: docx, name: 'three.docx', type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' };
    const all = await body(await t.api('/extract', { method: 'POST', body: formWith(file) }));
    expect(all.status).toBe(200);
    expect(all.json.page_count).toBe(3);
    const some = await body(await t.api('/extract', { method: 'POST', body: formWith(file, { pages: '2-3' }) }));
    expect(some.status).toBe(200);
    expect(some.json.page_count).toBe(3);
    expect(some.json.markdown).toContain('Second page text');
    expect(some.json.markdown).toContain('Third page text');
    expect(some.json.markdown).not.toContain('First page text');
    expect(some.json.credits_used).toBe(2);
    const outside = await body(await t.api('/extract', { method: 'POST', body: formWith(file, { pages: '4' }) }));
    expect(outside.status).toBe(400);
    expect(outside.json.error.code).toBe('REQ_006');
    expect(outside.json.error.message).toContain('1-3');
  }, 60_000);

  it('takes a URL from /convert as file_url (read from storage, no fetch), and still refuses other private URLs', async () => {
    const converted = await body(await t.api('/convert', { method: 'POST', body: formWith({ bytes: SAMPLE_HTML, name: 'report.html', type: 'text/html' }) }));
    expect(converted.status).toBe(200);
    const url = converted.json.url as string;
    expect(url.startsWith(`${t.url}/files/`)).toBe(true); // a loopback address: a download would be refused
    const json = (b: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) });
    const extracted = await body(await t.api('/extract', json({ file_url: url })));
    expect(extracted.status).toBe(200);
    expect(extracted.json.markdown).toContain('Quarterly report');
    const wrongToken = await body(await t.api('/extract', json({ file_url: url.replace(/token=[^&]+/, 'token=not-the-token') })));
    expect(wrongToken.status).toBe(400);
    expect(wrongToken.json.error.code).toBe('FILE_005');
    const otherPath = await body(await t.api('/extract', json({ file_url: `${t.url}/health` })));
    expect(otherPath.json.error.code).toBe('FILE_007');
  }, 60_000);

  it('bills a form detect by the pages processed and says so: pages_processed beside page_count', async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const form = pdf.getForm();
    for (let i = 1; i <= 3; i++) {
      const page = pdf.addPage([612, 792]);
      page.drawText(`Full name ${i}:`, { x: 72, y: 700, size: 12, font });
      form.createTextField(`name${i}`).addToPage(page, { x: 180, y: 690, width: 200, height: 20 });
    }
    const bytes = await pdf.save();
    const detect = async (fields: Record<string, string>) => body(await t.api('/form/detect', { method: 'POST', body: formWith({ bytes, name: 'f.pdf', type: 'application/pdf' }, fields) }));
    const whole = await detect({});
    expect(whole.status).toBe(200);
    expect(whole.json).toEqual(expect.objectContaining({ page_count: 3, pages_processed: 3, credits_used: 3 }));
    const one = await detect({ page_range: '2' });
    expect(one.status).toBe(200);
    expect(one.json).toEqual(expect.objectContaining({ page_count: 3, pages_processed: 1, credits_used: 1 }));
    expect(one.json.form_fields.every((c: { page_number: number }) => c.page_number === 2)).toBe(true);
  }, 60_000);
});

describe('embedded: GET /results of jobs that ended without a result', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer({}, { handlers: { extract: gatedExtract } }); }, 60_000);
  afterAll(() => t.close());

  const submitAsync = async (): Promise<string> => {
    const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes: SAMPLE_HTML, name: 'a.html', type: 'text/html' }, { async: 'true' }) });
    const b = await body(res);
    if (res.status !== 202) throw new Error(`${res.status} ${JSON.stringify(b.json)}`);
    return b.json.job_id;
  };

  it('GET /results of a canceled job says it was canceled (JOB_002), of a failed one why it failed, of a running one JOB_004', async () => {
    const canceled = await submitAsync();
    await until(() => outcomes.has(canceled));
    const running = await body(await t.api(`/results/${canceled}`));
    expect(running.status).toBe(409);
    expect(running.json.error).toEqual(expect.objectContaining({ code: 'JOB_004', details: expect.objectContaining({ status: 'processing' }) }));
    expect((await t.api(`/job/${canceled}`, { method: 'DELETE' })).status).toBe(200);
    await pollJob(t, canceled);
    const res = await body(await t.api(`/results/${canceled}`));
    expect(res.status).toBe(409);
    expect(res.json.error.code).toBe('JOB_002');
    expect(res.json.error.message).not.toMatch(/still processing/i);
    expect(res.json.error.details).toEqual(expect.objectContaining({ job_id: canceled, status: 'canceled' }));

    const failed = await submitAsync();
    await until(() => outcomes.has(failed));
    outcomes.get(failed)!('fail');
    expect((await pollJob(t, failed)).status).toBe('failed');
    const f = await body(await t.api(`/results/${failed}`));
    expect(f.status).toBe(500);
    expect(f.json.error).toEqual(expect.objectContaining({ code: 'JOB_005', details: expect.objectContaining({ status: 'failed', error_code: 'FILE_003' }) }));
  }, 60_000);
});
