import sharp from 'sharp';
import { renderScan } from '../../../tests/fixtures/scans/generate.js';
import { renderReceiptPhoto } from '../../../tests/fixtures/scans/receipt-photo.js';
import { CRISP_EDGE_SHARE, FLAT_PAPER_SPREAD, looksLikeFlatScan, pageEvidence, TESSERACT_KEEPS_FROM } from './engine-choice.js';
import { createOcrPool, learnedReaderSpells, resolveEngines } from './index.js';
import { decodeGrey } from './preprocess.js';
import type { OcrWorker, OcrWorkerFactory, TessResult } from './ocr-worker.js';
import { recognizePage, type RecognizeDeps } from './recognize-page.js';

/** A reading of one line of words at one confidence, wherever the page is: what a stub engine answers. */
const reading = (words: string[], confidence: number): TessResult => ({
  text: words.join(' '), confidence,
  blocks: [{ paragraphs: [{ lines: [{ bbox: { x0: 10, y0: 10, x1: 400, y1: 50 }, rowAttributes: { rowHeight: 40 },
    words: words.map((text, i) => ({ text, confidence, bbox: { x0: 10 + i * 100, y0: 10, x1: 90 + i * 100, y1: 50 } })) }] }] }],
});

describe('QUIRE_OCR_ENGINE: which engines a setting comes to', () => {
  it('reads languages PP-OCR cannot spell (accented Latin letters) with tesseract whatever the setting', () => {
    expect(learnedReaderSpells('eng')).toBe(true);
    expect(learnedReaderSpells('chi_sim+eng')).toBe(true);
    for (const l of ['deu', 'fra', 'eng+deu', 'nor', 'spa']) expect(learnedReaderSpells(l)).toBe(false);
    expect(resolveEngines('onnx', 'eng')).toEqual({ primary: 'onnx' });
    expect(resolveEngines('onnx', 'deu')).toEqual({ primary: 'wasm' });
    expect(resolveEngines('auto', 'eng')).toEqual({ primary: 'wasm', learned: 'onnx' });
    expect(resolveEngines('auto', 'eng+fra')).toEqual({ primary: 'wasm' });
    expect(resolveEngines('wasm', 'eng')).toEqual({ primary: 'wasm' });
    expect(resolveEngines('native', 'deu')).toEqual({ primary: 'native' });
  });

});

/** A page of 11 pt text at 300 DPI lit the way a photo is: light falling off by a third towards one corner. */
async function unevenlyLit(png: Buffer): Promise<Buffer> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) data[y * info.width + x] = Math.round(data[y * info.width + x] * (1 - 0.35 * (x / info.width) * (y / info.height)));
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } }).png().toBuffer();
}

describe('auto: the evidence a page is read by tesseract first on (engine-choice.ts)', () => {
  const evidence = async (png: Buffer, rowPx: number | null = 44) => pageEvidence(await decodeGrey(png, 1e9), false, rowPx);

  it('calls a crisp, evenly lit scan of 11 pt print flat, and a JPEG of it too', async () => {
    const { png } = await renderScan();
    const e = await evidence(png);
    expect(e.paperSpread).toBeLessThanOrEqual(FLAT_PAPER_SPREAD);
    expect(e.edgeShare).toBeLessThanOrEqual(CRISP_EDGE_SHARE);
    expect(looksLikeFlatScan(e)).toBe(true);
    expect(looksLikeFlatScan(await evidence(await sharp(png).jpeg({ quality: 70 }).toBuffer()))).toBe(true);
  }, 60_000);

  it('does not call the same page flat when it is unevenly lit, blurred, small print, or a sheet on a desk', async () => {
    const { png } = await renderScan();
    const lit = await evidence(await unevenlyLit(png));
    expect(lit.paperSpread).toBeGreaterThan(FLAT_PAPER_SPREAD);
    expect(looksLikeFlatScan(lit)).toBe(false);
    const blurred = await evidence(await sharp(png).blur(2.5).png().toBuffer());
    expect(blurred.edgeShare).toBeGreaterThan(CRISP_EDGE_SHARE);
    expect(looksLikeFlatScan(blurred)).toBe(false);
    // rows under 38 px are enlarged for tesseract, which then reads worse than PP-OCR; no rows found: unknown
    expect(looksLikeFlatScan(await evidence(png, 24))).toBe(false);
    expect(looksLikeFlatScan(await evidence(png, null))).toBe(false);
    expect(looksLikeFlatScan({ ...(await evidence(png)), sheetOnSurface: true })).toBe(false);
  }, 60_000);
});

