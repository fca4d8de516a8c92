import { PDFDocument, degrees } from 'pdf-lib';
import { type Matrix, multiply } from './matrix.js';
import { openDocument } from './pdfjs.js';
import { renderPageRgba, singleImageOf } from './render.js';
import { type DecodedImage, findSingleImage, rasterFromImage } from './single-image.js';
import { makePng, makeScannedPdf } from '../../../../tests/fixtures/pdf/documents.js';

const OPS = {
  save: 1, restore: 2, transform: 3, paintImageXObject: 4, showText: 5, setTextRenderingMode: 6, constructPath: 7,
  clip: 8, endPath: 9, fill: 10, setGState: 11, dependency: 12, beginText: 13, endText: 14, paintFormXObjectBegin: 15,
  paintFormXObjectEnd: 16, paintImageMaskXObject: 17,
};
type Op = [keyof typeof OPS, unknown[] | null];
const list = (ops: Op[]) => ({ fnArray: ops.map(([n]) => OPS[n]), argsArray: ops.map(([, a]) => a) });
const scan: Op[] = [['save', null], ['transform', [612, 0, 0, 792, 0, 0]], ['dependency', ['img_1']], ['paintImageXObject', ['img_1', 100, 100]], ['restore', null]];

describe('findSingleImage', () => {
  test('a page that only paints one image gives that image and its placement', () => {
    expect(findSingleImage(list(scan), OPS)).toEqual({ objId: 'img_1', matrix: [612, 0, 0, 792, 0, 0] });
    // inside a form XObject, with invisible OCR text over it
    const wrapped: Op[] = [['paintFormXObjectBegin', [[1, 0, 0, 1, 10, 20], null]], ...scan, ['paintFormXObjectEnd', null],
      ['setTextRenderingMode', [3]], ['beginText', null], ['showText', [[{ unicode: 'a', width: 500 }]]], ['endText', null]];
    expect(findSingleImage(list(wrapped), OPS)?.matrix).toEqual([612, 0, 0, 792, 10, 20]);
  });

  test('a clipping path is kept as a box; anything else drawn means the canvas renders the page', () => {
    // "re W n": pdf.js emits the clip, then the path with endPath as its paint
    const clipped: Op[] = [['clip', null], ['constructPath', [OPS.endPath, [null], [0, 0, 306, 792]]], ...scan];
    expect(findSingleImage(list(clipped), OPS)).toMatchObject({ clip: [0, 0, 306, 792] });
    const visibleText: Op[] = [...scan, ['beginText', null], ['showText', [[{ unicode: 'a', width: 500 }]]], ['endText', null]];
    const filled: Op[] = [...scan, ['constructPath', [OPS.fill, [null], [0, 0, 10, 10]]]];
    const twoImages: Op[] = [...scan, ...scan];
    const translucent: Op[] = [['setGState', [[['ca', 0.5]]]], ...scan];
    const mask: Op[] = [['paintImageMaskXObject', [{}]]];
    for (const ops of [visibleText, filled, twoImages, translucent, mask, []]) expect(findSingleImage(list(ops), OPS)).toBeUndefined();
  });
});

