import { characterErrorRate, renderScan } from '../../../tests/fixtures/scans/generate.js';
import { renderReceiptPhoto } from '../../../tests/fixtures/scans/receipt-photo.js';
import { ensureBuilt } from '../../../scripts/lib/fleet.mjs';
import { describeOcrWorkerConformance } from '../test/ocr-worker.conformance.js';
import { createOcrPool, type OcrPool } from './index.js';
import { createOnnxPpocrWorkerFactory } from './onnx-worker.js';
import type { OcrWorker, OcrWorkerFactory } from './ocr-worker.js';

const T = 240_000;

// The worker thread runs the built module (a worker thread cannot load TypeScript): build it first.
beforeAll(async () => { await ensureBuilt(); }, 180_000);

describeOcrWorkerConformance('onnx-ppocr', createOnnxPpocrWorkerFactory({ threads: 2 }), { binarises: false });

/** Word accuracy: the share of expected words read exactly, in order (longest common subsequence). */
function wordAccuracy(read: string[], expected: string[]): number {
  const m = read.length, n = expected.length;
  const dp = Array.from({ length: m + 1 }, () => new Array<number>(n + 1).fill(0));
  for (let i = 1; i <= m; i++) for (let j = 1; j <= n; j++) dp[i][j] = read[i - 1] === expected[j - 1] ? dp[i - 1][j - 1] + 1 : Math.max(dp[i - 1][j], dp[i][j - 1]);
  return dp[m][n] / n;
}

describe('the onnx-ppocr engine through the OCR pool', () => {
  let pool: OcrPool;
  beforeAll(async () => { pool = await createOcrPool({ engine: 'onnx', size: 1 }); }, T);
  afterAll(() => pool?.close());

  it('reads a photographed receipt word for word, boxes on the slip, real confidences, engine reported', async () => {
    const photo = await renderReceiptPhoto({ brightStrip: false });
    const page = await pool.recognize(photo.png, { number: 1, widthPt: (photo.width / 200) * 72, heightPt: (photo.height / 200) * 72 });
    const expected = photo.lines.join(' ').split(' ');
    expect(wordAccuracy(page.words.map((w) => w.text), expected)).toBeGreaterThanOrEqual(0.95);
    for (const w of page.words) {
      expect(w.box.x0).toBeGreaterThanOrEqual(photo.paper.x0);
      expect(w.box.x1).toBeLessThanOrEqual(photo.paper.x1);
      expect(w.box.y0).toBeGreaterThanOrEqual(photo.paper.y0);
      expect(w.box.y1).toBeLessThanOrEqual(photo.paper.y1);
      expect(w.confidence).toBeGreaterThan(0);
      expect(w.confidence).toBeLessThanOrEqual(1);
    }
    expect(page.ocr).toEqual({ engine: 'onnx', meanConfidence: expect.any(Number), seconds: expect.any(Number) });
    expect(page.ocr!.meanConfidence).toBeGreaterThan(0.8);
  }, T);

  it('reads 8 pt text on a 300 DPI A4 page: the detector sees it at text height, not squeezed to the page', async () => {
    const lines = ['Invoice 2024-117 for services rendered in March', 'Net amount 1,284.50 payable within 30 days', 'Bank transfer to account 4471 0093 2210'];
    const scan = await renderScan({ lines, widthIn: 8.27, heightIn: 11.69, fontPt: 8, marginIn: 1 });
    const page = await pool.recognize(scan.png, { number: 1, widthPt: 595, heightPt: 842 });
    expect(characterErrorRate(page.words.map((w) => w.text).join(' '), lines.join(' '))).toBeLessThan(0.03);
  }, T);

  it('parts the words of underlined lines and of a name on a fill line (the rule under them is no letter ink)', async () => {
    const { createCanvas } = await import('@napi-rs/canvas');
    const { ensureScanFont, SCAN_FONT_FAMILY } = await import('../../../tests/fixtures/scans/generate.js');
    ensureScanFont();
    // a form scanned at ~100 DPI: capitals over an underline, a bold name over a fill line running on; words
    // half an em apart, where the recogniser hesitates over a space it does not read (the ink gap decides)
    const lines = ['DIRECT ACCOUNTS AND CHAINS WITHIN THE REGION', 'NEW EXPORT PRODUCT DEVELOPMENT CHARTER', 'Alberto Marcheggiano'];
    const canvas = createCanvas(900, 260);
    const g = canvas.getContext('2d');
    g.fillStyle = '#ffffff'; g.fillRect(0, 0, 900, 260);
    g.fillStyle = '#111111';
    lines.forEach((text, i) => {
      const y = 60 + i * 70;
      g.font = `${i === 2 ? 'bold ' : ''}20px ${SCAN_FONT_FAMILY}`;
      let x = 30;
      for (const word of text.split(' ')) { g.fillText(word, x, y); x += g.measureText(word).width + 10; }
      g.fillRect(28, y + 3, i === 2 ? 840 : x - 36, 2);
    });
    const sharp = (await import('sharp')).default;
    const png = await sharp(canvas.toBuffer('image/png')).removeAlpha().greyscale().png().toBuffer();
    const page = await pool.recognize(png, { number: 1, widthPt: 648, heightPt: 187 });
    const read = page.words.map((w) => w.text.toUpperCase());
    for (const word of lines.join(' ').toUpperCase().split(' ')) expect(read).toContain(word);
  }, T);

  it('drops lines the recognizer cannot read with confidence (scrawled initials, ticks, speckle), keeping every printed word', async () => {
    const { renderFormScan } = await import('../../../tests/fixtures/scans/form-scan.js');
    const form = await renderFormScan();
    const page = await pool.recognize(form.png, { number: 1, widthPt: form.width * 0.72, heightPt: form.height * 0.72 });
    const yPx = (w: { box: { y0: number; y1: number } }) => ((w.box.y0 + w.box.y1) / 2) * form.height;
    const printed = page.words.filter((w) => form.printed.some((b) => yPx(w) >= b.y0 && yPx(w) <= b.y1));
    expect(printed.map((w) => w.text)).toEqual(form.lines.join(' ').split(' '));
    // the marks the recognizer read as letters it was unsure of (0.17 and 0.48 here) are gone; what it read
    // surely (a scrawled "h" is an h) may stay
    const unsure = page.words.filter((w) => !printed.includes(w) && w.confidence < 0.5);
    expect(unsure.map((w) => w.text)).toEqual([]);
  }, T);

  it('parts words at gaps as wide as the page\'s word spaces where the recognizer gave the space only a little weight (small form labels)', async () => {
    const { createCanvas } = await import('@napi-rs/canvas');
    const { ensureScanFont, SCAN_FONT_FAMILY } = await import('../../../tests/fixtures/scans/generate.js');
    ensureScanFont();
    const sharp = (await import('sharp')).default;
    // form labels and a few sentences in small proportional print, as on a form scanned at ~72–100 DPI: the
    // recognizer reads some of the word spaces with a space probability of only 0.01–0.04
    const lines = ['Section Number:', "Section Sales Manager's Name:", 'Retail Pricing Group', 'Please place the following order for the region',
      'Send the completed survey to the field office', 'Start Manufacture Date:', 'Regional Director Approval', 'Target Audience Notes'];
    for (const px of [11, 13, 15]) {
      const width = 760, height = Math.round(60 + lines.length * px * 2.6);
      const canvas = createCanvas(width, height);
      const g = canvas.getContext('2d');
      g.fillStyle = '#ffffff'; g.fillRect(0, 0, width, height);
      g.fillStyle = '#111111'; g.font = `${px}px ${SCAN_FONT_FAMILY}`;
      lines.forEach((text, i) => g.fillText(text, 40, 40 + i * px * 2.6));
      const png = await sharp(canvas.toBuffer('image/png')).removeAlpha().greyscale().png().toBuffer();
      const page = await pool.recognize(png, { number: 1, widthPt: width, heightPt: height });
      expect({ px, words: page.words.map((w) => w.text) }).toEqual({ px, words: lines.join(' ').split(' ') });
    }
  }, T);

  it('reads an upside-down page through the orientation search and reports the turn', async () => {
    const { rotateScan } = await import('../../../tests/fixtures/scans/generate.js');
    const scan = await renderScan();
    const page = await pool.recognize(await rotateScan(scan.png, 180), { number: 1, widthPt: (scan.width / 300) * 72, heightPt: (scan.height / 300) * 72 });
    expect(page.correctedRotation).toBe(180);
    expect(characterErrorRate(page.words.map((w) => w.text).join(' '), scan.lines.join(' '))).toBeLessThan(0.03);
  }, T);
});

