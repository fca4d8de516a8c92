import { iou, QuireError, type RawPage, type RawWord } from '@quire/core';
import { characterErrorRate, renderScan, rotateScan, skewScan, type Scan } from '../../../tests/fixtures/scans/generate.js';
import { createOcrPool, type OcrPool } from './index.js';
import { createTesseractWorker, type OcrWorker } from './tesseract-worker.js';
import { rotateBoxQuarter, type ImageTransform, toPage } from './transform.js';

// OCR takes about a second per small page on a shared 2-core machine: one pool, small pages.
const T = 120_000;

const text = (p: RawPage) => p.words.map((w) => w.text).join(' ');
const centre = (w: RawWord) => [(w.box.x0 + w.box.x1) / 2, (w.box.y0 + w.box.y1) / 2];

describe('OCR pool on generated scans', () => {
  let pool: OcrPool;
  let scan: Scan;
  let upright: RawPage;
  const page = (s: Scan, turned = false) => {
    const w = (s.width / s.dpi) * 72, h = (s.height / s.dpi) * 72;
    return turned ? { number: 1, widthPt: h, heightPt: w } : { number: 1, widthPt: w, heightPt: h };
  };

  beforeAll(async () => {
    pool = await createOcrPool({ size: 2 });
    scan = await renderScan();
    upright = await pool.recognize(scan.png, page(scan));
  }, T);
  afterAll(() => pool.close());

  // Clean 11 pt text rendered at 300 DPI reads with ~0 % CER; 5 % leaves room for a few glyph
  // confusions across tesseract builds while still failing on any real orientation/scale mistake.
  it('reads an upright scan with words, boxes, confidences and font sizes', () => {
    expect(upright.source).toBe('ocr');
    expect(upright.correctedRotation).toBe(0);
    expect(characterErrorRate(text(upright), scan.lines.join(' '))).toBeLessThan(0.05);
    const first = upright.words[0];
    expect(first.text).toBe('Quarterly');
    expect(first.confidence).toBeGreaterThan(0.8);
    expect(first.confidence).toBeLessThanOrEqual(1);
    expect(first.fontSize).toBeGreaterThan(9.5);
    expect(first.fontSize).toBeLessThan(12.5);
    // the first word sits on the first rendered line, at the left margin
    expect(first.box.y0).toBeGreaterThan(scan.lineBands[0].y0 - 0.01);
    expect(first.box.y1).toBeLessThan(scan.lineBands[0].y1 + 0.01);
    expect(first.box.x0).toBeCloseTo(0.4 / 4.1, 1);
    expect(upright.words.filter((w) => w.endOfRun)).toHaveLength(scan.lines.length);
  }, T);

  it.each([[90, 270], [180, 180], [270, 90]] as const)('reads a scan turned %p° and maps its boxes onto the turned image', async (turn, corrected) => {
    const p = await pool.recognize(await rotateScan(scan.png, turn), page(scan, turn !== 180));
    expect(p.correctedRotation).toBe(corrected);
    expect(characterErrorRate(text(p), scan.lines.join(' '))).toBeLessThan(0.05);
    // Turning the page's boxes upright must land each word on the upright scan's box for it.
    const matched = p.words.filter((w, i) => {
      const u = upright.words[i];
      return u && u.text === w.text && iou(rotateBoxQuarter(w.box, corrected), u.box) > 0.6;
    });
    expect(matched.length / upright.words.length).toBeGreaterThan(0.9);
    if (turn === 90) {
      // the first line runs down the right edge of a clockwise-turned page
      const firstLine = p.words.slice(0, p.words.findIndex((w) => w.endOfRun) + 1);
      for (const w of firstLine) {
        expect(w.box.x0).toBeGreaterThan(1 - scan.lineBands[0].y1 - 0.01);
        expect(w.box.x1).toBeLessThan(1 - scan.lineBands[0].y0 + 0.01);
        expect(w.box.y1 - w.box.y0).toBeGreaterThan(w.box.x1 - w.box.x0);
      }
      expect(centre(firstLine[1])[1]).toBeGreaterThan(centre(firstLine[0])[1]);
    }
  }, T);

  it('deskews a 3° scan and puts boxes where the words are on the skewed image', async () => {
    const skewed = await skewScan(scan.png, 3);
    const p = await pool.recognize(skewed, page(scan));
    expect(p.correctedRotation).toBe(0);
    expect(characterErrorRate(text(p), scan.lines.join(' '))).toBeLessThan(0.05);
    // Where sharp moved each upright word centre: the inverse of the OCR transform, i.e. rotate by -3°
    // about the centre of the enlarged canvas.
    const meta = await import('sharp').then((m) => m.default(skewed).metadata());
    const inverse: ImageTransform = { srcWidth: meta.width!, srcHeight: meta.height!, scaledWidth: meta.width!, scaledHeight: meta.height!, angle: -3, outWidth: scan.width, outHeight: scan.height };
    let close = 0;
    upright.words.forEach((u, i) => {
      const [ex, ey] = toPage(inverse, centre(u)[0] * scan.width, centre(u)[1] * scan.height);
      const w = p.words[i];
      if (w && w.text === u.text && Math.hypot(centre(w)[0] - ex, centre(w)[1] - ey) < 0.01) close++;
    });
    expect(close / upright.words.length).toBeGreaterThan(0.9);
  }, T);

  it('returns an empty page for a blank scan without running OCR', async () => {
    const blank = await renderScan({ lines: [] });
    const p = await pool.recognize(blank.png, page(blank));
    expect(p.words).toEqual([]);
  }, T);

  it('upscales a low-resolution scan before reading it', async () => {
    const low = await renderScan({ dpi: 110 });
    const p = await pool.recognize(low.png, page(low));
    expect(characterErrorRate(text(p), low.lines.join(' '))).toBeLessThan(0.05);
  }, T);

  it('refuses an image over the pixel limit (REQ_003) and garbage bytes (FILE_003)', async () => {
    const small = await createOcrPool({ size: 1, maxPixels: 1000 });
    try {
      await expect(small.recognize(scan.png, page(scan))).rejects.toMatchObject({ code: 'REQ_003' });
    } finally { await small.close(); }
    await expect(pool.recognize(new Uint8Array([1, 2, 3, 4, 5]), page(scan))).rejects.toBeInstanceOf(QuireError);
    await expect(pool.recognize(new Uint8Array([1, 2, 3, 4, 5]), page(scan))).rejects.toMatchObject({ code: 'FILE_003' });
  }, T);
});

