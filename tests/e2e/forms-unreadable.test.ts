import { makeDamagedFieldForm, makeFillableForm, makeUnlistedWidgetForm } from '../fixtures/forms/make-forms.js';
import { encryptPdf } from '../fixtures/pdf/encrypt.js';
import { formWith, startTestServer, type TestServer } from '../support/embedded.js';

type Cell = { page_number: number; type: string; text: string; checkbox_details?: { selected: boolean; text: string }[] };
type FormResult = { form_id: string; form_fields: Cell[]; fields_filled?: number; fields_cleared?: number };

const value = (c: Cell) => (c.type === 'checkbox' ? (c.checkbox_details ?? []).filter((d) => d.selected).map((d) => d.text).join('|') : c.text);

/**
 * Forms whose structure the form workflow once read through a different path than detect: a form detect
 * reads must go through fill and clear too, over HTTP, without a server error or a FILE_003 refusal.
 */
describe('embedded: forms detect reads are filled and cleared', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer(); });
  afterAll(async () => { await t.close(); });

  const post = (op: string, fields: Record<string, string>, file?: Uint8Array) =>
    t.api(`/form/${op}`, { method: 'POST', body: formWith(file ? { bytes: file, name: 'form.pdf', type: 'application/pdf' } : undefined, fields) });
  const ok = async (res: Response): Promise<FormResult> => {
    const body = await res.json();
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(body)}`);
    return body as FormResult;
  };

  it.each(['no-fields', 'no-acroform'] as const)('widgets not reachable from /AcroForm (%s): detect → fill → clear', async (reachable) => {
    const first = await ok(await post('detect', {}, await makeUnlistedWidgetForm(reachable)));
    expect(first.form_fields.map((c) => c.type)).toEqual(['text', 'text', 'checkbox']);
    const filled = await ok(await post('fill', { form_id: first.form_id, instructions: "Name: Jane Doe\nCity: Lyon\ncheck 'Large' for Size" }));
    expect(filled.fields_filled).toBe(3);
    expect(filled.form_fields.map(value)).toEqual(['Jane Doe', 'Lyon', 'Large']);
    const cleared = await ok(await post('clear', { form_id: filled.form_id }));
    expect(cleared.fields_cleared).toBe(3);
    expect(cleared.form_fields.map(value)).toEqual(['', '', '']);
  });

  it.each(['type-on-kids', 'parent-not-dict', 'no-rect'] as const)('a damaged field (%s) leaves the rest of the form fillable and clearable', async (damage) => {
    const first = await ok(await post('detect', {}, await makeDamagedFieldForm(damage)));
    const name = first.form_fields.findIndex((c) => c.type === 'text');
    const filled = await ok(await post('fill', { form_id: first.form_id, instructions: 'Name: Jane Doe' }));
    expect(filled.fields_filled).toBe(1);
    expect(filled.form_fields[name].text).toBe('Jane Doe');
    const cleared = await ok(await post('clear', { form_id: filled.form_id }));
    expect(cleared.fields_cleared).toBe(1);
    expect(cleared.form_fields[name].text).toBe('');
  });

  it('a form encrypted with an empty user password (opens without asking): detect → fill → clear', async () => {
    const first = await ok(await post('detect', {}, await encryptPdf(await makeFillableForm())));
    const name = first.form_fields.findIndex((c) => c.type === 'text');
    expect(name).toBeGreaterThanOrEqual(0);
    const filled = await ok(await post('fill', { form_id: first.form_id, instructions: 'Full name: Jane Doe' }));
    expect(filled.fields_filled).toBe(1);
    expect(filled.form_fields[name].text).toBe('Jane Doe');
    const cleared = await ok(await post('clear', { form_id: filled.form_id }));
    expect(cleared.fields_cleared).toBe(1);
    expect(cleared.form_fields.every((c) => value(c) === '')).toBe(true);
  });
});
