import { PDFDocument, StandardFonts } from 'pdf-lib';
import { startTestServer, pollJob, SAMPLE_HTML, type TestServer } from '../support/embedded.js';

async function pdfWith(text: string): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText(text, { x: 72, y: 700, size: 14, font });
  return doc.save();
}

function batchForm(files: { bytes: Uint8Array | string; name: string }[], fields: Record<string, string> = {}): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  for (const f of files) fd.append('files', new Blob([typeof f.bytes === 'string' ? f.bytes : Buffer.from(f.bytes)]), f.name);
  return fd;
}

describe('embedded: POST /batch/extract', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer(); });
  afterAll(() => t.close());

  it('accepts several documents as one parent job with a child extraction each; the parent completes with a summary', async () => {
    const res = await t.api('/batch/extract', { method: 'POST', body: batchForm([
      { bytes: SAMPLE_HTML, name: 'report.html' }, { bytes: await pdfWith('Batch PDF one'), name: 'one.pdf' }, { bytes: await pdfWith('Batch PDF two'), name: 'two.pdf' },
    ]) });
    expect(res.status).toBe(202);
    const acc = (await res.json()) as any;
    expect(acc.children.map((c: any) => c.filename)).toEqual(['report.html', 'one.pdf', 'two.pdf']);
    const parent = (await pollJob(t, acc.job_id)) as any;
    expect(parent).toMatchObject({ status: 'completed', kind: 'batch_extract' });
    expect(parent.result).toMatchObject({ batch_id: acc.job_id, total: 3, completed: 3, failed: 0, pages: 3, credits_used: 3 });
    expect(parent.result.results.map((r: any) => [r.filename, r.status])).toEqual([['report.html', 'completed'], ['one.pdf', 'completed'], ['two.pdf', 'completed']]);
    const child = (await (await t.api(`/job/${acc.children[2].job_id}`)).json()) as any;
    expect(child.result.markdown).toContain('Batch PDF two');
  }, 30_000);

  it('rejects the whole batch when one document is unreadable, naming it, and leaves no jobs', async () => {
    const store = t.server.ctx.store;
    const before = (await store.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs')).rows[0].n;
    const res = await t.api('/batch/extract', { method: 'POST', body: batchForm([{ bytes: SAMPLE_HTML, name: 'ok.html' }, { bytes: '%PDF-1.7 broken', name: 'broken.pdf' }]) });
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body.error.code).toBe('FILE_003');
    expect(body.error.message).toContain('broken.pdf');
    expect((await store.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs')).rows[0].n).toBe(before);
    expect((await t.api('/batch/extract', { method: 'POST', body: batchForm([]) })).status).toBe(400);
  });

  it('a batch over the key\'s credit cap is refused whole with nothing charged', async () => {
    const store = t.server.ctx.store;
    const org = (await store.orgs.findByName('dev'))!;
    const { key, record } = await store.keys.create(org.id, { creditCap: 2 });
    const res = await t.api('/batch/extract', { key, method: 'POST', body: batchForm([1, 2, 3].map((i) => ({ bytes: SAMPLE_HTML, name: `${i}.html` }))) });
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).error.code).toBe('BILLING_004');
    const k = (await store.keys.get(record.id))!;
    expect([Number(k.credits_used), Number(k.credits_reserved)]).toEqual([0, 0]);
  });
});

describe('embedded: canceling a batch', () => {
  it('DELETE on the parent cancels its unfinished children', async () => {
    const t = await startTestServer({}, { startWorkers: false });
    try {
      const res = await t.api('/batch/extract', { method: 'POST', body: batchForm([{ bytes: SAMPLE_HTML, name: 'a.html' }, { bytes: SAMPLE_HTML, name: 'b.html' }]) });
      const acc = (await res.json()) as any;
      expect((await t.api(`/job/${acc.job_id}`, { method: 'DELETE' })).status).toBe(200);
      for (const c of acc.children) expect(((await (await t.api(`/job/${c.job_id}`)).json()) as any).status).toBe('canceled');
      expect(((await (await t.api(`/job/${acc.job_id}`)).json()) as any).status).toBe('canceled');
    } finally {
      await t.close();
    }
  });
});
