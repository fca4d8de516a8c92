import type { RawPage, RawSegment } from '@quire/core';
import { readPdf } from './index.js';
import { makeInlineImagePdf, makeMixedContentPdf } from '../../../../tests/fixtures/pdf/documents.js';

const W = 612, H = 792;
const horizontal = (s: RawSegment) => Math.abs(s.y1 - s.y0) < 1e-4;

/** Asserts the 3×3 grid of the fixtures: rules at x = 100..400 and y = 600..300 (PDF units). */
function expectGrid(p: RawPage) {
  const hs = p.segments.filter(horizontal), vs = p.segments.filter((s) => !horizontal(s));
  expect(hs).toHaveLength(4);
  expect(vs).toHaveLength(4);
  const ys = hs.map((s) => s.y0 * H).sort((a, b) => a - b);
  const xs = vs.map((s) => s.x0 * W).sort((a, b) => a - b);
  [192, 292, 392, 492].forEach((y, i) => expect(ys[i]).toBeCloseTo(y, 0));
  [100, 200, 300, 400].forEach((x, i) => expect(xs[i]).toBeCloseTo(x, 0));
  for (const s of hs) { expect(s.x0 * W).toBeCloseTo(100, 0); expect(s.x1 * W).toBeCloseTo(400, 0); }
  for (const s of vs) { expect(s.y0 * H).toBeCloseTo(192, 0); expect(s.y1 * H).toBeCloseTo(492, 0); }
  return { hs, vs };
}

describe('readPdf: vector content', () => {
  let pages: RawPage[];
  beforeAll(async () => { ({ pages } = await readPdf(await makeMixedContentPdf())); });

  test('stroked table rulings become horizontal and vertical segments with their width', () => {
    const { hs } = expectGrid(pages[1]);
    expect(hs[0].width * 792).toBeCloseTo(1, 1);
    expect(pages[1].rects).toEqual([]);
    expect(pages[1].images).toEqual([]);
  });

  test('rules drawn as thin filled rectangles appear as segments and as rects; fills keep their colour', () => {
    const p = pages[2];
    const { hs } = expectGrid(p);
    expect(hs[0].width * 792).toBeCloseTo(0.8, 1);
    const header = p.rects.find((r) => (r.box.y1 - r.box.y0) * H > 30);
    expect(header).toMatchObject({ filled: true, stroked: false });
    header!.fill!.forEach((c) => expect(c).toBeCloseTo(0.9, 2)); // pdf.js passes 8-bit colour
    expect(header!.box.x0 * W).toBeCloseTo(100, 0);
    expect(header!.box.y0 * H).toBeCloseTo(192, 0);
    expect(p.rects.filter((r) => r.fill?.every((c) => c === 0))).toHaveLength(8);
  });

  test('an embedded PNG is a raster image at its placement', () => {
    const imgs = pages[3].images;
    expect(imgs).toHaveLength(1);
    expect(imgs[0].kind).toBe('raster');
    expect(imgs[0].box.x0 * W).toBeCloseTo(100, 0);
    expect(imgs[0].box.x1 * W).toBeCloseTo(300, 0);
    expect(imgs[0].box.y0 * H).toBeCloseTo(192, 0);
    expect(imgs[0].box.y1 * H).toBeCloseTo(292, 0);
  });

  test('a plot of many diagonal segments and curves becomes one vector image; its axes stay segments', () => {
    const p = pages[4];
    const vec = p.images.filter((i) => i.kind === 'vector');
    expect(vec).toHaveLength(1);
    expect(vec[0].pathCount).toBeGreaterThanOrEqual(64); // 60 zig-zag strokes + 4 curves
    expect(vec[0].box.x0 * W).toBeCloseTo(100, 0);
    expect(vec[0].box.x1 * W).toBeCloseTo(400, 0);
    expect(vec[0].box.y1 * H).toBeCloseTo(392, 0);
    expect(p.segments).toHaveLength(2);
    // pages with text and rulings only have no drawings
    expect(pages[0].images).toEqual([]);
    expect(pages[1].images.filter((i) => i.kind === 'vector')).toEqual([]);
  });
});

test('an inline image is a raster image placed by the CTM', async () => {
  const { pages } = await readPdf(await makeInlineImagePdf());
  expect(pages[0].images).toHaveLength(1);
  const { box, kind } = pages[0].images[0];
  expect(kind).toBe('raster');
  expect([box.x0 * W, box.x1 * W, box.y0 * H, box.y1 * H].map(Math.round)).toEqual([200, 300, 792 - 350, 792 - 300]);
});

