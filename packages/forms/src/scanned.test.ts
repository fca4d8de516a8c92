import sharp from 'sharp';
import { createOcrPool, type OcrPool } from '@quire/ocr';
import { degrade, renderPaperForm } from '../../../tests/fixtures/scans/ruled.js';
import { imageOnlyPdf as scannedPdf, renderChecklistForm, type ScannedForm } from '../../../tests/fixtures/forms/scanned-form.js';
import { shape, value } from '../../../tests/fixtures/forms/test-helpers.js';
import { clearForm } from './clear.js';
import { detectForm } from './detect.js';
import { fillForm } from './fill.js';
import type { DetectedCell } from './types.js';

const T = 120_000;

/** The checklist form as a mildly degraded scan (skew, blur, speckle), as an image-only PDF. */
async function scannedChecklist(form: ScannedForm): Promise<Uint8Array> {
  const { png } = await degrade({ ...form, horizontal: [], vertical: [], squares: [] }, { skewDeg: 0.3, blur: 0.5, noise: 0.001, seed: 3 });
  return scannedPdf(png);
}

const summary = (cells: DetectedCell[]) => cells.map((c) => ({
  type: c.type, label: c.label, shape: c.source.kind === 'drawn' ? c.source.shape : undefined,
  ...(c.comb ? { maxLength: c.maxLength } : {}),
  ...(c.checkbox_details ? { options: c.checkbox_details.map((d) => `${d.text}${d.selected ? ':x' : ''}`) } : {}),
}));

// Cells found on the scan: fill lines (the "City:" label ends 85 pt left of its line), boxes with
// their labels printed inside, a comb, and the Yes/No question whose squares the raster rulings found.
const EXPECTED_TEXT = [
  { type: 'text', label: 'Full name', shape: 'underline' },
  { type: 'text', label: 'Street address', shape: 'underline' },
  { type: 'text', label: 'City', shape: 'underline' },
  { type: 'text', label: 'Phone number', shape: 'box' },
  { type: 'text', label: 'Date of birth', shape: 'box' },
  { type: 'text', label: 'Member code', shape: 'comb', maxLength: 6 },
];
const EXPECTED_CHECKBOX = { type: 'checkbox', label: 'Is this a renewal?', shape: 'square', options: ['Yes:x', 'No'] };
const sortByLabel = <X extends { label: string }>(xs: X[]) => [...xs].sort((p, q) => p.label.localeCompare(q.label));
const textCells = (cells: DetectedCell[]) => sortByLabel(summary(cells.filter((c) => c.type === 'text')));

