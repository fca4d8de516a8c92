import type { OcrEngine, RawPage, RawWord } from '@quire/core';
import { PDFDocument } from 'pdf-lib';
import { readPdf } from './index.js';
import { judgeTextLayer } from './quality.js';
import { makeScannedPdf } from '../../../../tests/fixtures/pdf/documents.js';
import { makeUnmappedTextPdf } from '../../../../tests/fixtures/pdf/damaged.js';

/** A stand-in OcrEngine: records its calls and returns two fixed words. */
function fakeOcr() {
  const calls: { image: Uint8Array; page: { number: number; widthPt: number; heightPt: number } }[] = [];
  const engine: OcrEngine = {
    async recognize(image, page): Promise<RawPage> {
      calls.push({ image, page });
      const w = (text: string, x0: number): RawWord => ({ text, box: { x0, y0: 0.1, x1: x0 + 0.1, y1: 0.12 }, fontSize: 11, confidence: 0.93 });
      return { number: page.number, width: page.widthPt, height: page.heightPt, words: [w('Scanned', 0.1), w('text', 0.25)], segments: [], rects: [], images: [], widgets: [], source: 'ocr', correctedRotation: 0 };
    },
  };
  return { engine, calls };
}

const pngSize = (png: Uint8Array) => {
  const v = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: v.getUint32(16), height: v.getUint32(20) };
};

describe('scanned pages', () => {
  test('a page without a text layer is rendered at 300 DPI and OCR\'d; the text page is not', async () => {
    const { engine, calls } = fakeOcr();
    const r = await readPdf(await makeScannedPdf(), { ocr: engine });
    expect(calls).toHaveLength(1);
    const { image, page } = calls[0];
    expect(Array.from(image.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(pngSize(image)).toEqual({ width: 2550, height: 3300 }); // Letter at 300 DPI
    expect(page).toEqual({ number: 2, widthPt: 612, heightPt: 792 });
    expect(r.pages[0].source).toBe('text-layer');
    expect(r.pages[0].words.map((w) => w.text)).toEqual(['Born', 'digital', 'page']);
    const scan = r.pages[1];
    expect(scan).toMatchObject({ number: 2, source: 'ocr', width: 612, height: 792, correctedRotation: 0 });
    expect(scan.words.map((w) => [w.text, w.confidence])).toEqual([['Scanned', 0.93], ['text', 0.93]]);
    expect(scan.images).toEqual([]); // the scan itself is not reported as a figure
    expect(r.warnings).toEqual([]);
  });

  test('OCR renders stay within maxPixels by lowering the resolution', async () => {
    const { engine, calls } = fakeOcr();
    await readPdf(await makeScannedPdf(), { ocr: engine, limits: { maxPixels: 2_000_000 } });
    const { width, height } = pngSize(calls[0].image);
    expect(width * height).toBeLessThanOrEqual(2_000_000);
    expect(width).toBeGreaterThan(1000);
  });

  test('without OCR the page comes back empty with a warning', async () => {
    const r = await readPdf(await makeScannedPdf());
    expect(r.pages[1]).toMatchObject({ number: 2, source: 'text-layer', words: [] });
    expect(r.pages[1].images).toHaveLength(1);
    expect(r.warnings).toEqual([expect.stringMatching(/Page 2 has no text layer and OCR is not configured/)]);
  });

  test('a blank page (nothing drawn) is not sent to OCR and needs no warning', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([612, 792]);
    const { engine, calls } = fakeOcr();
    const r = await readPdf(await doc.save(), { ocr: engine });
    expect(calls).toHaveLength(0);
    expect(r.pages[0]).toMatchObject({ source: 'text-layer', words: [] });
    expect(r.warnings).toEqual([]);
  });

  test('a text layer without Unicode (glyphs drawn, text unmapped) goes to OCR; without OCR its text is dropped', async () => {
    const bytes = await makeUnmappedTextPdf();
    const { engine, calls } = fakeOcr();
    const r = await readPdf(bytes, { ocr: engine });
    expect(calls).toHaveLength(1);
    expect(r.pages[0].source).toBe('ocr');
    expect(r.pages[0].words.map((w) => w.text)).toEqual(['Scanned', 'text']);
    const plain = await readPdf(bytes);
    expect(plain.pages[0].words).toEqual([]);
    expect(plain.warnings).toEqual([expect.stringMatching(/no usable Unicode mapping/)]);
  });

  test('an OCR failure fails that page only (PROC_005)', async () => {
    const engine: OcrEngine = { recognize: async () => { throw new Error('engine crashed'); } };
    const r = await readPdf(await makeScannedPdf(), { ocr: engine });
    expect(r.pages[0].words.length).toBe(3);
    expect(r.pages[1].error).toEqual({ code: 'PROC_005', message: expect.stringMatching(/engine crashed/) });
  });
});

describe('judgeTextLayer', () => {
  const w = (text: string): RawWord => ({ text, box: { x0: 0, y0: 0, x1: 0.1, y1: 0.1 }, fontSize: 10, confidence: 1 });
  const fullPageScan = [{ kind: 'raster' as const, box: { x0: 0, y0: 0, x1: 1, y1: 1 } }];

  test('clean text is usable; none, or mostly unmapped glyphs, is not', () => {
    expect(judgeTextLayer([w('Hello'), w('world')], [])).toEqual({ usable: true });
    expect(judgeTextLayer([], fullPageScan)).toEqual({ usable: false, reason: 'no-text' });
    expect(judgeTextLayer([], [{ kind: 'vector', pathCount: 300, box: { x0: 0.1, y0: 0.1, x1: 0.9, y1: 0.5 } }])).toEqual({ usable: false, reason: 'no-text' });
    // nothing drawn that could carry text (blank page, fields only): nothing to OCR
    expect(judgeTextLayer([], [])).toEqual({ usable: true, blank: true });
    expect(judgeTextLayer([w('\uE001\uE002\uE003'), w('\uFFFD\uFFFDa')], [])).toEqual({ usable: false, reason: 'garbage' });
    expect(judgeTextLayer([w('\u0001\u0002\u0003\u0004'), w('ab')], [])).toEqual({ usable: false, reason: 'garbage' });
    // a few odd glyphs in real text do not condemn the page
    expect(judgeTextLayer([w('Price'), w('\uE000'), w('list')], [])).toEqual({ usable: true });
  });

  test('a full-page scan carrying only a stamped number is OCR\'d; a real text layer over a scan is kept', () => {
    expect(judgeTextLayer([w('0042')], fullPageScan)).toEqual({ usable: false, reason: 'scan-with-stray-text' });
    expect(judgeTextLayer([w('Invisible'), w('OCR'), w('layer'), w('text')], fullPageScan)).toEqual({ usable: true });
  });
});
