import sharp from 'sharp';
import { PdfiumDocument, pdfiumMemoryBytes, pdfiumModulesLoaded } from './pdfium.js';
import { PageRasterizer, renderPage } from './render.js';
import { openDocument } from './pdfjs.js';
import { makeMixedContentPdf, makeRotatedPdf } from '../../../../tests/fixtures/pdf/documents.js';

/** Mean absolute difference of two equally sized grey rasters after shrinking both 8× (area average). */
async function coarseDifference(a: Uint8Array, b: Uint8Array, width: number, height: number): Promise<number> {
  const shrink = (px: Uint8Array) => sharp(px, { raw: { width, height, channels: 1 } })
    .resize(Math.floor(width / 8), Math.floor(height / 8), { kernel: 'cubic', fit: 'fill' }).raw().toBuffer();
  const [x, y] = await Promise.all([shrink(a), shrink(b)]);
  let d = 0;
  for (let i = 0; i < x.length; i++) d += Math.abs(x[i] - y[i]);
  return d / x.length;
}

/** Bounding box of what is drawn (grey < 200). */
function inkBox(px: Uint8Array, width: number) {
  let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
  for (let i = 0; i < px.length; i++) {
    if (px[i] >= 200) continue;
    const x = i % width, y = (i - x) / width;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    y1 = y;
  }
  return [x0, y0, x1, y1];
}

const near = (a: number[], b: number[], px: number) => a.every((v, i) => Math.abs(v - b[i]) <= px);

/** The error a WebAssembly trap throws (the lib settings here leave WebAssembly's types out). */
const { RuntimeError } = (globalThis as unknown as { WebAssembly: { RuntimeError: new (message: string) => Error } }).WebAssembly;

/** Makes PdfiumDocument's drawing throw `error` on its next call(s), as a trap inside PDFium would. */
function trapNextDraws() {
  const proto = PdfiumDocument.prototype as unknown as { drawRegion: (...args: unknown[]) => Promise<unknown> };
  const real = proto.drawRegion;
  const pending: Error[] = [];
  let calls = 0;
  proto.drawRegion = function (this: unknown, ...args: unknown[]) {
    calls++;
    const error = pending.shift();
    return error ? Promise.reject(error) : real.apply(this, args);
  };
  return { next: (e: Error) => pending.push(e), calls: () => calls, restore: () => { proto.drawRegion = real; } };
}

const grey = async (png: Uint8Array) => new Uint8Array(await sharp(png).greyscale().raw().toBuffer());