describe('OCR pool resilience', () => {
  it('fails at creation when the language data folder has no model', async () => {
    await expect(createOcrPool({ size: 1, tessdataDir: '/nonexistent-tessdata' })).rejects.toThrow(/No traineddata for eng/);
  });

  it('replaces a worker whose thread dies mid-job, retries the job, and keeps serving', async () => {
    const created: OcrWorker[] = [];
    let killNext = true;
    const pool = await createOcrPool({
      size: 1,
      workerFactory: async (o) => {
        const w = await createTesseractWorker(o);
        created.push(w);
        return {
          ...w,
          id: w.id,
          recognize: (png) => {
            const job = w.recognize(png);
            // The first job's thread is killed underneath it, as a WASM abort or OOM would: right after the job
            // was handed to it, so the death always comes mid-job (a timer could fire after the job is done).
            if (killNext) { killNext = false; w.kill(); }
            return job;
          },
        };
      },
    });
    try {
      const scan = await renderScan({ lines: ['Resilient workers survive crashes'] });
      const pageInfo = { number: 1, widthPt: 295, heightPt: 418 };
      const first = await pool.recognize(scan.png, pageInfo);
      expect(text(first)).toBe('Resilient workers survive crashes');
      expect(created.length).toBe(2);
      const second = await pool.recognize(scan.png, pageInfo);
      expect(text(second)).toBe('Resilient workers survive crashes');
      expect(created.length).toBe(2);
    } finally { await pool.close(); }
  }, T);

  it('fails a job that fails twice with PROC_001, and still serves the next one', async () => {
    let failures = 2;
    const pool = await createOcrPool({
      size: 1,
      workerFactory: async (o) => {
        const w = await createTesseractWorker(o);
        return { ...w, id: w.id, recognize: (png) => (failures-- > 0 ? w.recognize(new Uint8Array([0, 1, 2, 3])) : w.recognize(png)) };
      },
    });
    try {
      const scan = await renderScan({ lines: ['Second chances'] });
      const pageInfo = { number: 1, widthPt: 295, heightPt: 418 };
      await expect(pool.recognize(scan.png, pageInfo)).rejects.toMatchObject({ code: 'PROC_001' });
      expect(text(await pool.recognize(scan.png, pageInfo))).toBe('Second chances');
    } finally { await pool.close(); }
  }, T);
});