describe('rasterFromImage', () => {
  // a 3 × 2 RGB image whose six pixels are all different (red channel = 10 · index)
  const image: DecodedImage = { width: 3, height: 2, kind: 2, data: new Uint8Array([0, 10, 20, 30, 40, 50].flatMap((v) => [v, 0, 0])) };
  /** Reference: the image pixel under each output pixel's centre, by inverting the placement. */
  const expected = (t: Matrix, w: number, h: number) => {
    const det = t[0] * t[3] - t[1] * t[2];
    const out: number[] = [];
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const px = x + 0.5 - t[4], py = y + 0.5 - t[5];
        const u = (t[3] * px - t[2] * py) / det, v = (-t[1] * px + t[0] * py) / det;
        out.push(u < 0 || u >= 1 || v < 0 || v >= 1 ? 255 : 10 * (Math.floor((1 - v) * 2) * 3 + Math.floor(u * 3)));
      }
    }
    return out;
  };
  const toPixels: Matrix = [1, 0, 0, -1, 0, 3]; // a 3 × 3 pt page at 72 DPI: y flipped
  const cases: [string, Matrix][] = [
    ['upright', [3, 0, 0, 2, 0, 0]],
    ['mirrored left-right', [-3, 0, 0, 2, 3, 0]],
    ['upside down', [3, 0, 0, -2, 0, 3]],
    ['turned 180°', [-3, 0, 0, -2, 3, 3]],
    ['turned 90° one way', [0, 3, -2, 0, 2, 0]],
    ['turned 90° the other way', [0, -3, 2, 0, 0, 3]],
    ['transposed', [0, 3, 2, 0, 0, 0]],
    ['anti-transposed', [0, -3, -2, 0, 2, 3]],
  ];
  test.each(cases)('%s: the pixels land where the placement puts them', async (_name, matrix) => {
    const t = multiply(toPixels, matrix), w = 3, h = 3;
    const r = await rasterFromImage(image, { objId: 'x', matrix }, toPixels, w, h);
    expect(r).toBeDefined();
    expect([r!.width, r!.height, r!.channels]).toEqual([w, h, 3]);
    expect(Array.from({ length: w * h }, (_, i) => r!.data[i * 3])).toEqual(expected(t, w, h));
  });

  test('placed on white inside the output and its clip; sheared images are left to the canvas', async () => {
    const grey: DecodedImage = { width: 2, height: 1, kind: 1, data: new Uint8Array([0b01000000]) }; // black, white
    const r = await rasterFromImage(grey, { objId: 'x', matrix: [2, 0, 0, 1, 1, 1] }, toPixels, 4, 3);
    expect(Array.from(r!.data)).toEqual([255, 255, 255, 255, 255, 0, 255, 255, 255, 255, 255, 255]);
    const clipped = await rasterFromImage(grey, { objId: 'x', matrix: [2, 0, 0, 1, 1, 1], clip: [2, 0, 4, 3] }, toPixels, 4, 3);
    expect(Array.from(clipped!.data)).toEqual([255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255]);
    expect(await rasterFromImage(grey, { objId: 'x', matrix: [2, 1, 0, 1, 0, 0] }, toPixels, 4, 3)).toBeUndefined();
  });
});

describe('rendering a scanned page from its image', () => {
  async function compare(bytes: Uint8Array, dpi: number) {
    const doc = await openDocument(bytes);
    try {
      const page = await doc.getPage(doc.numPages);
      const image = await singleImageOf(page);
      expect(image).toBeDefined();
      const fast = await renderPageRgba(page, { dpi, maxPixels: 1e8 }, image);
      const canvas = await renderPageRgba(page, { dpi, maxPixels: 1e8 });
      expect([fast.width, fast.height]).toEqual([canvas.width, canvas.height]);
      let diff = 0;
      for (let i = 0; i < fast.rgba.length; i++) diff += Math.abs(fast.rgba[i] - canvas.rgba[i]);
      return diff / fast.rgba.length;
    } finally {
      await doc.destroy();
    }
  }

  test('gives the canvas render\'s pixels, also for an image turned on the page', async () => {
    expect(await compare(await makeScannedPdf(), 100)).toBeLessThan(3);
    const doc = await PDFDocument.create();
    const page = doc.addPage([792, 612]);
    const img = await doc.embedPng(await makePng(200, 300));
    page.drawImage(img, { x: 792, y: 0, width: 612, height: 792, rotate: degrees(90) });
    expect(await compare(await doc.save(), 100)).toBeLessThan(3);
  });

  test('a page with text on it is not a single image', async () => {
    const doc = await openDocument(await makeScannedPdf());
    try {
      expect(await singleImageOf(await doc.getPage(1))).toBeUndefined();
    } finally {
      await doc.destroy();
    }
  });
});