describe('PDFium page rasterizer', () => {
  test.each([
    ['a page of text, rulings and an image', makeMixedContentPdf, 1],
    ['the page with the embedded image', makeMixedContentPdf, 4],
    ['a page turned by /Rotate', makeRotatedPdf, 1],
  ])('draws %s where pdf.js draws it', async (_name, make, n) => {
    const bytes = await make();
    const doc = await openDocument(bytes);
    const rasterizer = new PageRasterizer(bytes);
    try {
      const page = await doc.getPage(n);
      const opts = { dpi: 100, grey: true, maxPixels: 1e8 };
      const viaPdfium = await renderPage(page, opts, undefined, rasterizer);
      const viaCanvas = await renderPage(page, opts);
      expect([viaPdfium.width, viaPdfium.height]).toEqual([viaCanvas.width, viaCanvas.height]);
      const [a, b] = [await grey(viaPdfium.png), await grey(viaCanvas.png)];
      const { width, height } = viaPdfium;
      expect(a.some((v) => v < 100)).toBe(true); // ink, not a blank page
      // Both engines substitute their own faces for the standard 14 fonts, so glyphs differ a little
      // (0.04-0.5 here); the ink must cover the same area of the page.
      expect(await coarseDifference(a, b, width, height)).toBeLessThan(1);
      expect(near(inkBox(a, width), inkBox(b, width), 3)).toBe(true);
      // and the check can fail: the same render moved 8 pixels right and down is off
      const moved = new Uint8Array(a.length).fill(255);
      for (let y = 0; y + 8 < height; y++) moved.set(a.subarray(y * width, (y + 1) * width - 8), (y + 8) * width + 8);
      expect(near(inkBox(moved, width), inkBox(b, width), 3)).toBe(false);
    } finally {
      await rasterizer.close();
      await doc.destroy();
    }
  });

  test('a render drawn in bands is the same as one drawn whole, also with others running at once, and leaves PDFium\'s memory bounded', async () => {
    const doc = await PdfiumDocument.open(await makeMixedContentPdf());
    try {
      const region = { fullWidth: 1275, fullHeight: 1650, x: 0, y: 0, w: 1275, h: 1650 };
      const whole = (await doc.render(1, region, 'rgba', 1275 * 1650))!;
      const banded = (await doc.render(1, region, 'rgba', 1275 * 97))!; // 17 bands, the last one short
      expect(banded.channels).toBe(4);
      expect(Buffer.compare(whole.data, banded.data)).toBe(0);
      // renders of one document running at once (each yields between its bands) give the same pixels
      const [p1, p4, again] = await Promise.all([
        doc.render(1, region, 'rgba', 1275 * 97), doc.render(4, region, 'rgba', 1275 * 61), doc.render(1, region, 'rgba', 1275 * 130),
      ]);
      expect(Buffer.compare(p1!.data, whole.data)).toBe(0);
      expect(Buffer.compare(again!.data, whole.data)).toBe(0);
      // an image cut by a band edge is resampled from that band's origin: at most one level off (of 255)
      const p4whole = (await doc.render(4, region, 'rgba'))!.data;
      let worst = 0;
      for (let i = 0; i < p4whole.length; i++) worst = Math.max(worst, Math.abs(p4whole[i] - p4!.data[i]));
      expect(worst).toBeLessThanOrEqual(1);
      const crop = { ...region, x: 300, y: 500, w: 400, h: 300 };
      const a = (await doc.render(1, crop, 'rgb', 400 * 300))!, b = (await doc.render(1, crop, 'rgb', 400 * 7))!;
      expect(Buffer.compare(a.data, b.data)).toBe(0);
      // a 600 DPI page (5100 × 6600 RGBA, 135 MB of output) is drawn in default-sized bands
      const big = (await doc.render(1, { fullWidth: 5100, fullHeight: 6600, x: 0, y: 0, w: 5100, h: 6600 }, 'rgba'))!;
      expect(big.data.length).toBe(5100 * 6600 * 4);
      expect(await pdfiumMemoryBytes()).toBeLessThan(64 * 1024 * 1024);
    } finally {
      doc.close();
    }
  });

  test('closing a document while it renders frees it when the render ends', async () => {
    const doc = await PdfiumDocument.open(await makeMixedContentPdf());
    const region = { fullWidth: 612, fullHeight: 792, x: 0, y: 0, w: 612, h: 792 };
    const rendering = doc.render(1, region, 'grey', 612 * 50);
    doc.close();
    const raster = (await rendering)!;
    expect(raster.data.some((v) => v < 100)).toBe(true);
    await expect(doc.render(1, region, 'grey')).rejects.toThrow('closed');
  });

  test('falls back to the canvas (undefined) for a document PDFium cannot open or sizes differently, and for the pdfjs engine', async () => {
    const bytes = await makeMixedContentPdf();
    const doc = await openDocument(bytes);
    try {
      const page = await doc.getPage(1);
      const opts = { dpi: 72, maxPixels: 1e8 };
      const garbage = new PageRasterizer(new TextEncoder().encode('%PDF-1.7 not really'));
      expect(await garbage.draw(page, opts, 'grey')).toBeUndefined();
      const turned = new PageRasterizer(await makeRotatedPdf()); // 792 × 612 where pdf.js has 612 × 792
      expect(await turned.draw(page, opts, 'grey')).toBeUndefined();
      expect(await new PageRasterizer(bytes, 'pdfjs').draw(page, opts, 'grey')).toBeUndefined();
      const right = new PageRasterizer(bytes);
      expect(await right.draw(page, opts, 'grey')).toMatchObject({ width: 612, height: 792, channels: 1 });
      await Promise.all([garbage.close(), turned.close(), right.close()]);
      expect(await right.draw(page, opts, 'grey')).toBeUndefined(); // closed: the canvas would draw
    } finally {
      await doc.destroy();
    }
  });

  test('a failure inside PDFium (a WebAssembly trap) stops its use for that document; the canvas draws, the next document gets a fresh module', async () => {
    const bytes = await makeMixedContentPdf();
    const doc = await openDocument(bytes);
    const trap = trapNextDraws();
    trap.next(new RuntimeError('unreachable'));
    const rasterizer = new PageRasterizer(bytes);
    try {
      const page = await doc.getPage(1);
      const opts = { dpi: 72, grey: true, maxPixels: 1e8 };
      expect(await rasterizer.draw(page, opts, 'grey')).toBeUndefined();
      expect(trap.calls()).toBe(1);
      expect(await rasterizer.draw(page, opts, 'grey')).toBeUndefined(); // not tried again on this document
      expect(trap.calls()).toBe(1);
      const png = await renderPage(page, opts, undefined, rasterizer); // the canvas drew it
      expect((await grey(png.png)).some((v) => v < 100)).toBe(true);
      const loaded = pdfiumModulesLoaded();
      const fresh = new PageRasterizer(bytes);
      expect(await fresh.draw(page, opts, 'grey')).toMatchObject({ width: 612, height: 792, channels: 1 });
      await fresh.close();
      expect(pdfiumModulesLoaded()).toBe(loaded + 1);
      const direct = await PdfiumDocument.open(bytes);
      trap.next(new RuntimeError('memory access out of bounds'));
      await expect(direct.render(1, { fullWidth: 612, fullHeight: 792, x: 0, y: 0, w: 612, h: 792 }, 'grey')).rejects.toThrow(/PDFium failed: memory access out of bounds/);
      await expect(direct.render(1, { fullWidth: 612, fullHeight: 792, x: 0, y: 0, w: 612, h: 792 }, 'grey')).rejects.toThrow(/failed on this document earlier/);
      direct.close();
    } finally {
      trap.restore();
      await rasterizer.close();
      await doc.destroy();
    }
  });

  test('a file PDFium cannot read is refused with a message', async () => {
    await expect(PdfiumDocument.open(new TextEncoder().encode('not a pdf'))).rejects.toThrow(/PDFium could not open the document/);
  });
});
