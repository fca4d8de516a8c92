import { mapFormInstructionsByLabel } from './instructions/map.js';
import { makeFillableForm, makeFlatForm } from '../../../tests/fixtures/forms/make-forms.js';
import { clearForm } from './clear.js';
import { fromSpecFormCells, toFillableCells, toSpecFormCells } from './convert.js';
import { detectForm } from './detect.js';
import { fillForm } from './fill.js';
import { allText, qpdfCheck, renderInk, shape, value } from '../../../tests/fixtures/forms/test-helpers.js';
import type { DetectedCell } from './types.js';

const byLabel = (cells: DetectedCell[]) => Object.fromEntries(cells.map((c) => [c.label, value(c)]));
const assertValid = async (pdf: Uint8Array) => {
  const q = qpdfCheck(pdf);
  if (q) expect([0, 3]).toContain(q.status);
  if (q) expect(q.out).not.toMatch(/WARNING|error:/);
  const ink = await renderInk(pdf);
  expect(ink[0]).toBeGreaterThan(0.001);
};
const fillFromInstructions = async (pdf: Uint8Array, cells: DetectedCell[], instructions: string) => {
  const answer = mapFormInstructionsByLabel({ instructions, cells: toFillableCells(cells) });
  return { answer, result: await fillForm(pdf, cells, answer.assignments) };
};

describe('fillable (AcroForm) PDF', () => {
  let pdf: Uint8Array;
  let first: DetectedCell[];
  beforeAll(async () => {
    pdf = await makeFillableForm();
    first = (await detectForm(pdf)).cells;
  });

  it('detects every field with its type, label and constraints', () => {
    const get = (label: string) => first.find((c) => c.label === label)!;
    expect(first).toHaveLength(14);
    expect(get('Full name')).toMatchObject({ type: 'text', text: '' });
    expect(get('Address').multiline).toBe(true);
    expect(get('ZIP code')).toMatchObject({ maxLength: 5, comb: true });
    expect(get('Date of birth')).toMatchObject({ type: 'text', datePattern: 'MM/DD/YYYY' }); // from the tooltip (TU)
    expect(get('Married').checkbox_details).toHaveLength(1);
    const radio = get('3. Do you smoke?');
    expect(radio.type).toBe('checkbox');
    expect(radio.checkbox_details!.map((d) => d.text)).toEqual(['Yes', 'No', 'Sometimes']);
    expect(get('Country')).toMatchObject({ type: 'text', options: ['France', 'Germany', 'Poland', 'United States'] });
    expect(get('Signature').type).toBe('signature');
    const grid = first.filter((c) => c.table_idx !== undefined);
    expect(grid.map((c) => `${c.row},${c.col}`)).toEqual(['0,0', '0,1', '0,2', '1,0', '1,1', '1,2']);
    expect(grid.map((c) => c.label)).toEqual(['Item', 'Qty', 'Price', 'Item (row 2)', 'Qty (row 2)', 'Price (row 2)']);
    for (const c of first) for (const n of c.bounding_box) expect(n).toBeGreaterThanOrEqual(0);
    // spec shape has no internal fields
    expect(Object.keys(toSpecFormCells(first)[0]).sort()).toEqual(['bounding_box', 'page_number', 'text', 'type']);
  });

  it('fill → detect shows the values; clear → detect equals the first detect with empty values', async () => {
    const { answer, result } = await fillFromInstructions(pdf, first,
      "Full name: Jane Doe; Address: 12 Main St, Łódź; ZIP code: 12-345; date of birth 2 Feb 1990; she is married; check 'No' for question 3; Country: poland; Qty: 3; sign as J. Doe");
    expect(answer.unmatched).toEqual([]);
    expect(result.unapplied).toEqual([]);
    expect(result.filled).toBe(9);
    const again = (await detectForm(result.pdf)).cells;
    expect(byLabel(again)).toMatchObject({
      'Full name': 'Jane Doe', Address: '12 Main St, Łódź', 'ZIP code': '12345', 'Date of birth': '02/02/1990',
      Married: 'Married', '3. Do you smoke?': 'No', Country: 'Poland', Qty: '3', Signature: 'J. Doe', 'Item (row 2)': '',
    });
    expect(byLabel(result.cells)).toEqual(byLabel(again));
    expect(again.map(shape)).toEqual(first.map(shape));
    await assertValid(result.pdf);

    const same = await fillForm(result.pdf, again, answer.assignments, { overlays: result.overlays });
    expect(same.filled).toBe(0);

    const cleared = await clearForm(result.pdf, again, { overlays: result.overlays });
    expect(cleared.cleared).toBe(9);
    const after = (await detectForm(cleared.pdf)).cells;
    expect(after.map(shape)).toEqual(first.map(shape));
    expect(after.map(value)).toEqual(first.map(() => ''));
    expect(cleared.cells.map(value)).toEqual(first.map(() => ''));
    await assertValid(cleared.pdf);
  });

  it('writes non-Latin text with an embedded font that pdf.js reads back', async () => {
    const name = first.findIndex((c) => c.label === 'Full name');
    const r = await fillForm(pdf, first, [{ cellIndex: name, value: 'Łódź Привет' }]);
    expect(await allText(r.pdf)).toContain('Łódź Привет');
    await assertValid(r.pdf);
  });

  it('reports values that cannot be applied', async () => {
    const country = first.findIndex((c) => c.label === 'Country');
    const radio = first.findIndex((c) => c.label === '3. Do you smoke?');
    const r = await fillForm(pdf, first, [{ cellIndex: country, value: 'Atlantis' }, { cellIndex: radio, value: 'Maybe' }, { cellIndex: 99, value: 'x' }]);
    expect(r.unapplied.map((u) => u.cellIndex).sort()).toEqual([country, radio, 99].sort());
    expect(r.filled).toBe(0);
  });
});

