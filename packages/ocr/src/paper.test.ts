import sharp from 'sharp';
import { renderScan } from '../../../tests/fixtures/scans/generate.js';
import { renderReceiptPhoto } from '../../../tests/fixtures/scans/receipt-photo.js';
import { cropToPaper, findPaper, uncropBox } from './paper.js';
import { decodeGrey, downscale } from './preprocess.js';

async function analysed(png: Buffer) {
  const grey = await decodeGrey(png, 1e9);
  return { grey, small: (await downscale(grey, 1000)).image };
}

describe('findPaper: the sheet in a photo on a dark surface', () => {
  it('finds the slip on a noisy near-black desk with a bright strip at the edge, with a small margin', async () => {
    const photo = await renderReceiptPhoto();
    const { grey, small } = await analysed(photo.png);
    const paper = findPaper(small)!;
    expect(paper).not.toBeNull();
    const { box } = paper;
    // covers the slip, and no more than a margin of ~1 % of the image around it
    expect(box.x0).toBeLessThanOrEqual(photo.paper.x0);
    expect(box.y0).toBeLessThanOrEqual(photo.paper.y0);
    expect(box.x1).toBeGreaterThanOrEqual(photo.paper.x1);
    expect(box.y1).toBeGreaterThanOrEqual(photo.paper.y1);
    expect(photo.paper.x0 - box.x0).toBeLessThan(0.03);
    expect(box.x1 - photo.paper.x1).toBeLessThan(0.03);
    expect(photo.paper.y0 - box.y0).toBeLessThan(0.03);
    expect(box.y1 - photo.paper.y1).toBeLessThan(0.03);

    // the crop keeps the slip's ink and paints the desk white
    const { image, crop } = cropToPaper(grey, paper);
    let dark = 0;
    for (let y = 0; y < image.height; y++) for (const x of [0, 1, image.width - 2, image.width - 1]) if (image.data[y * image.width + x] < 128) dark++;
    expect(dark).toBe(0);
    let ink = 0;
    for (const v of image.data) if (v < 100) ink++;
    expect(ink).toBeGreaterThan(1000);
    const whole = uncropBox(crop, { x0: 0, y0: 0, x1: 1, y1: 1 });
    expect(whole.x0).toBeCloseTo(box.x0, 2);
    expect(whole.x1).toBeCloseTo(box.x1, 2);
  });

  it('leaves an ordinary scan alone (the paper between the letters spans the whole image)', async () => {
    const { png } = await renderScan({ dpi: 150 });
    expect(findPaper((await analysed(png)).small)).toBeNull();
  });

  it('leaves a page with a dark frame or picture inside alone when the outside is not darker surface', async () => {
    // a white page with a large black picture in its lower half: the paper still reaches every border
    const png = await sharp({ create: { width: 800, height: 1000, channels: 3, background: 'white' } })
      .composite([{ input: { create: { width: 600, height: 400, channels: 3, background: 'black' } }, left: 100, top: 500 }])
      .png().toBuffer();
    expect(findPaper((await analysed(png)).small)).toBeNull();
  });
});
