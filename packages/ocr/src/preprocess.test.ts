import { stretchContrast } from './preprocess.js';

describe('stretchContrast', () => {
  it('maps the 1st percentile to black and the 99th to white, clipping the tails', () => {
    // 1000 pixels: 5 very dark outliers, a grey page between 60 and 200, 5 bright outliers.
    const px = new Uint8Array(1000);
    for (let i = 0; i < 1000; i++) px[i] = i < 5 ? 2 : i >= 995 ? 253 : 60 + Math.floor(((i - 5) * 141) / 990);
    stretchContrast(px);
    expect(px[0]).toBe(0); // below the low percentile: clipped
    expect(px[999]).toBe(255);
    expect(px[20]).toBeLessThan(10);
    expect(px[980]).toBeGreaterThan(245);
    for (let i = 1; i < 1000; i++) expect(px[i]).toBeGreaterThanOrEqual(px[i - 1]); // order kept
  });

  it('leaves a flat image alone', () => {
    const px = new Uint8Array(500).fill(128);
    stretchContrast(px);
    expect([...new Set(px)]).toEqual([128]);
  });
});
