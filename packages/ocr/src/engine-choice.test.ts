import { renderScan } from '../../../tests/fixtures/scans/generate.js';
import { renderReceiptPhoto } from '../../../tests/fixtures/scans/receipt-photo.js';
import { learnedReaderSpells, resolveEngines } from './index.js';
import type { TessResult } from './ocr-worker.js';
import { autoEngineFor, recognizePage, type RecognizeDeps } from './recognize-page.js';

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

  it('auto sends a photographed sheet to the learned reader and keeps a flat page on tesseract', () => {
    expect(autoEngineFor({ photo: true })).toBe('learned');
    expect(autoEngineFor({ photo: false })).toBe('tesseract');
  });
});

describe('auto, per page (recognizePage with two stub engines)', () => {
  const calls: string[] = [];
  const deps = (tesseractConfidence: number): RecognizeDeps => ({
    maxPixels: 1e9, engine: 'wasm',
    ocr: async (_img, pass) => { calls.push(`wasm${pass?.binarisation ? `:${pass.binarisation}` : ''}`); return reading(['tesseract', 'reading', 'here'], tesseractConfidence); },
    learned: { name: 'onnx', ocr: async () => { calls.push('onnx'); return reading(['learned', 'reading', 'here'], 97); } },
  });
  beforeEach(() => { calls.length = 0; });

  it('reads a photographed receipt with the learned reader only, and says so', async () => {
    const photo = await renderReceiptPhoto();
    const page = await recognizePage(deps(95), photo.png, { number: 1, widthPt: 648, heightPt: 540 });
    expect(calls.every((c) => c === 'onnx')).toBe(true);
    expect(page.ocr).toMatchObject({ engine: 'onnx', meanConfidence: 0.97 });
    expect(page.words.map((w) => w.text)).toEqual(['learned', 'reading', 'here']);
  }, 60_000);

  it('keeps a flat scan tesseract reads well on tesseract alone', async () => {
    const scan = await renderScan();
    const page = await recognizePage(deps(93), scan.png, { number: 1, widthPt: 295, heightPt: 418 });
    expect(calls).toEqual(['wasm']);
    expect(page.ocr).toMatchObject({ engine: 'wasm', meanConfidence: 0.93 });
  }, 60_000);

  it('reads a flat scan tesseract reads poorly with both, keeps the better reading of each line and names both engines', async () => {
    const scan = await renderScan();
    const page = await recognizePage(deps(72), scan.png, { number: 1, widthPt: 295, heightPt: 418 });
    expect(calls).toEqual(['wasm', 'onnx']); // no binarisation re-read: the learned reading replaces it
    expect(page.ocr?.engine).toBe('wasm+onnx');
    expect(page.words.map((w) => w.text)).toEqual(['learned', 'reading', 'here']);
  }, 60_000);

  it('without a learned reader, a poor tesseract reading is re-read with a local threshold as before', async () => {
    const scan = await renderScan();
    const { learned: _none, ...tesseractOnly } = deps(72);
    const page = await recognizePage(tesseractOnly, scan.png, { number: 1, widthPt: 295, heightPt: 418 });
    expect(calls).toEqual(['wasm', 'wasm:adaptive-otsu']);
    expect(page.ocr?.engine).toBe('wasm');
  }, 60_000);
});
