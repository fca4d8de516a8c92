import sharp from 'sharp';
import { characterErrorRate, renderScan, type Scan } from '../../../tests/fixtures/scans/generate.js';
import { recognizePage } from './recognize-page.js';
import { SECOND_BINARISATION, type OcrPass, type OcrWorker, type TessResult } from './ocr-worker.js';
import { createTesseractWorker } from './tesseract-worker.js';

const T = 120_000;

/** A page photographed under uneven light: the paper darkens from white (left) to dark grey (right). */
async function unevenlyLit(scan: Scan): Promise<Buffer> {
  const { data, info } = await sharp(scan.png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const out = Buffer.alloc(data.length);
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) out[y * info.width + x] = Math.round(data[y * info.width + x] * (1 - 0.75 * (x / info.width)));
  }
  return sharp(out, { raw: { width: info.width, height: info.height, channels: 1 } }).png().toBuffer();
}

const cer = (r: TessResult, scan: Scan) => characterErrorRate(r.text.replace(/\s+/g, ' '), scan.lines.join(' '));

describe('binarisation per reading', () => {
  let worker: OcrWorker;
  let scan: Scan;
  let shaded: Buffer;
  beforeAll(async () => {
    worker = await createTesseractWorker({ languages: 'eng', psm: 3 });
    scan = await renderScan({ dpi: 150, fontPt: 10 });
    shaded = await unevenlyLit(scan);
  }, T);
  afterAll(() => worker?.terminate());

  it('reads an unevenly lit page with a local threshold, where the default global one loses the dark side', async () => {
    expect(cer(await worker.recognize(shaded), scan)).toBeGreaterThan(0.15);
    expect(cer(await worker.recognize(shaded, { binarisation: SECOND_BINARISATION }), scan)).toBeLessThan(0.05);
    expect(cer(await worker.recognize(shaded, { binarisation: 'sauvola' }), scan)).toBeLessThan(0.05);
    // a job's setting does not stick to the worker
    expect(cer(await worker.recognize(shaded), scan)).toBeGreaterThan(0.15);
    expect(cer(await worker.recognize(scan.png), scan)).toBeLessThan(0.05);
  }, T);
});

describe('second reading of a page that reads poorly', () => {
  /** A reading with one line of words at a confidence, on the scan's first line. */
  const reading = (words: string[], confidence: number): TessResult => {
    let x = 120;
    const ws = words.map((text) => { const w = { text, confidence, bbox: { x0: x, y0: 120, x1: x + 30 * text.length, y1: 165 } }; x = w.bbox.x1 + 20; return w; });
    return { blocks: [{ paragraphs: [{ lines: [{ bbox: { x0: 120, y0: 120, x1: x, y1: 165 }, words: ws }] }] }], confidence, text: words.join(' ') };
  };

  async function run(firstConfidence: number) {
    const scan = await renderScan();
    const passes: (OcrPass | undefined)[] = [];
    const ocr = async (_image: Uint8Array, pass?: OcrPass) => {
      passes.push(pass);
      return pass?.binarisation === SECOND_BINARISATION ? reading(['Quarterly', 'report', 'for'], 88) : reading(['Quar', 'rep0rt'], firstConfidence);
    };
    const page = await recognizePage({ ocr, maxPixels: 1e9 }, scan.png, { number: 1, widthPt: (scan.width / 300) * 72, heightPt: (scan.height / 300) * 72 });
    return { passes, words: page.words.map((w) => w.text) };
  }

  it('reads again with the other local threshold and keeps the better reading of each line', async () => {
    const { passes, words } = await run(40);
    expect(passes.filter((p) => p?.binarisation === SECOND_BINARISATION)).toHaveLength(1);
    expect(words).toEqual(['Quarterly', 'report', 'for']);
  }, T);

  it('reads a confident page once', async () => {
    const { passes, words } = await run(93);
    expect(passes.some((p) => p?.binarisation === SECOND_BINARISATION)).toBe(false);
    expect(words).toEqual(['Quar', 'rep0rt']);
  }, T);
});
