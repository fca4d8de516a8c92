import { renderScan } from '../../../tests/fixtures/scans/generate.js';
import { renderReceiptPhoto } from '../../../tests/fixtures/scans/receipt-photo.js';
import { learnedReaderSpells, resolveEngines } from './index.js';
import type { TessResult } from './ocr-worker.js';
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

describe('auto, per page (recognizePage with two stub engines)', () => {
  const calls: string[] = [];
  const deps = (learnedConfidence: number): RecognizeDeps => ({
    maxPixels: 1e9, engine: 'wasm',
    ocr: async (_img, pass) => { calls.push(`wasm${pass?.binarisation ? `:${pass.binarisation}` : ''}`); return reading(['tesseract', 'reading', 'here'], 80); },
    learned: { name: 'onnx', ocr: async () => { calls.push('onnx'); return reading(['learned', 'reading', 'here'], learnedConfidence); } },
  });
  beforeEach(() => { calls.length = 0; });

  it('reads a page with the learned reader alone when it reads it well, and says so', async () => {
    for (const png of [(await renderReceiptPhoto()).png, (await renderScan()).png]) {
      calls.length = 0;
      const page = await recognizePage(deps(96), png, { number: 1, widthPt: 648, heightPt: 540 });
      expect(calls).toEqual(['onnx']);
      expect(page.ocr).toMatchObject({ engine: 'onnx', meanConfidence: 0.96 });
      expect(page.words.map((w) => w.text)).toEqual(['learned', 'reading', 'here']);
    }
  }, 60_000);

  it('reads a page the learned reader reads poorly with tesseract too, keeps the better reading of each line and names both', async () => {
    const scan = await renderScan();
    const page = await recognizePage(deps(75), scan.png, { number: 1, widthPt: 295, heightPt: 418 });
    expect(calls.filter((c) => c === 'wasm')).toEqual(['wasm']); // one tesseract reading, no binarisation re-read
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