describe('flat PDF', () => {
  let pdf: Uint8Array;
  let first: DetectedCell[];
  beforeAll(async () => {
    pdf = await makeFlatForm();
    first = (await detectForm(pdf)).cells;
  });

  it('finds boxes, underlines, "____" runs, comb boxes, checkboxes, grid cells and the signature line', () => {
    const kinds = first.map((c) => `${c.type}:${c.source.kind === 'drawn' ? c.source.shape : ''}:${c.label}`);
    expect(kinds).toEqual([
      'text:box:Full name', 'text:underline:Email', 'text:underscores:Phone', 'text:comb:ZIP code',
      'checkbox:square:Newsletter', 'checkbox:square:Smoker?',
      'text:grid:Qty Apples', 'text:grid:Price Apples', 'text:grid:Qty Pears', 'text:grid:Price Pears',
      'signature:underline:Signature',
    ]);
    expect(first.find((c) => c.label === 'ZIP code')).toMatchObject({ comb: true, maxLength: 5 });
    expect(first.find((c) => c.label === 'Smoker?')!.checkbox_details!.map((d) => d.text)).toEqual(['Yes', 'No']);
    expect(first.filter((c) => c.table_idx === 0).map((c) => [c.row, c.col])).toEqual([[1, 1], [1, 2], [2, 1], [2, 2]]);
    expect(first.every((c) => value(c) === '')).toBe(true);
  });

  it('fill draws overlays that detect reads back; clear removes exactly them', async () => {
    const { answer, result } = await fillFromInstructions(pdf, first,
      'Full name: Jane Doe\nEmail: jane@example.com\nPhone: Привет 555\nZIP code: 12345\nTick newsletter\nSmoker? No\nQty Apples: 3\nPrice Pears = 2.00\nSign as J. Doe');
    expect(answer.unmatched).toEqual([]);
    expect(result.unapplied).toEqual([]);
    expect(result.filled).toBe(9);
    expect(result.overlays).toHaveLength(9);
    const again = (await detectForm(result.pdf)).cells;
    expect(byLabel(again)).toEqual({
      'Full name': 'Jane Doe', Email: 'jane@example.com', Phone: 'Привет 555', 'ZIP code': '12345', Newsletter: 'Newsletter',
      'Smoker?': 'No', 'Qty Apples': '3', 'Price Apples': '', 'Qty Pears': '', 'Price Pears': '2.00', Signature: 'J. Doe',
    });
    expect(again.map(shape)).toEqual(first.map(shape));
    await assertValid(result.pdf);

    // re-filling a cell replaces Quire's drawing instead of stacking a second one
    const smoker = again.findIndex((c) => c.label === 'Smoker?'), name = again.findIndex((c) => c.label === 'Full name');
    const refill = await fillForm(result.pdf, again, [{ cellIndex: smoker, value: 'Yes' }, { cellIndex: name, value: 'Ann Lee' }], { overlays: result.overlays });
    expect(refill.filled).toBe(2);
    expect(refill.overlays).toHaveLength(9);
    expect(byLabel((await detectForm(refill.pdf)).cells)).toMatchObject({ 'Smoker?': 'Yes', 'Full name': 'Ann Lee' });

    const cleared = await clearForm(refill.pdf, again, { overlays: refill.overlays });
    expect(cleared.cleared).toBe(9);
    const after = (await detectForm(cleared.pdf)).cells;
    expect(after.map(shape)).toEqual(first.map(shape));
    expect(after.map(value)).toEqual(first.map(() => ''));
    expect(await allText(cleared.pdf)).toContain('Membership form');
    await assertValid(cleared.pdf);
  });

  it('clears values typed by another tool and keeps the template', async () => {
    const typed = await makeFlatForm({ filledElsewhere: true });
    const cells = (await detectForm(typed)).cells;
    expect(byLabel(cells)).toMatchObject({ 'Full name': 'John Smith', Email: 'john@example.com', Phone: '555-1234', Newsletter: 'Newsletter', 'Qty Apples': '12' });
    const cleared = await clearForm(typed, cells);
    expect(cleared.cleared).toBe(5);
    const after = (await detectForm(cleared.pdf)).cells;
    expect(after.map(value)).toEqual(after.map(() => ''));
    expect(after.map(shape)).toEqual(first.map(shape));
    const text = await allText(cleared.pdf);
    for (const t of ['Full name:', 'Email:', 'Phone:', '____', 'Apples', 'Signature']) expect(text).toContain(t);
    await assertValid(cleared.pdf);
  });

  it('handles a page rotated by /Rotate 90 (boxes are as displayed)', async () => {
    const rotated = await makeFlatForm({ rotate: 90 });
    const cells = (await detectForm(rotated)).cells;
    expect(cells.map((c) => c.label).sort()).toEqual(first.map((c) => c.label).sort());
    const name = cells.find((c) => c.label === 'Full name')!;
    // displayed landscape: the field's long side runs top to bottom
    expect(name.bounding_box[3] - name.bounding_box[1]).toBeGreaterThan(name.bounding_box[2] - name.bounding_box[0]);
    const r = await fillForm(rotated, cells, [{ cellIndex: cells.indexOf(name), value: 'Jane Doe' }]);
    expect(byLabel((await detectForm(r.pdf)).cells)['Full name']).toBe('Jane Doe');
  });
});

