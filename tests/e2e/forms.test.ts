import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeFillableForm, makeFlatForm } from '../fixtures/forms/make-forms.js';
import { imageOnlyPdf, renderChecklistForm } from '../fixtures/forms/scanned-form.js';
import { degrade } from '../fixtures/scans/ruled.js';
import { allText, qpdfCheck } from '../fixtures/forms/test-helpers.js';
import { startChatServer } from '../support/chat-server.js';
import { formWith, pollJob, startTestServer, type TestServer } from '../support/embedded.js';

type Cell = { page_number: number; type: string; bounding_box: number[]; text: string; checkbox_details?: { center_coord: number[]; selected: boolean; text: string }[] };
type FormResult = { form_id: string; page_count: number; pdf_url: string; form_fields: Cell[]; fields_filled?: number; fields_cleared?: number; credits_used: number; plan_info: Record<string, unknown>; details?: Record<string, any> };

const round = (n: number) => Math.round(n * 200) / 200;
/** A cell without its value: what must survive fill → clear unchanged. */
const shape = (c: Cell) => ({ page: c.page_number, type: c.type, box: c.bounding_box.map(round), boxes: c.checkbox_details?.map((d) => ({ text: d.text, at: d.center_coord.map(round) })) });
const value = (c: Cell) => (c.type === 'checkbox' ? (c.checkbox_details ?? []).filter((d) => d.selected).map((d) => d.text).join('|') : c.text);

async function expectError(res: Response, status: number, code: string): Promise<Record<string, any>> {
  const body = (await res.json()) as { error: Record<string, any> };
  expect({ status: res.status, code: body.error?.code }).toEqual({ status, code });
  return body.error;
}

/** Output PDFs must reparse with pdf.js and, when qpdf is installed, pass `qpdf --check`. */
async function expectValidPdf(bytes: Uint8Array): Promise<string> {
  expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
  const text = await allText(bytes);
  const q = qpdfCheck(bytes);
  if (q) {
    expect([0, 3]).toContain(q.status);
    expect(q.out).not.toMatch(/WARNING|error:/);
  }
  return text;
}

