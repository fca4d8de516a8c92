import sharp from 'sharp';
import { cropImage } from './crop.js';

/** 200×100 white image with a black 50×20 block at (100, 40). */
async function picture(orientation?: number): Promise<Uint8Array> {
  const block = await sharp({ create: { width: 50, height: 20, channels: 3, background: '#000' } }).png().toBuffer();
  let img = sharp({ create: { width: 200, height: 100, channels: 3, background: '#fff' } }).composite([{ input: block, left: 100, top: 40 }]);
  if (orientation) img = img.jpeg().withMetadata({ orientation });
  return new Uint8Array(orientation ? await img.toBuffer() : await img.png().toBuffer());
}

describe('cropImage', () => {
  it('crops a normalized region to PNG at the image resolution', async () => {
    const out = await cropImage(await picture(), 1, { x0: 0.5, y0: 0.4, x1: 0.75, y1: 0.6 });
    expect([out.width, out.height]).toEqual([50, 20]);
    const { data, info } = await sharp(out.png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(info.format).toBe('raw');
    expect(Math.max(...data)).toBeLessThan(40); // all black: the block exactly
  });

  it('takes the crop from the upright (EXIF-oriented) image', async () => {
    // orientation 6: displayed rotated 90° clockwise, so the displayed image is 100×200
    const out = await cropImage(await picture(6), 1, { x0: 0, y0: 0, x1: 1, y1: 0.5 });
    expect([out.width, out.height]).toEqual([100, 100]);
  });

  it('refuses an empty region', async () => {
    await expect(cropImage(await picture(), 1, { x0: 0.5, y0: 0.5, x1: 0.5, y1: 0.6 })).rejects.toMatchObject({ code: 'REQ_003' });
  });
});
