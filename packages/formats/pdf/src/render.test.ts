import sharp from 'sharp';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { QuireError } from '@quire/core';
import { openPdf, readPdf } from './index.js';
import { makeFormPdf, makeMixedContentPdf, makeRotatedPdf } from '../../../../tests/fixtures/pdf/documents.js';

setFlagsFromString('--expose-gc');

/** Dark pixels (luma < 128) in a PNG, optionally inside a pixel rectangle. */
async function darkPixels(png: Uint8Array, region?: { x0: number; y0: number; x1: number; y1: number }): Promise<number> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const r = region ?? { x0: 0, y0: 0, x1: info.width, y1: info.height };
  let n = 0;
  for (let y = Math.max(0, r.y0); y < Math.min(info.height, r.y1); y++) {
    for (let x = Math.max(0, r.x0); x < Math.min(info.width, r.x1); x++) if (data[y * info.width + x] < 128) n++;
  }
  return n;
}

// Every page below is drawn by each engine (render.ts, PageRasterizer): PDFium by default, pdf.js's canvas where PDFium cannot.
describe.each(['pdfium', 'pdfjs'] as const)('openPdf: rendering with %s', (rasterEngine) => {
  const open = (bytes: Uint8Array, options: Parameters<typeof openPdf>[1] = {}) => openPdf(bytes, { ...options, rasterEngine });

  test('renders a page at the asked DPI, not blank, on a white background', async () => {
    const h = await open(await makeMixedContentPdf());
    try {
      expect(h.pageCount).toBe(5);
      const { png, width, height } = await h.render(1, { dpi: 72 });
      expect([width, height]).toEqual([612, 792]);
      const meta = await sharp(png).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', 612, 792]);
      const dark = await darkPixels(png);
      expect(dark).toBeGreaterThan(500); // the title alone covers more than this
      expect(dark).toBeLessThan(612 * 792 * 0.1); // and the background is white, not black
      // the title's glyphs are drawn where the text layer puts them: y 70..98 from the top, x from 72
      expect(await darkPixels(png, { x0: 72, y0: 70, x1: 180, y1: 98 })).toBeGreaterThan(300);
    } finally {
      await h.close();
    }
  });

  test('renderRgba gives the same pixels as the PNG render, unencoded', async () => {
    const h = await open(await makeMixedContentPdf());
    try {
      const { rgba, width, height } = await h.renderRgba(1, { dpi: 72 });
      expect([width, height, rgba.length]).toEqual([612, 792, 612 * 792 * 4]);
      const { png } = await h.render(1, { dpi: 72 });
      const fromPng = await sharp(png).raw().toBuffer();
      let differ = 0;
      for (let i = 0, j = 0; j < fromPng.length; i += 4, j += 3) {
        if (rgba[i] !== fromPng[j] || rgba[i + 1] !== fromPng[j + 1] || rgba[i + 2] !== fromPng[j + 2] || rgba[i + 3] !== 255) differ++;
      }
      expect(differ).toBe(0);
      expect(rgba.some((v) => v < 128)).toBe(true); // not blank
    } finally {
      await h.close();
    }
  });

  test('renderRgba pixels stay valid after the handle, the canvas and many other renders are gone', async () => {
    const gc = runInNewContext('gc') as () => void; // exposed by setFlagsFromString below
    const h = await open(await makeMixedContentPdf());
    let kept: Uint8Array;
    try {
      kept = (await h.renderRgba(1, { dpi: 150 })).rgba;
      for (let i = 0; i < 6; i++) await h.renderRgba(1 + (i % 5), { dpi: 150 });
    } finally {
      await h.close();
    }
    const sum = (a: Uint8Array) => { let s = 0; for (let i = 0; i < a.length; i += 97) s = (s * 31 + a[i]) >>> 0; return s; };
    const before = sum(kept);
    for (let i = 0; i < 4; i++) { gc(); await new Promise((r) => setImmediate(r)); Buffer.alloc(1 << 24, 1); }
    expect(sum(kept)).toBe(before);
    const again = await open(await makeMixedContentPdf());
    try {
      expect(sum((await again.renderRgba(1, { dpi: 150 })).rgba)).toBe(before);
    } finally {
      await again.close();
    }
  });

  test('a crop has the size of its region at the DPI and shows what is there', async () => {
    const h = await open(await makeMixedContentPdf());
    try {
      // the embedded PNG on page 4 sits at x 100..300, y 192..292 (pt from the top-left)
      const box = { x0: 100 / 612, y0: 192 / 792, x1: 300 / 612, y1: 292 / 792 };
      const crop = await h.render(4, { dpi: 144, box });
      expect(crop.width).toBeGreaterThanOrEqual(399);
      expect(crop.width).toBeLessThanOrEqual(401);
      expect(crop.height).toBeGreaterThanOrEqual(199);
      expect(crop.height).toBeLessThanOrEqual(201);
      expect((await sharp(crop.png).metadata()).width).toBe(crop.width);
      // the gradient image fills the crop: most of it is dark-ish (blue/red over green 40)
      expect(await darkPixels(crop.png)).toBeGreaterThan(crop.width * crop.height * 0.3);
      // the same region of the empty page 1 top is white
      const blank = await h.render(1, { dpi: 72, box: { x0: 0.6, y0: 0.6, x1: 0.9, y1: 0.9 } });
      expect(await darkPixels(blank.png)).toBe(0);
    } finally {
      await h.close();
    }
  });

  test('rotated pages render as displayed: the word box from the text layer covers ink', async () => {
    const bytes = await makeRotatedPdf();
    const { pages } = await readPdf(bytes);
    const w = pages[0].words.find((x) => x.text === 'Upright')!;
    const h = await open(bytes);
    try {
      const { png, width, height } = await h.render(1, { dpi: 72 });
      expect([width, height]).toEqual([792, 612]);
      const px = { x0: Math.floor(w.box.x0 * width), y0: Math.floor(w.box.y0 * height), x1: Math.ceil(w.box.x1 * width), y1: Math.ceil(w.box.y1 * height) };
      const inside = await darkPixels(png, px);
      expect(inside).toBeGreaterThan(100);
      // and the transposed position (what an unrotated reading would give) is empty
      expect(await darkPixels(png, { x0: px.y0, y0: px.x0, x1: px.y0 + 20, y1: px.x0 + 20 })).toBe(0);
    } finally {
      await h.close();
    }
  });

  test('form field appearances are drawn (pdf.js: AnnotationMode.ENABLE; PDFium: the form layer, FPDF_FFLDraw)', async () => {
    const h = await open(await makeFormPdf());
    try {
      const { png } = await h.render(1, { dpi: 72 });
      // text field value "Ada Lovelace" inside x 100..300, y 172..192
      expect(await darkPixels(png, { x0: 101, y0: 173, x1: 299, y1: 191 })).toBeGreaterThan(50);
      // the checked box's tick inside x 100..115, y 227..242
      expect(await darkPixels(png, { x0: 102, y0: 229, x1: 113, y1: 240 })).toBeGreaterThan(5);
    } finally {
      await h.close();
    }
  });

  test('a render over maxPixels is refused; pages outside the document too', async () => {
    const h = await open(await makeMixedContentPdf(), { limits: { maxPixels: 1_000_000 } });
    try {
      await expect(h.render(1, { dpi: 300 })).rejects.toMatchObject({ code: 'REQ_003' });
      await expect(h.render(1, { dpi: 72 })).resolves.toMatchObject({ width: 612 });
      await expect(h.render(9, { dpi: 72 })).rejects.toBeInstanceOf(QuireError);
    } finally {
      await h.close();
    }
  });
});

describe('readPdf: widgets', () => {
  test('AcroForm text field and checkboxes are read with value, state and box', async () => {
    const { pages } = await readPdf(await makeFormPdf());
    const ws = pages[0].widgets;
    expect(ws.map((w) => [w.fieldType, w.name])).toEqual([['text', 'customer_name'], ['checkbox', 'agree'], ['checkbox', 'newsletter']]);
    expect(ws[0].value).toBe('Ada Lovelace');
    expect(ws[1].checked).toBe(true);
    expect(ws[2].checked).toBe(false);
    // pdf-lib widens widget rects by half the border width (0.5pt)
    expect(Math.abs(ws[0].box.x0 * 612 - 100)).toBeLessThan(1);
    expect(Math.abs(ws[0].box.y0 * 792 - 172)).toBeLessThan(1);
    expect(Math.abs(ws[1].box.x1 * 612 - 115)).toBeLessThan(1);
    // the field's appearance text is not mixed into the page's words
    expect(pages[0].words.map((w) => w.text)).toEqual(['Name:']);
  });
});
