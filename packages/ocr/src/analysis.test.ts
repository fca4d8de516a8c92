import { renderScan, rotateScan, skewScan } from '../../../tests/fixtures/scans/generate.js';
import { analysePage } from './analysis.js';
import { decodeGrey, downscale } from './preprocess.js';

async function analyse(png: Uint8Array) {
  const { image } = await downscale(await decodeGrey(png, 1e9), 800);
  return analysePage(image);
}

describe('orientation and skew analysis', () => {
  let upright: Buffer;
  beforeAll(async () => { upright = (await renderScan()).png; });

  it('finds horizontal lines on an upright page', async () => {
    const a = await analyse(upright);
    expect(a.blank).toBe(false);
    expect(a.lineAngle).toBe(0);
    expect(a.axisMargin).toBeGreaterThan(2);
    expect(a.lineHeight).toBeGreaterThan(10);
  });

  it.each([90, 270] as const)('finds vertical lines on a page turned %p°', async (deg) => {
    const a = await analyse(await rotateScan(upright, deg));
    expect(a.lineAngle).toBe(90);
    expect(a.axisMargin).toBeGreaterThan(2);
  });

  it.each([3, -2, 6.5])('measures a %p° skew within 0.3°', async (deg) => {
    const a = await analyse(await skewScan(upright, deg));
    expect(Math.abs(a.lineAngle - deg)).toBeLessThanOrEqual(0.3);
  });

  it('reports a blank page as blank', async () => {
    const a = await analyse((await renderScan({ lines: [] })).png);
    expect(a.blank).toBe(true);
  });
});
