import { degrade, renderPaperForm, renderRuledTable, type RuledScan, type TruthLine } from '../../../tests/fixtures/scans/ruled.js';
import { detectRulings, rulingsToRaw, type PixelLine } from './rulings.js';

const TABLE = [
  ['Region', 'Units', 'Revenue', 'Margin'],
  ['North', '4,380', '$91,200', '12%'],
  ['South', '3,915', '$80,470', '9%'],
  ['East', '5,002', '$104,310', '14%'],
  ['West', '2,774', '$57,880', '7%'],
];

/** Each truth line matched by a detected line of the same direction within `tol` pixels (position and ends). */
function matchLines(truth: TruthLine[], found: PixelLine[], map: (x: number, y: number) => [number, number], dir: 'h' | 'v', tol: number) {
  let matched = 0;
  const misses: TruthLine[] = [];
  for (const t of truth) {
    const [ax, ay] = map(t.x0, t.y0), [bx, by] = map(t.x1, t.y1);
    const ok = found.some((f) => dir === 'h'
      ? Math.abs((f.y0 + f.y1) / 2 - (ay + by) / 2) <= tol && Math.abs(f.x0 - ax) <= tol && Math.abs(f.x1 - bx) <= tol
      : Math.abs((f.x0 + f.x1) / 2 - (ax + bx) / 2) <= tol && Math.abs(f.y0 - ay) <= tol && Math.abs(f.y1 - by) <= tol);
    if (ok) matched++; else misses.push(t);
  }
  return { matched, misses };
}

async function check(scan: RuledScan, d: Parameters<typeof degrade>[1], tol: number) {
  const { grey, map } = await degrade(scan, d);
  const r = detectRulings(grey, { skewDeg: d.skewDeg ?? 0, pxPerPt: scan.dpi / 72 });
  // rules come out deskewed about the image centre: the drawing recentred on the (grown) canvas
  const upright = (x: number, y: number): [number, number] => [x - scan.width / 2 + grey.width / 2, y - scan.height / 2 + grey.height / 2];
  const h = matchLines(scan.horizontal, r.horizontal, upright, 'h', tol);
  const v = matchLines(scan.vertical, r.vertical, upright, 'v', tol);
  return { r, h, v, grey, map };
}

describe('raster ruling detection', () => {
  test('a clean ruled table: every rule found within 2 px, nothing else, at 300 DPI', async () => {
    const scan = await renderRuledTable({ cells: TABLE, colWidthsIn: [1.6, 1.2, 1.5, 1.1], title: 'Quarterly results by region' });
    const { r, h, v } = await check(scan, {}, 2);
    expect(h.misses).toEqual([]);
    expect(v.misses).toEqual([]);
    expect(r.horizontal).toHaveLength(scan.horizontal.length);
    expect(r.vertical).toHaveLength(scan.vertical.length);
    expect(r.squares).toEqual([]);
  });

  test.each([
    ['skewed 0.8°, blurred, speckled', { skewDeg: 0.8, blur: 1, noise: 0.01, seed: 3 }],
    ['skewed -1.5°', { skewDeg: -1.5, blur: 0.7, noise: 0.003, seed: 5 }],
  ])('a %s table: rules within 4 px of the truth', async (_name, d) => {
    const scan = await renderRuledTable({ cells: TABLE, colWidthsIn: [1.6, 1.2, 1.5, 1.1] });
    const { r, h, v } = await check(scan, d, 4);
    expect(h.misses).toEqual([]);
    expect(v.misses).toEqual([]);
    // speckle and text make no extra rules
    expect(r.horizontal.length).toBeLessThanOrEqual(scan.horizontal.length);
    expect(r.vertical.length).toBeLessThanOrEqual(scan.vertical.length);
  });

  test('a paper form: fill lines, boxes, comb dividers (short, bridging two rules) and both checkboxes, the ticked one marked', async () => {
    const scan = await renderPaperForm();
    const { r, h, v, map } = await check(scan, { blur: 0.8, noise: 0.004, seed: 9 }, 3);
    expect(h.misses).toEqual([]);
    // checkbox sides are not rules of their own; every other vertical (box sides, comb dividers) is
    expect(v.misses).toEqual([]);
    expect(r.squares).toHaveLength(2);
    for (const s of scan.squares) {
      const [x0, y0] = map(s.x0, s.y0), [x1, y1] = map(s.x1, s.y1);
      const f = r.squares.find((q) => Math.abs(q.x0 - x0) <= 3 && Math.abs(q.y0 - y0) <= 3 && Math.abs(q.x1 - x1) <= 3 && Math.abs(q.y1 - y1) <= 3);
      expect(f).toBeDefined();
      expect(f!.ink >= 0.06).toBe(s.ticked);
    }
  });

  test('text alone (no rules) gives no lines, even in a bold serif-like heavy face', async () => {
    const scan = await renderRuledTable({ cells: [['mmmmmmmmmmmm nnnnnnnnnnnn', 'IIIIIIIIII llllllllll', '— = + T E Z', '']], colWidthsIn: [3, 2, 1.5, 0.1], fontPt: 14 });
    const { grey } = await degrade(scan, {});
    // blank out the rules, keep the text
    const r0 = detectRulings(grey, { pxPerPt: 300 / 72 });
    const ruleYs = r0.horizontal.map((l) => l.y0);
    const clean = new Uint8Array(grey.data);
    for (const l of [...r0.horizontal, ...r0.vertical]) {
      for (let y = Math.floor(Math.min(l.y0, l.y1) - l.thickness); y <= Math.ceil(Math.max(l.y0, l.y1) + l.thickness); y++) {
        for (let x = Math.floor(Math.min(l.x0, l.x1) - l.thickness); x <= Math.ceil(Math.max(l.x0, l.x1) + l.thickness); x++) clean[y * grey.width + x] = 255;
      }
    }
    expect(ruleYs.length).toBe(2);
    const r = detectRulings({ ...grey, data: clean }, { pxPerPt: 300 / 72 });
    expect(r.horizontal).toEqual([]);
    expect(r.vertical).toEqual([]);
    expect(r.squares).toEqual([]);
  });

  test('rulingsToRaw: normalized axis-parallel segments and a stroked square with a dark mark inside when ticked', () => {
    const raw = rulingsToRaw({
      horizontal: [{ x0: 100, y0: 200, x1: 1100, y1: 210, thickness: 4 }],
      vertical: [{ x0: 300, y0: 100, x1: 290, y1: 900, thickness: 4 }],
      squares: [{ x0: 500, y0: 500, x1: 540, y1: 540, thickness: 4, ink: 0.2 }],
      threshold: 128,
    }, { width: 2000, height: 1000 }, { widthPt: 800, heightPt: 400 });
    expect(raw.segments[0]).toEqual({ x0: 0.05, y0: 0.205, x1: 0.55, y1: 0.205, width: 0.002 });
    expect(raw.segments[1]).toEqual({ x0: 0.1475, y0: 0.1, x1: 0.1475, y1: 0.9, width: 0.002 });
    expect(raw.segments).toHaveLength(6);
    expect(raw.rects[0]).toEqual({ box: { x0: 0.25, y0: 0.5, x1: 0.27, y1: 0.54 }, filled: false, stroked: true });
    expect(raw.rects[1]).toMatchObject({ filled: true, stroked: false, fill: [0, 0, 0] });
  });
});
