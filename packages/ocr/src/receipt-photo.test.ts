import sharp from 'sharp';
import { renderReceiptPhoto } from '../../../tests/fixtures/scans/receipt-photo.js';
import { createOcrPool, type OcrPool } from './index.js';

const T = 240_000;

// Issue 16, class 7: a receipt photographed on a dark desk was read at ±90° because the desk's edges
// along the tall slip looked like text lines. Read through the real OCR pool.
describe('a receipt photographed on a dark surface', () => {
  let pool: OcrPool;
  beforeAll(async () => { pool = await createOcrPool({ size: 1 }); }, T);
  afterAll(() => pool?.close());

  it('reads upright, line by line in order, with every box on the slip in the photo as sent', async () => {
    const photo = await renderReceiptPhoto();
    // 1800×1500 px photographed at ~200 DPI
    const page = await pool.recognize(photo.png, { number: 1, widthPt: (photo.width / 200) * 72, heightPt: (photo.height / 200) * 72 });
    expect(page.correctedRotation).toBe(0);
    const text = page.words.map((w) => w.text).join(' ');
    const expected = photo.lines.join(' ');
    expect(text).toBe(expected);
    for (const w of page.words) {
      expect(w.box.x0).toBeGreaterThanOrEqual(photo.paper.x0);
      expect(w.box.x1).toBeLessThanOrEqual(photo.paper.x1);
      expect(w.box.y0).toBeGreaterThanOrEqual(photo.paper.y0);
      expect(w.box.y1).toBeLessThanOrEqual(photo.paper.y1);
    }
    // lines top to bottom: the first word of each line lies below the previous line's
    const firsts = page.words.filter((_, i) => i === 0 || page.words[i - 1].endOfRun);
    for (let i = 1; i < firsts.length; i++) expect(firsts[i].box.y0).toBeGreaterThan(firsts[i - 1].box.y1 - 0.002);
  }, T);

  it('reads a slip photographed askew in dimmer light (grey paper on a grey-black desk) upright too', async () => {
    const photo = await renderReceiptPhoto({ brightStrip: false });
    // turned 7° anticlockwise, contrast squeezed: paper ~215, desk ~55
    const png = await sharp(photo.png).rotate(-7, { background: { r: 25, g: 25, b: 25 } }).linear(0.7, 40).png().toBuffer();
    const page = await pool.recognize(png, { number: 1, widthPt: 648, heightPt: 540 });
    expect(page.correctedRotation).toBe(0);
    expect(page.words.map((w) => w.text).join(' ')).toBe(photo.lines.join(' '));
  }, T);
});
