import type { Document } from '@quire/core';
import { createOcrPool, type OcrPool } from '@quire/ocr';
import { renderReceiptPhoto } from '../../../tests/fixtures/scans/receipt-photo.js';
import { extractDocument } from './pipeline.js';

const T = 240_000;

const textOf = (doc: Document) => doc.pages.flatMap((p) => p.elements.map((e) => ('text' in e ? String(e.text) : ''))).join('\n');

// Issue 16, class 7, through the whole extraction: the photo of a receipt on a dark desk comes out as
// the receipt's lines, in order, not turned, and the page keeps the photo's size and orientation.
describe('extracting a receipt photographed on a dark surface', () => {
  let pool: OcrPool;
  beforeAll(async () => { pool = await createOcrPool({ size: 1 }); }, T);
  afterAll(async () => { await pool?.close(); });

  test('reads the slip upright and in order; element boxes lie on the slip in the photo', async () => {
    const photo = await renderReceiptPhoto();
    const doc = await extractDocument(photo.png, 'png', { ocr: pool });
    const page = doc.pages[0];
    expect(page.extra?.ocr_rotation_corrected).toBeUndefined();
    expect(page.width).toBeGreaterThan(page.height); // the landscape photo, not a turned page
    const words = textOf(doc).split(/\s+/).filter(Boolean);
    expect(words).toEqual(photo.lines.join(' ').split(' '));
    for (const el of page.elements) {
      const b = el.box!;
      expect(b.x0).toBeGreaterThanOrEqual(photo.paper.x0);
      expect(b.x1).toBeLessThanOrEqual(photo.paper.x1);
      expect(b.y0).toBeGreaterThanOrEqual(photo.paper.y0);
      expect(b.y1).toBeLessThanOrEqual(photo.paper.y1);
    }
  }, T);
});
