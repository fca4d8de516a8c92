import sharp from 'sharp';
import type { OcrEngine, RawPage } from '@quire/core';
import { contentBox, uncropPage } from './content-crop.js';
import { readImage } from './read-image.js';

/** A white frame with a block of dark text lines at (left, top), plus light JPEG-like grain. */
async function photo(W: number, H: number, left: number, top: number, lines: number, lineW: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${lineW}" height="${lines * 24}">${Array.from({ length: lines }, (_, i) =>
    `<text x="0" y="${i * 24 + 18}" font-family="sans-serif" font-size="18" fill="#222">TOTAL AMOUNT 12.${String(i).padStart(2, '0')} RECEIPT LINE</text>`).join('')}</svg>`;
  const grain = Buffer.alloc(W * H);
  for (let i = 0; i < grain.length; i++) grain[i] = 235 + ((i * 2654435761) >>> 28); // 235..250, deterministic
  return sharp(grain, { raw: { width: W, height: H, channels: 1 } })
    .composite([{ input: Buffer.from(svg), left, top }]).jpeg({ quality: 80 }).toBuffer();
}

describe('contentBox', () => {
  it('finds the inked region of a small document in a large frame', async () => {
    const img = await photo(1200, 1600, 400, 500, 12, 380);
    const box = (await contentBox(img, 1e9))!;
    expect(box).toBeDefined();
    expect(box.x0).toBeGreaterThan(0.25); expect(box.x0).toBeLessThan(400 / 1200);
    expect(box.y0).toBeGreaterThan(0.25); expect(box.y0).toBeLessThan(500 / 1600);
    expect(box.x1).toBeGreaterThan(700 / 1200); expect(box.x1).toBeLessThan(0.75);
    expect(box.y1).toBeGreaterThan((500 + 12 * 24 - 10) / 1600); expect(box.y1).toBeLessThan(0.6);
  });

  it('never cuts through text: a thin light title above a gap and the ends of the longest lines stay inside the crop', async () => {
    // a 300 DPI letter page, text in its upper left quarter: a title in thin grey type, a gap wider than the
    // space between lines, then body lines of different lengths (downscaled, thin strokes turn grey)
    const W = 2550, H = 3300;
    const body = Array.from({ length: 14 }, (_, i) => `<text x="${i % 3 ? 380 : 330}" y="${560 + i * 52}" font-family="serif" font-size="38" fill="#000">${'Here is to the crazy ones, the misfits. '.slice(0, 24 + (i * 7) % 17)}</text>`).join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="#fff"/>`
      + `<text x="300" y="330" font-family="serif" font-style="italic" font-size="60" font-weight="200" fill="#666">The Crazy Ones</text>`
      + `<text x="300" y="420" font-family="serif" font-style="italic" font-size="44" font-weight="200" fill="#666">October 14, 1998</text>${body}</svg>`;
    const png = await sharp(Buffer.from(svg)).png().toBuffer();
    const box = (await contentBox(png, 1e9))!;
    expect(box).toBeDefined();
    // the title's top (about 280 px) and left edge (300 px) and the longest line's end are inside
    expect(box.y0 * H).toBeLessThan(280);
    expect(box.x0 * W).toBeLessThan(300);
    const ink = await sharp(png).extract({ left: 0, top: 0, width: W, height: H }).greyscale().raw().toBuffer();
    let right = 0;
    for (let y = 0; y < H; y++) for (let x = W - 1; x > right; x--) if (ink[y * W + x] < 200) { right = x; break; }
    expect(box.x1 * W).toBeGreaterThan(right);
  });

  it('leaves a page whose text fills the frame alone, and a blank image', async () => {
    expect(await contentBox(await photo(500, 700, 20, 20, 27, 460), 1e9)).toBeUndefined();
    const blank = await sharp({ create: { width: 300, height: 300, channels: 3, background: 'white' } }).png().toBuffer();
    expect(await contentBox(blank, 1e9)).toBeUndefined();
  });
});

describe('uncropPage', () => {
  it('maps boxes read on the crop back onto the whole page', () => {
    const page: RawPage = {
      number: 1, width: 50, height: 40, source: 'ocr', segments: [], rects: [], images: [], widgets: [],
      words: [{ text: 'x', box: { x0: 0, y0: 0.5, x1: 1, y1: 1 }, fontSize: 10, confidence: 1 }],
    };
    const out = uncropPage(page, { x0: 0.2, y0: 0.4, x1: 0.7, y1: 0.8 }, 100, 100);
    expect(out).toMatchObject({ width: 100, height: 100 });
    const b = out.words[0].box;
    expect([b.x0, b.y0, b.x1, b.y1].map((v) => Math.round(v * 100) / 100)).toEqual([0.2, 0.6, 0.7, 0.8]);
  });
});

describe('readImage with a small document in a large frame', () => {
  it('OCRs only the inked region and returns page-relative boxes at the full page size', async () => {
    const sizes: { w: number; h: number; widthPt: number }[] = [];
    const ocr: OcrEngine = {
      async recognize(image, info) {
        const m = await sharp(image).metadata();
        sizes.push({ w: m.width!, h: m.height!, widthPt: info.widthPt });
        return { number: info.number, width: info.widthPt, height: info.heightPt, source: 'ocr', segments: [], rects: [], images: [], widgets: [],
          words: [{ text: 'TOTAL', box: { x0: 0, y0: 0, x1: 0.5, y1: 0.1 }, fontSize: 10, confidence: 0.9 }] };
      },
    };
    const r = await readImage(new Uint8Array(await photo(1200, 1600, 400, 500, 12, 380)), { ocr });
    expect(sizes[0].w).toBeLessThan(600);
    expect(sizes[0].widthPt / sizes[0].w).toBeCloseTo(r.pages[0].width / 1200, 5); // same points per pixel
    expect(r.pages[0].words[0].box.x0).toBeGreaterThan(0.25);
    expect(r.pages[0].words[0].box.y0).toBeGreaterThan(0.25);
  });
});
