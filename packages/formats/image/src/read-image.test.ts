import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { OcrEngine, RawPage } from '@quire/core';
import { createOcrPool, type OcrPool } from '@quire/ocr';
import { characterErrorRate, makeTiff, renderScan, type Scan } from '../../../../tests/fixtures/scans/generate.js';
import { readImage } from './read-image.js';

const T = 120_000;

/** An OCR engine that records what it was asked and returns one word naming the page. */
function fakeOcr(fail?: (n: number) => Error | undefined): OcrEngine & { calls: { number: number; widthPt: number; heightPt: number; size: number }[] } {
  const calls: { number: number; widthPt: number; heightPt: number; size: number }[] = [];
  return {
    calls,
    async recognize(image, page) {
      const m = await sharp(image).metadata();
      calls.push({ ...page, size: m.width! * m.height! });
      const err = fail?.(page.number);
      if (err) throw err;
      return {
        number: page.number, width: page.widthPt, height: page.heightPt, source: 'ocr', segments: [], rects: [], images: [], widgets: [],
        words: [{ text: `page${page.number}`, box: { x0: 0.1, y0: 0.1, x1: 0.2, y1: 0.12 }, fontSize: 11, confidence: 0.9 }],
      } satisfies RawPage;
    },
  };
}

const blankPng = (w: number, h: number, density?: number) => {
  const s = sharp({ create: { width: w, height: h, channels: 3, background: 'white' } });
  return (density ? s.withMetadata({ density }) : s).png().toBuffer();
};

describe('readImage (fake OCR)', () => {
  it('reads a PNG as one page sized from its density and OCRs it', async () => {
    const ocr = fakeOcr();
    const r = await readImage(await blankPng(600, 300, 200), { ocr });
    expect(r).toMatchObject({ format: 'png', pageCount: 1, warnings: [] });
    expect(r.pages[0]).toMatchObject({ number: 1, width: 216, height: 108, source: 'ocr' });
    expect(r.pages[0].words[0].text).toBe('page1');
    expect(ocr.calls).toEqual([{ number: 1, widthPt: 216, heightPt: 108, size: 180_000 }]);
  });

  it('sizes a JPEG by its EXIF orientation (as displayed)', async () => {
    const jpeg = await sharp({ create: { width: 400, height: 200, channels: 3, background: 'white' } }).withMetadata({ orientation: 6, density: 100 }).jpeg().toBuffer();
    const r = await readImage(jpeg, { ocr: fakeOcr() });
    expect(r.format).toBe('jpeg');
    expect(r.pages[0].width).toBeCloseTo(144, 6);
    expect(r.pages[0].height).toBeCloseTo(288, 6);
  });

  it('returns empty pages and a warning without an OCR engine', async () => {
    const r = await readImage(await blankPng(100, 100));
    expect(r.pages).toHaveLength(1);
    expect(r.pages[0].words).toEqual([]);
    expect(r.warnings.join(' ')).toMatch(/No OCR engine/);
  });

  it('refuses a corrupted image with FILE_003', async () => {
    const png = await sharp({ create: { width: 500, height: 500, channels: 3, background: 'red' } }).png().toBuffer();
    await expect(readImage(png.subarray(0, 300))).rejects.toMatchObject({ code: 'FILE_003' });
    await expect(readImage(png.subarray(0, 300), { ocr: fakeOcr(() => Object.assign(new Error('bad'), { name: 'QuireError', code: 'FILE_003' })) })).rejects.toMatchObject({ code: 'FILE_003' });
    const junk = Buffer.concat([png.subarray(0, 8), Buffer.alloc(64, 7)]);
    await expect(readImage(junk)).rejects.toMatchObject({ code: 'FILE_003' });
  });

  it('refuses an image over the pixel limit before decoding or OCR (REQ_003)', async () => {
    const ocr = fakeOcr();
    await expect(readImage(await blankPng(2000, 1000), { ocr, limits: { maxPixels: 1_000_000 } })).rejects.toMatchObject({ code: 'REQ_003' });
    expect(ocr.calls).toEqual([]);
  });

  it('rejects something that is not an image', async () => {
    await expect(readImage(Buffer.from('%PDF-1.7 hello'))).rejects.toMatchObject({ code: 'FILE_001' });
  });

  describe('multi-page TIFF', () => {
    let tiff: Buffer;
    beforeAll(async () => {
      tiff = await makeTiff(await Promise.all([1, 2, 3].map(() => blankPng(300, 400))), 150);
    });

    it('reads every page, in order, with onPage progress', async () => {
      const progress: [number, number][] = [];
      const r = await readImage(tiff, { ocr: fakeOcr(), onPage: (d, t) => { progress.push([d, t]); } });
      expect(r).toMatchObject({ format: 'tiff', pageCount: 3 });
      expect(r.pages.map((p) => [p.number, p.words[0].text, p.width, p.height])).toEqual([[1, 'page1', 144, 192], [2, 'page2', 144, 192], [3, 'page3', 144, 192]]);
      expect(progress).toEqual([[1, 3], [2, 3], [3, 3]]);
    });

    it('honours pages with the original numbers, and rejects pages outside the file', async () => {
      const ocr = fakeOcr();
      const r = await readImage(tiff, { ocr, pages: [3, 1] });
      expect(r.pages.map((p) => p.number)).toEqual([1, 3]);
      expect(ocr.calls.map((c) => c.number).sort()).toEqual([1, 3]);
      await expect(readImage(tiff, { pages: [4] })).rejects.toMatchObject({ code: 'REQ_006' });
    });

    it('reports a failing page and keeps the others', async () => {
      const r = await readImage(tiff, { ocr: fakeOcr((n) => (n === 2 ? new Error('worker exploded') : undefined)) });
      expect(r.pages.map((p) => p.error?.code ?? 'ok')).toEqual(['ok', 'PROC_001', 'ok']);
      expect(r.warnings.join(' ')).toMatch(/Page 2: worker exploded/);
    });

    it('stops when onPage throws (cancellation)', async () => {
      const ocr = fakeOcr();
      await expect(readImage(tiff, { ocr, onPage: () => { throw new Error('canceled'); } })).rejects.toThrow('canceled');
    });
  });
});

