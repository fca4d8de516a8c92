import sharp from 'sharp';
import { renderScan, rotateScan, skewScan } from '../../../tests/fixtures/scans/generate.js';
import { renderRuledTable } from '../../../tests/fixtures/scans/ruled.js';
import { analysePage, otsuThreshold } from './analysis.js';
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

  it('measures the text rows of a ruled table, not its rules (more rules than rows of text)', async () => {
    const cells = [['Item', 'Qty', 'Price'], ['Bolts', '40', '12.00'], ['Nuts', '15', '3.50'], ['Rivets', '75', '9.25']];
    const { png } = await renderRuledTable({ cells, colWidthsIn: [1.3, 0.8, 0.9], rowHeightIn: 0.35, leftIn: 0.2, topIn: 0.2, widthIn: 3.4, heightIn: 1.8, dpi: 300 });
    const { image, factor } = await downscale(await decodeGrey(png, 1e9), 1000);
    const a = analysePage(image);
    // 11 pt text at 300 DPI: an x-height band of about 25 px before the downscale
    expect(a.textLineHeight! / factor).toBeGreaterThan(15);
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

describe('two-level (1-bit) scans', () => {
  // A 1-bit scan that needs no downscaling reaches the analysis with two grey levels: Otsu's split is
  // then the dark level itself, which must count as ink (it was read as "no ink": a blank page).
  const bilevel = async (png: Buffer) => sharp(png).threshold(128).toColourspace('b-w').png({ palette: true, colours: 2 }).toBuffer();
  let small: Buffer;
  beforeAll(async () => { small = (await renderScan({ dpi: 150, widthIn: 4, heightIn: 5, fontPt: 12 })).png; });

  it('finds the lines of an upright 1-bit page', async () => {
    const png = await bilevel(small);
    const { image } = await downscale(await decodeGrey(png, 1e9), 800);
    expect(new Set(image.data).size).toBe(2);
    const a = analysePage(image);
    expect(a.blank).toBe(false);
    expect(a.lineAngle).toBe(0);
    expect(a.lineHeight).toBeGreaterThan(5);
  });

  it('finds the lines of a 1-bit page turned 90°', async () => {
    const a = await analyse(await bilevel(await rotateScan(small, 90)));
    expect(a.blank).toBe(false);
    expect(a.lineAngle).toBe(90);
  });

  it('splits a two-level histogram at its dark level', () => {
    const data = new Uint8Array(1000).fill(255);
    data.fill(0, 0, 30);
    expect(otsuThreshold({ data, width: 1000, height: 1 })).toBe(0);
  });
});