describe('embedded: PDF forms over HTTP', () => {
  let t: TestServer;
  let fillable: Uint8Array;
  let flat: Uint8Array;
  let fileServer: http.Server;
  let fileBase = '';
  const files = new Map<string, Uint8Array>();

  const post = async (op: string, fields: Record<string, string>, file?: Uint8Array, key?: string) =>
    t.api(`/form/${op}`, { method: 'POST', body: formWith(file ? { bytes: file, name: 'form.pdf', type: 'application/pdf' } : undefined, fields), ...(key ? { key } : {}) });
  const postJson = (op: string, body: unknown, key?: string) =>
    t.api(`/form/${op}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), ...(key ? { key } : {}) });
  const ok = async (res: Response): Promise<FormResult> => {
    const body = await res.json();
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body)}`);
    return body as FormResult;
  };
  const pdfOf = async (r: FormResult, key?: string) => {
    const res = await t.api(new URL(r.pdf_url).pathname, key ? { key } : {});
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/pdf/);
    return new Uint8Array(await res.arrayBuffer());
  };

  beforeAll(async () => {
    fileServer = http.createServer((req, res) => {
      const f = files.get(req.url ?? '');
      if (!f) { res.writeHead(404).end(); return; }
      res.writeHead(200, { 'content-type': 'application/pdf' }).end(Buffer.from(f));
    });
    await new Promise<void>((r) => fileServer.listen(0, '127.0.0.1', r));
    fileBase = `http://127.0.0.1:${(fileServer.address() as AddressInfo).port}`;
    t = await startTestServer({ QUIRE_FILE_URL_ALLOW_HOSTS: '127.0.0.1' });
    [fillable, flat] = await Promise.all([makeFillableForm(), makeFlatForm()]);
    files.set('/flat.pdf', flat);
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((r) => fileServer.close(() => r()));
  });

  const cases = [
    {
      name: 'fillable (AcroForm)', pdf: () => fillable,
      instructions: "Full name: Jane Doe; ZIP code: 12345; she is married; check 'No' for question 3; Country: poland; Favourite colour: blue",
      expected: { filled: 5, values: ['Jane Doe', '12345', 'Married', 'No', 'Poland'] },
    },
    {
      name: 'flat', pdf: () => flat,
      instructions: 'Full name: Jane Doe\nEmail: jane@example.com\nTick newsletter\nSmoker? No\nQty Apples: 3\nFavourite colour: blue',
      expected: { filled: 5, values: ['Jane Doe', 'jane@example.com', 'Newsletter', 'No', '3'] },
    },
  ];

  describe.each(cases)('$name form: detect → fill → detect → clear → detect', ({ pdf, instructions, expected }) => {
    it('round-trips through form_id chaining', async () => {
      const first = await ok(await post('detect', {}, pdf()));
      expect(first.page_count).toBe(1);
      expect(first.credits_used).toBe(1);
      expect(first.plan_info).toEqual(expect.objectContaining({ tier: expect.any(String), total_credits_used: expect.any(Number) }));
      expect(first.pdf_url).toBe(`${t.url}/results/${first.form_id}/pdf`);
      expect(first).not.toHaveProperty('fields_filled');
      expect(first).not.toHaveProperty('fields_cleared');
      expect(first.form_fields.length).toBeGreaterThan(5);
      expect(first.form_fields.every((c) => value(c) === '')).toBe(true);
      // detect serves the unmodified PDF
      expect(Buffer.from(await pdfOf(first)).equals(Buffer.from(pdf()))).toBe(true);

      const filled = await ok(await post('fill', { form_id: first.form_id, instructions }));
      expect(filled.form_id).not.toBe(first.form_id);
      expect(filled.fields_filled).toBe(expected.filled);
      expect(filled.credits_used).toBe(3);
      expect(filled).not.toHaveProperty('fields_cleared');
      expect(filled.details?.unmatched_instructions).toEqual(['Favourite colour: blue']);
      // every value placed says which fragment it came from, the field and the score; the one not placed says why
      const mapping = filled.details?.mapping ?? [];
      expect(mapping.length).toBeGreaterThan(0);
      for (const m of mapping) expect(m).toEqual({ instruction: expect.any(String), field: expect.objectContaining({ label: expect.any(String) }), value: expect.any(String), score: expect.any(Number) });
      expect(filled.details?.unapplied).toEqual([expect.objectContaining({ instruction: 'Favourite colour: blue', field: null, reason: expect.stringContaining('Favourite colour') })]);
      expect(filled.form_fields.map(value).filter(Boolean).sort()).toEqual([...expected.values].sort());
      const filledPdf = await pdfOf(filled);
      const text = await expectValidPdf(filledPdf);
      expect(text).toContain('Jane Doe');

      // the same instructions again change nothing
      const again = await ok(await post('fill', { form_id: filled.form_id, instructions }));
      expect(again.fields_filled).toBe(0);

      const seen = await ok(await post('detect', { form_id: filled.form_id }));
      expect(seen.form_fields.map(value)).toEqual(filled.form_fields.map(value));
      expect(seen.form_fields.map(shape)).toEqual(first.form_fields.map(shape));

      const cleared = await ok(await post('clear', { form_id: seen.form_id }));
      expect(cleared.fields_cleared).toBe(expected.filled);
      expect(cleared.credits_used).toBe(3);
      expect(cleared).not.toHaveProperty('fields_filled');
      expect(cleared.form_fields.every((c) => value(c) === '')).toBe(true);
      const clearedText = await expectValidPdf(await pdfOf(cleared));
      expect(clearedText).not.toContain('Jane Doe');

      const last = await ok(await post('detect', { form_id: cleared.form_id }));
      expect(last.form_fields.map(shape)).toEqual(first.form_fields.map(shape));
      expect(last.form_fields.map(value)).toEqual(first.form_fields.map(value));
    });
  });

  it('scanned form: detect → fill → detect → clear → detect (OCR; the overlay is removed, the scan stays)', async () => {
    const form = await renderChecklistForm();
    const { png } = await degrade({ ...form, horizontal: [], vertical: [], squares: [] }, { skewDeg: 0.3, blur: 0.5, noise: 0.001, seed: 3 });
    const scan = await imageOnlyPdf(png);
    const first = await ok(await post('detect', {}, scan));
    expect(first.details?.warnings).toBeUndefined();
    const boxes = first.form_fields.filter((c) => c.type === 'checkbox');
    // 3 options of one question + 3 stand-alone boxes, ticked where the scan has ink (Email, I agree, Urgent)
    expect(boxes.map((c) => c.checkbox_details!.map((d) => d.selected))).toEqual([[true, false, false], [true], [false], [true]]);
    expect(first.form_fields.filter((c) => c.type === 'text')).toHaveLength(2);

    const filled = await ok(await post('fill', { form_id: first.form_id, instructions: 'Name: Jane Doe\nSend me the newsletter: yes' }));
    expect(filled.fields_filled).toBe(2);
    expect(filled.form_fields.map(value)).toContain('Jane Doe');
    expect(filled.form_fields.filter((c) => c.type === 'checkbox').map((c) => c.checkbox_details!.map((d) => d.selected))).toEqual([[true, false, false], [true], [true], [true]]);
    const filledText = await expectValidPdf(await pdfOf(filled));
    expect(filledText).toContain('Jane Doe');

    // the new form_id is still a scan: OCR reads the image, Quire's overlays are the values
    const seen = await ok(await post('detect', { form_id: filled.form_id }));
    expect(seen.form_fields.map(shape)).toEqual(first.form_fields.map(shape));
    expect(seen.form_fields.map(value)).toEqual(filled.form_fields.map(value));

    const cleared = await ok(await post('clear', { form_id: seen.form_id }));
    expect(cleared.fields_cleared).toBe(2);
    expect(cleared.details?.warnings).toEqual([expect.stringMatching(/^3 cell\(s\) on scanned pages still show a value that is part of the scanned image/)]);
    expect(await expectValidPdf(await pdfOf(cleared))).not.toContain('Jane Doe');

    const last = await ok(await post('detect', { form_id: cleared.form_id }));
    expect(last.form_fields.map(shape)).toEqual(first.form_fields.map(shape));
    expect(last.form_fields.map(value)).toEqual(first.form_fields.map(value));
  }, 180_000);

  it('fills an uploaded file directly (detection runs first) and honours page_range', async () => {
    const r = await ok(await post('fill', { instructions: 'Full name: Ann Lee', page_range: '1' }, flat));
    expect(r.fields_filled).toBe(1);
    expect(r.form_fields.find((c) => c.text === 'Ann Lee')).toBeDefined();
    expect(r.credits_used).toBe(3);
    await expectError(await post('detect', { pages: '2' }, flat), 400, 'REQ_006');
    await expectError(await post('detect', { pages: 'one' }, flat), 400, 'REQ_006');
  });

  it('uses hand-edited form_fields: only the cells given are filled', async () => {
    const det = await ok(await post('detect', {}, flat));
    const nameCell = det.form_fields.find((c) => c.type === 'text')!;
    // a cell drawn by hand where detection found none (bottom of the page)
    const extra: Cell = { page_number: 1, type: 'text', bounding_box: [0.1, 0.9, 0.5, 0.93], text: '' };
    const r = await ok(await post('fill', { form_id: det.form_id, form_fields: JSON.stringify([nameCell, extra]), instructions: 'Full name: Jane Doe; Email: jane@example.com' }));
    expect(r.form_fields).toHaveLength(2);
    expect(r.form_fields[0].text).toBe('Jane Doe');
    expect(r.details?.unmatched_instructions).toEqual(['Email: jane@example.com']);
    expect(r.fields_filled).toBe(1);
  });

  it('accepts the legacy JSON body with form_id or file_url', async () => {
    const det = await ok(await postJson('detect', { file_url: `${fileBase}/flat.pdf` }));
    expect(det.form_fields.length).toBeGreaterThan(5);
    const filled = await ok(await postJson('fill', { form_id: det.form_id, instructions: 'Full name: Jane Doe' }));
    expect(filled.fields_filled).toBe(1);
    const cleared = await ok(await postJson('clear', { form_id: filled.form_id, pages: '1' }));
    expect(cleared.fields_cleared).toBe(1);
  });

  it('async=true answers 202 and the job result is the FormResult', async () => {
    const res = await post('detect', { async: 'true' }, fillable);
    expect(res.status).toBe(202);
    const acc = (await res.json()) as { job_id: string; status: string };
    expect(acc.status).toBe('pending');
    const job = await pollJob(t, acc.job_id);
    expect(job.status).toBe('completed');
    const result = job.result as FormResult;
    expect(result.form_id).toBe(acc.job_id);
    expect(result.credits_used).toBe(1);
    const chained = await ok(await post('fill', { form_id: result.form_id, instructions: 'Full name: Jane Doe' }));
    expect(chained.fields_filled).toBe(1);
  });

  it('maps instructions with the configured OpenAI-compatible model when QUIRE_LLM_BASE_URL is set', async () => {
    const asked: any[] = [];
    const llm = await startChatServer((body) => {
      const { cells } = JSON.parse(body.messages[1].content) as { cells: { index: number; label: string }[] };
      asked.push({ model: body.model, cells });
      const name = cells.find((c) => c.label === 'Full name')!;
      return JSON.stringify({ assignments: [{ cell_index: name.index, value: 'Model Filled', instruction: 'the applicant' }], unmatched: ['pet: cat'] });
    });
    const t2 = await startTestServer({ QUIRE_LLM_BASE_URL: llm.baseUrl, QUIRE_LLM_MODEL: 'fake-model' });
    try {
      const res = await t2.api('/form/fill', { method: 'POST', body: formWith({ bytes: flat, name: 'form.pdf' }, { instructions: 'the applicant is called Model Filled; pet: cat' }) });
      const r = (await res.json()) as FormResult;
      expect(res.status).toBe(200);
      expect(asked).toHaveLength(1);
      expect(asked[0].model).toBe('fake-model');
      expect(r.details?.model).toBe('openai:fake-model');
      expect(r.details?.unmatched_instructions).toEqual(['pet: cat']);
      expect(r.fields_filled).toBe(1);
      expect(r.form_fields.map(value)).toContain('Model Filled');
    } finally {
      await t2.close();
      await llm.close();
    }
  });

  describe('errors', () => {
    it('exactly one of form_id, file_url, file', async () => {
      const det = await ok(await post('detect', {}, flat));
      await expectError(await post('detect', {}), 400, 'REQ_001');
      await expectError(await postJson('detect', {}), 400, 'REQ_001');
      await expectError(await post('detect', { form_id: det.form_id }, flat), 400, 'REQ_002');
      await expectError(await post('detect', { file_url: `${fileBase}/flat.pdf` }, flat), 400, 'REQ_002');
      await expectError(await postJson('fill', { form_id: det.form_id, file_url: `${fileBase}/flat.pdf`, instructions: 'x: y' }), 400, 'REQ_002');
    });

    it('fill needs instructions; form_fields must be valid cells; detect takes neither', async () => {
      const det = await ok(await post('detect', {}, flat));
      await expectError(await post('fill', { form_id: det.form_id }), 400, 'REQ_004');
      await expectError(await post('fill', { form_id: det.form_id, instructions: '   ' }), 400, 'REQ_004');
      const bad = await expectError(await post('fill', { form_id: det.form_id, instructions: 'Full name: x', form_fields: JSON.stringify([{ page_number: 1, type: 'radio', bounding_box: [0, 0, 1] }]) }), 400, 'REQ_002');
      expect(bad.details.issues.length).toBeGreaterThan(0);
      await expectError(await post('fill', { form_id: det.form_id, instructions: 'Full name: x', form_fields: '{not json' }), 400, 'REQ_002');
      await expectError(await post('clear', { form_id: det.form_id, form_fields: JSON.stringify({ cells: [] }) }), 400, 'REQ_002');
      await expectError(await post('fill', { form_id: det.form_id, instructions: 'x', form_fields: JSON.stringify([{ page_number: 3, type: 'text', bounding_box: [0, 0, 0.5, 0.5], text: '' }]) }), 400, 'REQ_003');
      await expectError(await post('detect', { form_id: det.form_id, instructions: 'Full name: x' }), 400, 'REQ_002');
    });

    it('non-PDF files are refused', async () => {
      await expectError(await t.api('/form/detect', { method: 'POST', body: formWith({ bytes: '<html><body>hi</body></html>', name: 'a.html' }) }), 400, 'FILE_001');
    });

    it('AUTH_004 without the form_filler flag', async () => {
      const { store } = t.server.ctx;
      const org = await store.orgs.create({ name: 'no-forms' });
      const { key } = await store.keys.create(org.id);
      const e = await expectError(await post('detect', {}, flat, key), 403, 'AUTH_004');
      expect(e.details).toEqual({ flag: 'form_filler' });
    });

    it("another organization's form_id and PDF are not found", async () => {
      const det = await ok(await post('detect', {}, flat));
      const { store } = t.server.ctx;
      const org = await store.orgs.create({ name: 'other-forms', flags: { form_filler: true } });
      const { key } = await store.keys.create(org.id);
      await expectError(await post('fill', { form_id: det.form_id, instructions: 'Full name: x' }, undefined, key), 404, 'STORAGE_002');
      await expectError(await postJson('clear', { form_id: det.form_id }, key), 404, 'STORAGE_002');
      await expectError(await post('detect', { form_id: '00000000-0000-4000-8000-000000000000' }), 404, 'STORAGE_002');
      await expectError(await post('detect', { form_id: 'not-a-uuid' }), 404, 'STORAGE_002');
      // the PDF is served to its owner only
      await pdfOf(det);
      await expectError(await t.api(new URL(det.pdf_url).pathname, { key }), 404, 'STORAGE_002');
      await expectError(await t.api(new URL(det.pdf_url).pathname, { key: null }), 401, 'AUTH_001');
    });
  });
});