describe('scanned paper forms (OCR + raster rulings)', () => {
  let pool: OcrPool;
  beforeAll(async () => { pool = await createOcrPool({ size: 2 }); }, T);
  afterAll(async () => { await pool?.close(); });

  /**
   * The checklist scan and its OCR detection, made once for the tests that start from it (both read the same
   * deterministic scan; an OCR pass over it is seconds of CPU): each gets its own copy of the cells.
   */
  let checklist: Promise<{ form: ScannedForm; pdf: Uint8Array; detected: Awaited<ReturnType<typeof detectForm>> }> | undefined;
  const scannedChecklistDetected = async () => {
    checklist ??= (async () => {
      const form = await renderChecklistForm();
      const pdf = await scannedChecklist(form);
      return { form, pdf, detected: await detectForm(pdf, { ocr: pool }) };
    })();
    const { form, pdf, detected } = await checklist;
    return { form, pdf: pdf.slice(), detected: structuredClone(detected) };
  };

  test('a skewed, noisy scan: fill lines, boxes with inner labels and a comb', async () => {
    const { png } = await degrade(await renderPaperForm(), { skewDeg: 0.5, blur: 0.7, noise: 0.003, seed: 4 });
    const pdf = await scannedPdf(png);
    const plain = await detectForm(pdf);
    expect(plain.cells).toEqual([]);
    expect(plain.warnings).toEqual([expect.stringMatching(/Page 1 is an image only .* no OCR engine/)]);
    const r = await detectForm(pdf, { ocr: pool });
    expect(r.scannedPages).toEqual([1]);
    expect(textCells(r.cells)).toEqual(sortByLabel(EXPECTED_TEXT));
    expect(summary(r.cells.filter((c) => c.type === 'checkbox'))).toEqual([EXPECTED_CHECKBOX]);
  }, T);

  test('a sideways scan: the same cells, boxes on the page as displayed', async () => {
    const form = await renderPaperForm();
    const pdf = await scannedPdf(await sharp(form.png).rotate(270).png().toBuffer());
    const r = await detectForm(pdf, { ocr: pool });
    expect(textCells(r.cells)).toEqual(sortByLabel(EXPECTED_TEXT));
    expect(summary(r.cells.filter((c) => c.type === 'checkbox'))).toEqual([EXPECTED_CHECKBOX]);
    // "Full name" line: upright x 2.5..6.5 in of 8.5, y ≈ 1.9 in of 11; turned counter-clockwise, x becomes 1 - y
    const name = r.cells.find((c) => c.label === 'Full name')!;
    const [x0, y0, x1, y1] = name.bounding_box;
    expect(y0).toBeCloseTo(1 - 6.5 / 8.5, 1);
    expect(y1).toBeCloseTo(1 - 2.5 / 8.5, 1);
    expect(x1).toBeCloseTo(1.93 / 11, 1);
    expect(x0).toBeLessThan(x1);
  }, T);

  test('checkbox squares become checkbox cells: centre, ticked by the ink inside, option label beside', async () => {
    const { form, detected: r } = await scannedChecklistDetected();
    const boxes = r.cells.filter((c) => c.type === 'checkbox');
    // one cell for the question's three options; stand-alone boxes labelled on their right, one on its left
    expect(boxes.map((c) => ({ label: c.label, options: c.checkbox_details!.map((d) => `${d.text}${d.selected ? ':x' : ''}`) }))).toEqual([
      { label: 'Preferred contact', options: ['Email:x', 'Phone', 'Post'] },
      { label: expect.stringMatching(/agree to the terms$/), options: [expect.stringMatching(/agree to the terms:x$/)] },
      { label: expect.stringMatching(/^send me the newsletter$/i), options: [expect.stringMatching(/^send me the newsletter$/i)] },
      { label: 'Urgent', options: ['Urgent:x'] },
    ]);
    // centres where the squares were drawn (the 0.3° skew moves them by well under 1%)
    const centres = boxes.flatMap((c) => c.checkbox_details!.map((d) => d.center_coord));
    expect(centres).toHaveLength(form.boxes.length);
    centres.forEach(([x, y], k) => {
      expect(Math.abs(x - form.boxes[k].centre[0])).toBeLessThan(0.01);
      expect(Math.abs(y - form.boxes[k].centre[1])).toBeLessThan(0.01);
    });
    expect(centres.map((_, k) => form.boxes[k].ticked)).toEqual(boxes.flatMap((c) => c.checkbox_details!.map((d) => d.selected)));
    // the fill lines, "Email:" standing 1.1 in left of its line
    expect(textCells(r.cells).map((c) => c.label)).toEqual(['Email', 'Name']);
  }, T);

  test('a scan Quire filled is still read as a scan: detect → fill → detect → clear → detect', async () => {
    const { pdf, detected: first } = await scannedChecklistDetected();
    const at = (re: RegExp) => first.cells.findIndex((c) => re.test(c.label));
    const [name, news, contact] = [at(/^Name$/), at(/newsletter/i), at(/^Preferred contact$/)];
    expect(Math.min(name, news, contact)).toBeGreaterThanOrEqual(0);

    // "Email" is ticked in the image: choosing "Phone" would need unticking pixels, which is refused
    const filled = await fillForm(pdf, first.cells, [{ cellIndex: name, value: 'Jane Doe' }, { cellIndex: news, value: 'yes' }, { cellIndex: contact, value: 'Phone' }]);
    expect(filled.unapplied).toEqual([{ cellIndex: contact, value: 'Phone', reason: expect.stringMatching(/"Email" is ticked in the scanned image/) }]);
    expect(filled.filled).toBe(2);
    expect(value(filled.cells[name])).toBe('Jane Doe');
    expect(filled.cells[news].checkbox_details![0].selected).toBe(true);

    // the filled PDF: image + Quire's overlays; OCR reads the image without them, the overlays are the values
    const seen = await detectForm(filled.pdf, { ocr: pool });
    expect(seen.scannedPages).toEqual([1]);
    expect(seen.cells.map(shape)).toEqual(first.cells.map(shape));
    expect(seen.cells.map(value)).toEqual(filled.cells.map(value));

    const cleared = await clearForm(filled.pdf, seen.cells, { overlays: filled.overlays });
    expect(cleared.cleared).toBe(2);
    // ticks that are pixels of the scan stay, and say so
    expect(cleared.warnings).toEqual([expect.stringMatching(/^3 cell\(s\) on scanned pages still show a value that is part of the scanned image/)]);
    const last = await detectForm(cleared.pdf, { ocr: pool });
    expect(last.cells.map(shape)).toEqual(first.cells.map(shape));
    expect(last.cells.map(value)).toEqual(first.cells.map(value));
  }, 3 * T);
});