describe('auto, per page (recognizePage with two stub engines)', () => {
  const calls: string[] = [];
  const deps = (learnedConfidence: number, tesseractConfidence = 80): RecognizeDeps => ({
    maxPixels: 1e9, engine: 'wasm',
    ocr: async (_img, pass) => { calls.push(`wasm${pass?.binarisation ? `:${pass.binarisation}` : ''}`); return reading(['tesseract', 'reading', 'here'], tesseractConfidence); },
    learned: { name: 'onnx', ocr: async () => { calls.push('onnx'); return reading(['learned', 'reading', 'here'], learnedConfidence); } },
  });
  beforeEach(() => { calls.length = 0; });

  it('reads a photographed sheet with the learned reader alone when it reads it well, and says so', async () => {
    const page = await recognizePage(deps(96), (await renderReceiptPhoto()).png, { number: 1, widthPt: 648, heightPt: 540 });
    expect(calls).toEqual(['onnx']);
    expect(page.ocr).toMatchObject({ engine: 'onnx', meanConfidence: 0.96 });
    expect(page.words.map((w) => w.text)).toEqual(['learned', 'reading', 'here']);
  }, 60_000);

  it('reads a flat scan with tesseract alone when tesseract is sure of it', async () => {
    const page = await recognizePage(deps(96, TESSERACT_KEEPS_FROM + 2), (await renderScan()).png, { number: 1, widthPt: 295, heightPt: 418 });
    expect(calls).toEqual(['wasm']);
    expect(page.ocr).toMatchObject({ engine: 'wasm' });
    expect(page.words.map((w) => w.text)).toEqual(['tesseract', 'reading', 'here']);
  }, 60_000);

  it('reads a flat scan tesseract is unsure of with the learned reader, which keeps it', async () => {
    const page = await recognizePage(deps(96, TESSERACT_KEEPS_FROM - 5), (await renderScan()).png, { number: 1, widthPt: 295, heightPt: 418 });
    expect(calls).toEqual(['wasm', 'onnx']);
    expect(page.ocr?.engine).toBe('onnx');
    expect(page.words.map((w) => w.text)).toEqual(['learned', 'reading', 'here']);
  }, 60_000);

  it('reads an unevenly lit page with the learned reader first, however sure tesseract would be', async () => {
    const page = await recognizePage(deps(96, 99), await unevenlyLit((await renderScan()).png), { number: 1, widthPt: 295, heightPt: 418 });
    expect(calls).toEqual(['onnx']);
    expect(page.ocr?.engine).toBe('onnx');
  }, 60_000);

  it('reads a page the learned reader reads poorly with tesseract too, keeps the better reading of each line and names both', async () => {
    const page = await recognizePage(deps(75), (await renderReceiptPhoto()).png, { number: 1, widthPt: 648, heightPt: 540 });
    expect(calls[0]).toBe('onnx'); // read first by the learned reader (its orientation search may probe more)
    expect(calls.filter((c) => c.startsWith('wasm'))).toEqual(['wasm']); // one tesseract reading, no binarisation re-read
    expect(page.ocr?.engine).toBe('onnx+wasm');
    // the stub's tesseract line (80) beats the learned one (75)
    expect(page.words.map((w) => w.text)).toEqual(['tesseract', 'reading', 'here']);
  }, 60_000);

  it('without a learned reader, a poor tesseract reading is re-read with a local threshold as before', async () => {
    const scan = await renderScan();
    const { learned: _none, ...tesseractOnly } = deps(0);
    const poor: RecognizeDeps = { ...tesseractOnly, ocr: async (_img, pass) => { calls.push(`wasm${pass?.binarisation ? `:${pass.binarisation}` : ''}`); return reading(['tesseract', 'reading', 'here'], 72); } };
    const page = await recognizePage(poor, scan.png, { number: 1, widthPt: 295, heightPt: 418 });
    expect(calls).toEqual(['wasm', 'wasm:adaptive-otsu']);
    expect(page.ocr?.engine).toBe('wasm');
  }, 60_000);
});

describe('auto: the learned reader starts with the first page that goes to it', () => {
  it('starts no learned worker for flat scans tesseract is sure of, and one for a photo', async () => {
    // every worker, of either engine, answers a sure reading: the flat scan stays with tesseract, the photo goes to the learned reader
    let started = 0;
    const factory: OcrWorkerFactory = async () => {
      started++;
      const w: OcrWorker = { id: `stub-${started}`, recognize: async () => reading(['sure', 'reading'], TESSERACT_KEEPS_FROM + 5), terminate: async () => {}, kill: () => {}, onDeath: () => {} };
      return w;
    };
    const pool = await createOcrPool({ engine: 'auto', size: 1, workerFactory: factory });
    try {
      expect(started).toBe(1); // tesseract's worker only
      const scan = await renderScan();
      const flat = await pool.recognize(scan.png, { number: 1, widthPt: 295, heightPt: 418 });
      expect(flat.ocr?.engine).toBe('wasm');
      expect(started).toBe(1);
      const photo = await pool.recognize((await renderReceiptPhoto()).png, { number: 1, widthPt: 648, heightPt: 540 });
      expect(photo.ocr?.engine).toBe('onnx');
      expect(started).toBe(2);
    } finally {
      await pool.close();
    }
  }, 60_000);
});
