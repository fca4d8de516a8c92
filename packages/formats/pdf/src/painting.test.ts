import {
  PDFDocument, beginMarkedContent, concatTransformationMatrix, closePath, endMarkedContent, fill, lineTo, moveTo, popGraphicsState,
  pushGraphicsState, rectangle, rgb, setFillingRgbColor, setLineWidth, setStrokingRgbColor, stroke,
} from 'pdf-lib';
import { IDENTITY } from './matrix.js';
import { type PaintedPath, pageHasImages, walkPaint } from './painting.js';
import { loadPdfjs, openDocument } from './pdfjs.js';
import { makePng } from '../../../../tests/fixtures/pdf/documents.js';

/** The painted paths of page 1, in PDF user space (identity viewport), tag "Flag" flagged. */
async function paintedPaths(bytes: Uint8Array): Promise<{ paths: PaintedPath[]; images: boolean }> {
  const { OPS, AnnotationMode } = await loadPdfjs();
  const doc = await openDocument(bytes);
  try {
    const page = await doc.getPage(1);
    const ops = await page.getOperatorList({ annotationMode: AnnotationMode.DISABLE });
    const paths: PaintedPath[] = [];
    walkPaint(ops, OPS as unknown as Record<string, number>, IDENTITY, { path: (p) => paths.push(p) }, { flagTags: new Set(['Flag']) });
    return { paths, images: await pageHasImages(page) };
  } finally { await doc.destroy(); }
}

describe('walkPaint: the drawing as painted', () => {
  test('gives paint, colour, scaled line width, marked-content flags and closing edges', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    page.pushOperators(
      setFillingRgbColor(1, 0.5, 0), rectangle(100, 100, 50, 20), fill(),
      pushGraphicsState(), concatTransformationMatrix(2, 0, 0, 2, 0, 0), setLineWidth(2), setStrokingRgbColor(0, 0, 1),
      beginMarkedContent('Flag'), moveTo(10, 10), lineTo(60, 10), lineTo(60, 40), closePath(), stroke(), endMarkedContent(),
      popGraphicsState(),
      moveTo(10, 300), lineTo(200, 300), stroke(),
    );
    const { paths, images } = await paintedPaths(await doc.save());
    expect(paths).toHaveLength(3);
    const [box, triangle, rule] = paths;
    expect(box).toMatchObject({ filled: true, stroked: false, flagged: false });
    expect(box.fill).toEqual([1, 128 / 255, 0]); // exact 8-bit colour, not rounded
    expect(triangle).toMatchObject({ filled: false, stroked: true, lineWidth: 4, stroke: [0, 0, 1], flagged: true });
    expect(triangle.subpaths[0].edges[0].b).toEqual([120, 20]); // in the viewport's points, through cm
    const edges = triangle.subpaths[0].edges;
    expect(triangle.subpaths[0].closed).toBe(true);
    expect(edges.map((e) => !!e.closing)).toEqual([false, false, true]);
    expect(rule).toMatchObject({ stroked: true, lineWidth: 1, flagged: false }); // restored after Q
    expect(rule.stroke).toBeUndefined();
    expect(images).toBe(false);
  });

  test('pageHasImages sees a placed raster image', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    page.drawImage(await doc.embedPng(await makePng(20, 20)), { x: 10, y: 10, width: 100, height: 100 });
    page.drawRectangle({ x: 200, y: 200, width: 10, height: 10, color: rgb(0, 0, 0) });
    expect((await paintedPaths(await doc.save())).images).toBe(true);
  });
});