describe('readImage with real OCR', () => {
  let pool: OcrPool;
  beforeAll(async () => { pool = await createOcrPool({ size: 2 }); }, T);
  afterAll(() => pool.close());

  it('OCRs the selected pages of a multi-page TIFF scan', async () => {
    const texts = [['First page talks about apples'], ['Second page is about bananas'], ['Third page covers cherries']];
    const scans: Scan[] = await Promise.all(texts.map((lines) => renderScan({ lines, heightIn: 2 })));
    const tiff = await makeTiff(scans.map((s) => s.png), 300);
    const r = await readImage(tiff, { ocr: pool, pages: [1, 3] });
    expect(r.pageCount).toBe(3);
    expect(r.pages.map((p) => p.number)).toEqual([1, 3]);
    expect(r.pages[0].width).toBeCloseTo(4.1 * 72, 0);
    expect(r.pages[0].height).toBeCloseTo(2 * 72, 0);
    r.pages.forEach((p) => {
      const expected = texts[p.number - 1].join(' ');
      expect(characterErrorRate(p.words.map((w) => w.text).join(' '), expected)).toBeLessThan(0.05);
      expect(p.source).toBe('ocr');
    });
  }, T);

  describe('image encodings a scanner or phone produces', () => {
    const lines = ['Quarterly report for the northern region', 'Revenue grew by 12 percent to 4,380 units'];
    const expected = lines.join(' ');
    let grey: Buffer;
    // 150 DPI keeps the page under the analysis size, so a 1-bit image reaches it with two grey levels
    beforeAll(async () => { grey = (await renderScan({ lines, dpi: 150, widthIn: 4.5, heightIn: 2, fontPt: 12 })).png; });
    const bilevel = (png: Buffer | Promise<Buffer>) => Promise.resolve(png).then((b) => sharp(b).threshold(128).toColourspace('b-w'));
    const encodings: [string, () => Promise<Buffer>][] = [
      ['1-bit palette PNG', async () => (await bilevel(grey)).png({ palette: true, colours: 2 }).toBuffer()],
      ['1-bit palette PNG turned 90°', async () => (await bilevel(sharp(grey).rotate(90).png().toBuffer())).png({ palette: true, colours: 2 }).toBuffer()],
      ['1-bit CCITT G4 TIFF', async () => (await bilevel(grey)).tiff({ bitdepth: 1, compression: 'ccittfax4', xres: 150 / 25.4, yres: 150 / 25.4 }).toBuffer()],
      ['1-bit TIFF turned 270°', async () => (await bilevel(sharp(grey).rotate(270).png().toBuffer())).tiff({ bitdepth: 1, compression: 'ccittfax4' }).toBuffer()],
      ['16-bit grey PNG', () => sharp(grey).toColourspace('grey16').png().toBuffer()],
      ['CMYK JPEG', () => sharp(grey).toColourspace('cmyk').jpeg({ quality: 95 }).toBuffer()],
      ['PNG with an alpha channel', () => sharp(grey).ensureAlpha(0.9).png().toBuffer()],
      ['JPEG stored sideways with an EXIF orientation', () => sharp(grey).rotate(270).jpeg({ quality: 95 }).withMetadata({ orientation: 6 }).toBuffer()],
    ];
    it.each(encodings)('reads a %s', async (_name, make) => {
      const r = await readImage(await make(), { ocr: pool });
      const text = r.pages[0].words.map((w) => w.text).join(' ');
      expect(characterErrorRate(text, expected)).toBeLessThan(0.1);
      expect(r.warnings).toEqual([]);
    }, T);

    it('says a blank page is blank instead of returning nothing silently', async () => {
      const r = await readImage(await blankPng(600, 300, 150), { ocr: pool });
      expect(r.pages[0].words).toEqual([]);
      expect(r.pages[0].ocrEmpty).toBe('blank');
      expect(r.warnings).toEqual(['Page 1: the page is blank (no ink found, and OCR read no text)']);
    }, T);
  });

  const corpus = path.resolve(process.cwd(), '../shared/corpus/scanned');
  (fs.existsSync(path.join(corpus, 'eurotext.tif')) ? it : it.skip)('reads the corpus bilevel TIFF close to its transcription', async () => {
    const r = await readImage(fs.readFileSync(path.join(corpus, 'eurotext.tif')), { ocr: pool });
    expect(r).toMatchObject({ format: 'tiff', pageCount: 1 });
    // 1024×800 at a recorded 300 DPI
    expect(r.pages[0].width).toBeCloseTo(245.76, 1);
    const cer = characterErrorRate(r.pages[0].words.map((w) => w.text).join(' '), fs.readFileSync(path.join(corpus, 'eurotext.expected.txt'), 'utf8'));
    console.log(`eurotext.tif via readImage: CER ${(cer * 100).toFixed(2)} %`);
    expect(cer).toBeLessThan(0.05);
  }, T);
});