describe('readPdf: vector content inside form XObjects', () => {
  test('rulings drawn inside a scaled, moved form XObject land where the form puts them', async () => {
    const { PDFDocument } = await import('pdf-lib');
    const src = await makeMixedContentPdf();
    const doc = await PDFDocument.create();
    const [table] = await doc.embedPdf(src, [1]); // the ruled 3×3 table page as a form XObject
    doc.addPage([612, 792]).drawPage(table, { x: 50, y: 100, xScale: 0.5, yScale: 0.5 });
    const { pages } = await readPdf(await doc.save());
    const p = pages[0];
    const hs = p.segments.filter(horizontal), vs = p.segments.filter((s) => !horizontal(s));
    expect([hs.length, vs.length]).toEqual([4, 4]);
    // x 100..400 → 50 + 0.5·x = 100..250; y 300..600 → 100 + 0.5·y = 250..400 from the bottom
    const xs = vs.map((s) => s.x0 * W).sort((a, b) => a - b);
    [100, 150, 200, 250].forEach((x, i) => expect(xs[i]).toBeCloseTo(x, 0));
    for (const s of hs) { expect(s.x0 * W).toBeCloseTo(100, 0); expect(s.x1 * W).toBeCloseTo(250, 0); }
    expect(Math.min(...hs.map((s) => s.y0 * H))).toBeCloseTo(792 - 400, 0);
    expect(hs[0].width * 792).toBeCloseTo(0.5, 1);
    expect(p.words.find((w) => w.text === 'r0c0')!.fontSize).toBeCloseTo(5, 1);
  });
});

describe('readPdf: clipping', () => {
  test('drawings and images are cut to the clipping path they are painted in', async () => {
    const { PDFDocument, pushGraphicsState, popGraphicsState, rectangle, clip, endPath, moveTo, lineTo, stroke } = await import('pdf-lib');
    const { makePng } = await import('../../../../tests/fixtures/pdf/documents.js');
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const png = await doc.embedPng(await makePng(40, 40));
    // clip to x 100..300, y 400..600 (PDF units); 20 diagonal strokes and an image overflow it on both sides
    const ops = [pushGraphicsState(), rectangle(100, 400, 200, 200), clip(), endPath()];
    for (let i = 0; i < 20; i++) ops.push(moveTo(40, 410 + i * 9), lineTo(360, 420 + i * 9), stroke());
    page.pushOperators(...ops);
    page.drawImage(png, { x: 60, y: 450, width: 300, height: 100 });
    page.pushOperators(popGraphicsState());
    const { pages } = await readPdf(await doc.save());
    const vector = pages[0].images.find((i) => i.kind === 'vector')!;
    const raster = pages[0].images.find((i) => i.kind === 'raster')!;
    expect(vector.box.x0 * W).toBeCloseTo(100, 0);
    expect(vector.box.x1 * W).toBeCloseTo(300, 0);
    expect(raster.box.x0 * W).toBeCloseTo(100, 0);
    expect(raster.box.x1 * W).toBeCloseTo(300, 0);
    expect(raster.box.y0 * H).toBeCloseTo(792 - 550, 0);
  });
});

describe('readPdf: gradient fills', () => {
  test('a shading painted through a clipping outline is that outline, filled with the mean of its stops; through a rectangle, the rectangle', async () => {
    const { PDFDocument, PDFName, PDFOperator, pushGraphicsState, popGraphicsState, moveTo, lineTo, closePath, clip, endPath, rectangle } = await import('pdf-lib');
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const ctx = doc.context;
    const sh = ctx.register(ctx.obj({ ShadingType: 2, ColorSpace: 'DeviceRGB', Coords: [0, 0, 0, 100], Function: ctx.obj({ FunctionType: 2, Domain: [0, 1], C0: [1, 0, 0], C1: [0, 0, 1], N: 1 }) }));
    const { Resources } = page.node.normalizedEntries();
    const dict = ctx.obj({}) as import('pdf-lib').PDFDict;
    dict.set(PDFName.of('Sh1'), sh);
    Resources.set(PDFName.of('Shading'), dict);
    const paint = PDFOperator.of('sh' as never, [PDFName.of('Sh1')]);
    page.pushOperators(
      // a triangle set as the clip, then a clip to its box (the way an office suite exports a gradient fill)
      pushGraphicsState(), moveTo(100, 400), lineTo(300, 400), lineTo(200, 600), closePath(), clip(), endPath(),
      pushGraphicsState(), rectangle(100, 400, 200, 200), clip(), endPath(), paint, popGraphicsState(), popGraphicsState(),
      // a rectangle only
      pushGraphicsState(), rectangle(400, 100, 50, 80), clip(), endPath(), paint, popGraphicsState(),
    );
    const { pages } = await readPdf(await doc.save());
    const shaded = pages[0].paths!.filter((p) => p.shading);
    expect(shaded).toHaveLength(2);
    const [triangle, box] = shaded;
    expect(triangle.subpaths[0].length).toBe(8); // three corners and back to the start
    expect(triangle.fill).toEqual([0.5, 0, 0.5]);
    expect(box.subpaths[0].map((v, i) => Math.round(v * (i % 2 ? H : W)))).toEqual([400, 612, 450, 612, 450, 692, 400, 692, 400, 612]);
  });
});
