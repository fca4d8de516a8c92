import sharp from 'sharp';
import { characterErrorRate, renderScan, type Scan } from '../../../tests/fixtures/scans/generate.js';
import { SECOND_BINARISATION, type OcrWorker, type OcrWorkerFactory, type TessResult } from '../src/ocr-worker.js';
import { linesOf } from '../src/words.js';

const T = 120_000;

/** A page under uneven light: the paper darkens from white (left) to dark grey (right). */
export async function unevenlyLit(png: Buffer): Promise<Buffer> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const out = Buffer.alloc(data.length);
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) out[y * info.width + x] = Math.round(data[y * info.width + x] * (1 - 0.75 * (x / info.width)));
  }
  return sharp(out, { raw: { width: info.width, height: info.height, channels: 1 } }).png().toBuffer();
}

/**
 * What every OcrWorkerFactory adapter (tesseract.js threads, the native CLI) must do for the pool and
 * recognizePage: the TessResult shape they read, the per-recognition binarisation, and the death
 * semantics the pool relies on to replace a hung or crashed worker.
 */
export interface ConformanceTraits {
  /**
   * Whether the engine binarises the page itself, so that a pass's binarisation changes its reading
   * (tesseract). A learned detector reads the grey image: it must read the shaded page in every pass.
   */
  binarises: boolean;
}

export function describeOcrWorkerConformance(name: string, factory: OcrWorkerFactory, traits: ConformanceTraits = { binarises: true }): void {
  describe(`OcrWorker conformance: ${name}`, () => {
    let worker: OcrWorker;
    let scan: Scan;
    beforeAll(async () => {
      [worker, scan] = await Promise.all([factory({ languages: 'eng', psm: 3 }), renderScan()]);
    }, T);
    afterAll(() => worker?.terminate());

    const cer = (r: TessResult, s: Scan) => characterErrorRate(r.text.replace(/\s+/g, ' ').trim(), s.lines.join(' '));

    it('reads a scan into blocks → paragraphs → lines → words with boxes, confidences and row heights', async () => {
      const r = await worker.recognize(scan.png);
      expect(cer(r, scan)).toBeLessThan(0.05);
      const lines = linesOf(r);
      expect(lines).toHaveLength(scan.lines.length);
      // `text` as GetUTF8Text lays it out: a line per line (and a blank line after each paragraph)
      const textLines = r.text.split('\n').filter((l) => l !== '');
      lines.forEach((line, i) => {
        expect(line.words.map((w) => w.text).join(' ')).toBe(textLines[i]);
        // each line sits on the band it was drawn in, and its row height is about the font's em (11 pt at 300 DPI ≈ 46 px)
        const mid = (line.bbox.y0 + line.bbox.y1) / 2 / scan.height;
        expect(mid).toBeGreaterThan(scan.lineBands[i].y0);
        expect(mid).toBeLessThan(scan.lineBands[i].y1);
        expect(line.rowAttributes?.rowHeight).toBeGreaterThan(35);
        expect(line.rowAttributes?.rowHeight).toBeLessThan(55);
        for (const w of line.words) {
          expect(w.confidence).toBeGreaterThan(50);
          expect(w.confidence).toBeLessThanOrEqual(100);
          expect(w.bbox.x1).toBeGreaterThan(w.bbox.x0);
          expect(w.bbox.y0).toBeGreaterThanOrEqual(line.bbox.y0);
          expect(w.bbox.y1).toBeLessThanOrEqual(line.bbox.y1);
        }
      });
      expect(r.confidence).toBeGreaterThan(80);
    }, T);

    (traits.binarises ? it : it.skip)('applies the pass\'s binarisation to that recognition only', async () => {
      const faint = await renderScan({ dpi: 150, fontPt: 10 });
      const shaded = await unevenlyLit(faint.png);
      expect(cer(await worker.recognize(shaded), faint)).toBeGreaterThan(0.15); // global Otsu loses the dark side
      expect(cer(await worker.recognize(shaded, { binarisation: SECOND_BINARISATION }), faint)).toBeLessThan(0.05);
      expect(cer(await worker.recognize(shaded), faint)).toBeGreaterThan(0.15);
    }, T);

    (traits.binarises ? it.skip : it)('reads an unevenly lit page whatever the pass\'s binarisation', async () => {
      const faint = await renderScan({ dpi: 150, fontPt: 10 });
      const shaded = await unevenlyLit(faint.png);
      expect(cer(await worker.recognize(shaded), faint)).toBeLessThan(0.05);
      expect(cer(await worker.recognize(shaded, { binarisation: SECOND_BINARISATION }), faint)).toBeLessThan(0.05);
    }, T);

    it('fails a recognition of an undecodable image alone: the same worker reads the next page', async () => {
      await expect(worker.recognize(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]))).rejects.toThrow();
      expect(cer(await worker.recognize(scan.png), scan)).toBeLessThan(0.05);
    }, T);

    it('on kill: the recognition in flight fails, onDeath fires once, later calls fail', async () => {
      const w = await factory({ languages: 'eng', psm: 3 });
      const deaths: Error[] = [];
      w.onDeath((e) => deaths.push(e));
      const job = w.recognize(scan.png);
      setTimeout(() => w.kill(), 50);
      await expect(job).rejects.toThrow();
      await new Promise((r) => setTimeout(r, 50));
      expect(deaths).toHaveLength(1);
      await expect(w.recognize(scan.png)).rejects.toThrow();
      const late: Error[] = [];
      w.onDeath((e) => late.push(e)); // a listener added after death is told at once
      expect(late).toHaveLength(1);
      w.kill();
      expect(deaths).toHaveLength(1);
    }, T);

    it('on terminate: onDeath fires and the worker takes no more work', async () => {
      const w = await factory({ languages: 'eng', psm: 3 });
      const deaths: Error[] = [];
      w.onDeath((e) => deaths.push(e));
      await w.terminate();
      await new Promise((r) => setTimeout(r, 50));
      expect(deaths).toHaveLength(1);
      await expect(w.recognize(scan.png)).rejects.toThrow();
    }, T);
  });
}