describe('form_fields from callers', () => {
  it('validates hand-edited cells and keeps bindings of matching ones', async () => {
    const pdf = await makeFillableForm();
    const { cells } = await detectForm(pdf);
    const edited = toSpecFormCells(cells);
    edited[0].text = 'Hand edited';
    const merged = fromSpecFormCells(edited, cells);
    expect(merged[0].source).toEqual(cells[0].source);
    expect(merged[0].text).toBe('Hand edited');
    expect(() => fromSpecFormCells([{ page_number: 0, type: 'text', bounding_box: [0, 0, 1] }])).toThrow(expect.objectContaining({ code: 'REQ_002' }));
  });
});

describe('scanned pages', () => {
  it('reports image-only pages, and finds cells from geometry supplied from outside (OCR + line detection)', async () => {
    const { PDFDocument } = await import('pdf-lib');
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    // a 1×1 grey PNG stretched over the page: an image-only page
    const png = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==', 'base64'));
    page.drawImage(await doc.embedPng(png), { x: 0, y: 0, width: 612, height: 792 });
    const pdf = await doc.save();
    const plain = await detectForm(pdf);
    expect(plain.scannedPages).toEqual([1]);
    expect(plain.cells).toEqual([]);
    const W = 612, H = 792;
    const geometry = { 1: {
      width: W, height: H,
      words: [{ text: 'Name:', box: { x0: 50 / W, y0: 90 / H, x1: 80 / W, y1: 100 / H }, fontSize: 10, confidence: 0.9 }],
      segments: [{ x0: 90 / W, y0: 100 / H, x1: 300 / W, y1: 100 / H, width: 0.001 }],
      rects: [],
    } };
    const withOcr = await detectForm(pdf, { geometry });
    expect(withOcr.scannedPages).toEqual([]);
    expect(withOcr.cells.map((c) => [c.type, c.label])).toEqual([['text', 'Name']]);
  });
});
