import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { characterErrorRate } from '../../../tests/fixtures/scans/generate.js';
import { createOcrPool, type OcrPool } from './index.js';

// Real scans from the shared corpus (read in place, never copied). Skipped where the corpus is absent.
const DIR = path.resolve(process.cwd(), '../shared/corpus/scanned');
const present = fs.existsSync(path.join(DIR, 'linn.png'));
const maybe = present ? describe : describe.skip;
const T = 180_000;

async function read(pool: OcrPool, file: string, turn = 0) {
  let bytes: Buffer = fs.readFileSync(path.join(DIR, file));
  if (turn) bytes = await sharp(bytes).rotate(turn).png().toBuffer();
  const m = await sharp(bytes).metadata();
  // these scans are 300 DPI (linn.png records no density)
  return pool.recognize(bytes, { number: 1, widthPt: (m.width! / 300) * 72, heightPt: (m.height! / 300) * 72 });
}

maybe('OCR on corpus scans', () => {
  let pool: OcrPool;
  beforeAll(async () => { pool = await createOcrPool({ size: 2 }); }, T);
  afterAll(() => pool?.close());

  // Bounds sit a little above the measured CER (linn ~1 %, eurotext ~2 %: the eng model has no
  // German/French training, so a few accents and guillemets go wrong), to catch regressions.
  it.each([['linn.png', 'linn', 0, 0.03], ['eurotext.png', 'eurotext', 0, 0.05], ['linn.png', 'linn', 90, 0.03]] as const)(
    '%s (ground truth %s, turned %p°) reads close to its transcription', async (file, gt, turn, bound) => {
      const t0 = Date.now();
      const page = await read(pool, file, turn);
      const expected = fs.readFileSync(path.join(DIR, `${gt}.expected.txt`), 'utf8');
      const cer = characterErrorRate(page.words.map((w) => w.text).join(' '), expected);
      console.log(`${file} turned ${turn}: CER ${(cer * 100).toFixed(2)} %, ${page.words.length} words, corrected ${page.correctedRotation}°, ${Date.now() - t0} ms`);
      expect(page.correctedRotation).toBe((360 - turn) % 360);
      expect(cer).toBeLessThan(bound);
    }, T);
});
