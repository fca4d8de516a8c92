import sharp from 'sharp';
import { emptyPageWarning } from '@quire/core';
import { renderScan } from '../../../tests/fixtures/scans/generate.js';
import type { TessResult } from './ocr-worker.js';
import { candidateAngles, chooseScale, recognizePage, type RecognizeDeps } from './recognize-page.js';

const page = { number: 1, widthPt: 612, heightPt: 792 };

describe('scale and orientation choices', () => {
  it('upscales text smaller than 300 DPI print towards ~50 px rows, capped at 4×', () => {
    expect(chooseScale(20, 1000, 1300, page, 1e9)).toBeCloseTo(2.5, 5);
    expect(chooseScale(35, 1000, 1300, page, 1e9)).toBeCloseTo(50 / 35, 5);
    expect(chooseScale(5, 1000, 1300, page, 1e9)).toBe(4);
    // 10 pt at 300 DPI (rows of ~40 px) already reads well: left alone
    expect(chooseScale(40, 2550, 3300, page, 1e9)).toBe(1);
    expect(chooseScale(44, 2550, 3300, page, 1e9)).toBe(1);
  });
  it('falls back to the nominal DPI when no line height was measured', () => {
    expect(chooseScale(null, 850, 1100, page, 1e9)).toBeCloseTo(3, 5); // 100 DPI → 300
    expect(chooseScale(null, 2550, 3300, page, 1e9)).toBe(1);
  });
  it('never scales past the pixel limit', () => {
    const s = chooseScale(10, 1000, 1000, page, 2_000_000);
    expect(1000 * s * 1000 * s).toBeLessThanOrEqual(2_000_000 + 1);
  });
  it('tries the line direction made horizontal first, then its flip', () => {
    expect(candidateAngles({ blank: false, lineAngle: 0.1, axisMargin: 5, lineHeight: 20, inkCentre: [0.5, 0.5] as [number, number] })).toEqual([0, 180]);
    expect(candidateAngles({ blank: false, lineAngle: 3, axisMargin: 5, lineHeight: 20, inkCentre: [0.5, 0.5] as [number, number] })).toEqual([-3, 177]);
    expect(candidateAngles({ blank: false, lineAngle: 90, axisMargin: 5, lineHeight: 20, inkCentre: [0.5, 0.5] as [number, number] })).toEqual([270, 90]);
    expect(candidateAngles({ blank: false, lineAngle: 0, axisMargin: 1.1, lineHeight: 20, inkCentre: [0.5, 0.5] as [number, number] })).toEqual([0, 180, 90, -90]);
  });
});

describe('recognizePage: why a page came back empty', () => {
  const white = () => sharp({ create: { width: 600, height: 800, channels: 3, background: 'white' } }).png().toBuffer();
  const emptyResult: TessResult = { text: '', confidence: 0, blocks: [] };

  it('reads a page the analysis finds no ink on once before calling it blank', async () => {
    const passes: number[] = [];
    const deps: RecognizeDeps = { maxPixels: 1e9, ocr: async (img) => { passes.push(img.length); return emptyResult; } };
    const page = await recognizePage(deps, await white(), { number: 3, widthPt: 288, heightPt: 384 });
    expect(passes).toHaveLength(1);
    expect(page.words).toEqual([]);
    expect(page.ocrEmpty).toBe('blank');
    expect(emptyPageWarning(page)).toMatch(/^Page 3: the page is blank/);
  });

  it('says a page with ink that OCR read nothing on was not read (not that it is blank)', async () => {
    const { png } = await renderScan({ dpi: 150, widthIn: 4, heightIn: 5, fontPt: 12 });
    const deps: RecognizeDeps = { maxPixels: 1e9, ocr: async () => emptyResult };
    const page = await recognizePage(deps, png, { number: 1, widthPt: 288, heightPt: 360 });
    expect(page.ocrEmpty).toBe('unread');
    expect(emptyPageWarning(page)).toMatch(/shows ink but OCR read no text/);
  });
});

describe('recognizePage: the page as sent is always tried when a turned reading reads badly', () => {
  // A portrait page of vertical bars: the line analysis takes the bars for text lines running down the
  // page, with a clear margin, so only the two sideways turns are candidates.
  const bars = async () => {
    const composite = Array.from({ length: 12 }, (_, i) => ({ input: { create: { width: 12, height: 700, channels: 3 as const, background: 'black' } }, left: 40 + i * 45, top: 50 }));
    return sharp({ create: { width: 600, height: 800, channels: 3, background: 'white' } }).composite(composite).png().toBuffer();
  };
  const sizeOf = (pgm: Uint8Array) => {
    const [w, h] = Buffer.from(pgm.subarray(0, 32)).toString('latin1').split('\n')[1].split(' ').map(Number);
    return { w, h };
  };
  const result = (text: string, confidence: number): TessResult => ({
    text, confidence,
    blocks: [{ paragraphs: [{ lines: [{ bbox: { x0: 10, y0: 10, x1: 400, y1: 50 }, words: text.split(' ').map((t, i) => ({ text: t, confidence, bbox: { x0: 10 + i * 90, y0: 10, x1: 90 + i * 90, y1: 50 } })) }] }] }],
  } as unknown as TessResult);

  it('keeps the upright reading when it reads better than the turned guess', async () => {
    const read: string[] = [];
    // upright (portrait) images read well, turned (landscape) ones read as junk
    const deps: RecognizeDeps = {
      maxPixels: 1e9,
      ocr: async (img) => {
        const { w, h } = sizeOf(img);
        read.push(w < h ? 'portrait' : 'landscape');
        return w < h ? result('Invoice number 4411 dated March', 60) : result('il Il', 40);
      },
    };
    const p = await recognizePage(deps, await bars(), page);
    expect(read[0]).toBe('landscape'); // the analysis's guess came first
    expect(p.correctedRotation).toBe(0);
    expect(p.words.map((w) => w.text).join(' ')).toBe('Invoice number 4411 dated March');
  });

  it('keeps the turned reading when the page as sent reads worse', async () => {
    const deps: RecognizeDeps = {
      maxPixels: 1e9,
      ocr: async (img) => {
        const { w, h } = sizeOf(img);
        return w < h ? result('il Il', 40) : result('Invoice number 4411 dated March', 60);
      },
    };
    const p = await recognizePage(deps, await bars(), page);
    expect([90, 270]).toContain(p.correctedRotation);
  });
});
