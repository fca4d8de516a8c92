import { pageSizePt } from './page-size.js';

describe('pageSizePt', () => {
  it('uses a recorded density', () => {
    expect(pageSizePt(1700, 2200, 200, 14_400)).toEqual({ widthPt: 612, heightPt: 792, dpi: 200 });
  });
  it('takes a large image without density as a 300 DPI scan', () => {
    expect(pageSizePt(2550, 3300, 72, 14_400)).toEqual({ widthPt: 612, heightPt: 792, dpi: 300 });
  });
  it('takes a small image without density at 1 px = 1 pt', () => {
    expect(pageSizePt(762, 1000, undefined, 14_400)).toEqual({ widthPt: 762, heightPt: 1000, dpi: 72 });
  });
  it('raises the density instead of producing a page over the side limit', () => {
    const s = pageSizePt(100_000, 1000, 150, 14_400);
    expect(s.widthPt).toBeCloseTo(14_400, 6);
  });
});
