import sharp from 'sharp';
import { boxToPage, rotateBoxQuarter, splitRotation, toPage, type ImageTransform } from './transform.js';

/** A 1-pixel dark dot on white, so where sharp moves it can be measured. */
function dotImage(w: number, h: number, x: number, y: number): Buffer {
  const data = Buffer.alloc(w * h, 255);
  for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) data[(y + dy) * w + x + dx] = 0;
  return data;
}

/** Centre of the dark pixels. */
function darkest(buf: Buffer, w: number): [number, number] {
  let sx = 0, sy = 0, n = 0;
  for (let i = 0; i < buf.length; i++) if (buf[i] < 128) { sx += i % w; sy += Math.floor(i / w); n++; }
  return [sx / n, sy / n];
}

describe('OCR image transform', () => {
  it.each([90, 180, 270, 3, -7])('maps a point of a sharp-rotated image (%p°) back to the source', async (angle) => {
    const w = 400, h = 300, x = 100, y = 60;
    const src = dotImage(w, h, x, y);
    const { data, info } = await sharp(src, { raw: { width: w, height: h, channels: 1 } })
      .rotate(angle, { background: { r: 255, g: 255, b: 255 } }).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
    const [u, v] = darkest(data, info.width);
    const t: ImageTransform = { srcWidth: w, srcHeight: h, scaledWidth: w, scaledHeight: h, angle, outWidth: info.width, outHeight: info.height };
    const [nx, ny] = toPage(t, u, v);
    expect(Math.abs(nx * w - x)).toBeLessThan(1.5);
    expect(Math.abs(ny * h - y)).toBeLessThan(1.5);
  });

  it('accounts for scaling and clamps boxes to the page', () => {
    const t: ImageTransform = { srcWidth: 100, srcHeight: 50, scaledWidth: 200, scaledHeight: 100, angle: 0, outWidth: 200, outHeight: 100 };
    expect(boxToPage(t, { x0: 20, y0: 10, x1: 220, y1: 50 })).toEqual({ x0: 0.1, y0: 0.1, x1: 1, y1: 0.5 });
  });

  it('splits a correction into quarter turn and skew', () => {
    expect(splitRotation(-90)).toEqual({ quarter: 270, skew: 0 });
    expect(splitRotation(183)).toEqual({ quarter: 180, skew: expect.closeTo(3, 6) });
    expect(splitRotation(-2.5)).toEqual({ quarter: 0, skew: -2.5 });
  });

  it('turns normalized boxes by quarter turns, and back', () => {
    const b = { x0: 0.1, y0: 0.2, x1: 0.3, y1: 0.25 };
    expect(rotateBoxQuarter(b, 90)).toEqual({ x0: 0.75, y0: 0.1, x1: 0.8, y1: 0.3 });
    for (const d of [90, 180, 270] as const) {
      const back = rotateBoxQuarter(rotateBoxQuarter(b, d), ((360 - d) % 360) as 0 | 90 | 180 | 270);
      for (const k of ['x0', 'y0', 'x1', 'y1'] as const) expect(back[k]).toBeCloseTo(b[k], 10);
    }
  });
});