describe('an onnx-ppocr worker reading a large page', () => {
  it('leaves the event loop free: decoding, tensors and post-processing run on its own thread', async () => {
    const { monitorEventLoopDelay } = await import('node:perf_hooks');
    const lines = Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of a dense page of ten point text, read at 300 DPI`);
    const scan = await renderScan({ lines, widthIn: 8.27, heightIn: 11.69, fontPt: 10, marginIn: 1 });
    const worker = await createOnnxPpocrWorkerFactory({ threads: 1 })({ languages: 'eng', psm: 3 });
    try {
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      const started = performance.now();
      const r = await worker.recognize(scan.png);
      const took = performance.now() - started;
      delay.disable();
      expect(r.text).toContain('Line 30 of a dense page');
      // seconds of work on the worker; had any of it run on this thread, the loop would have stalled for about
      // that long (a garbage collection of jest's own heap can still pause it briefly)
      expect(took).toBeGreaterThan(1000);
      expect(delay.max / 1e6).toBeLessThan(took / 3);
      expect(delay.percentile(99) / 1e6).toBeLessThan(150);
    } finally {
      await worker.terminate();
    }
  }, T);
});

describe('an onnx-ppocr worker that dies mid-recognition', () => {
  it('is replaced by the pool and the page is read on the new one', async () => {
    const real = createOnnxPpocrWorkerFactory({ threads: 1 });
    let started = 0;
    // the first worker's thread is killed while it reads: what a crash inside ONNX Runtime looks like
    const factory: OcrWorkerFactory = async (o) => {
      const w = await real(o);
      if (++started > 1) return w;
      const crashing: OcrWorker = { ...w, id: w.id, recognize: (img, pass) => { const job = w.recognize(img, pass); setTimeout(() => w.kill(), 20); return job; }, terminate: () => w.terminate(), kill: () => w.kill(), onDeath: (cb) => w.onDeath(cb) };
      return crashing;
    };
    const pool = await createOcrPool({ engine: 'onnx', size: 1, workerFactory: factory });
    try {
      const scan = await renderScan();
      const page = await pool.recognize(scan.png, { number: 1, widthPt: (scan.width / 300) * 72, heightPt: (scan.height / 300) * 72 });
      expect(started).toBe(2);
      expect(characterErrorRate(page.words.map((w) => w.text).join(' '), scan.lines.join(' '))).toBeLessThan(0.03);
    } finally {
      await pool.close();
    }
  }, T);
});
