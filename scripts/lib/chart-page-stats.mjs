// What a page's drawing holds, for the charts eval's "not found" diagnostics: counts of the operators
// LibreOffice-style chart variants use (form XObjects, shadings, transparency, patterns, curves) and of
// the chart parts extraction kept (paths, closed shapes, drawing clusters). Callers report these in
// aggregate only (how many not-found charts show each feature), never per file.
import { loadPdfjs, openDocument, readPdf } from '../../packages/formats/pdf/dist/index.js';
import { chartGraphics } from '../../packages/layout/dist/charts/marks.js';
import { findValueAxes } from '../../packages/layout/dist/charts/axes.js';

const CURVE = 2; // pdf.js DrawOPS code of a curve-to in constructPath data

/** Operator-level counts for one page (1-indexed) of a PDF. */
async function operatorStats(bytes, pageNumber) {
  const pdfjs = await loadPdfjs();
  const OPS = pdfjs.OPS;
  const doc = await openDocument(bytes);
  try {
    const page = await doc.getPage(pageNumber);
    const ops = await page.getOperatorList({ annotationMode: pdfjs.AnnotationMode.DISABLE });
    const s = { shading_axial: 0, shading_radial: 0, shading_Mesh: 0, shading_Dummy: 0, shading_unresolved: 0, shadingStops: 0, paths: 0, filledPaths: 0, strokedPaths: 0, curves: 0, clipPaths: 0, shadings: 0, forms: 0, groups: 0, alpha: 0, softMasks: 0, patternFills: 0, images: 0 };
    const fills = new Set([OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
    const strokes = new Set([OPS.stroke, OPS.closeStroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
    let clipNext = false;
    for (let i = 0; i < ops.fnArray.length; i++) {
      const fn = ops.fnArray[i], args = ops.argsArray[i];
      if (fn === OPS.constructPath) {
        const paint = Number(args?.[0]), data = args?.[1]?.[0];
        if (fills.has(paint)) s.filledPaths++;
        if (strokes.has(paint)) s.strokedPaths++;
        if (fills.has(paint) || strokes.has(paint)) s.paths++;
        else if (clipNext) s.clipPaths++;
        clipNext = false;
        // count curve-to codes (each is followed by 6 numbers)
        for (let k = 0; data && k < data.length;) {
          const op = data[k++];
          if (op === CURVE) { s.curves++; k += 6; } else if (op === 0 || op === 1) k += 2; else if (op === 3) k += 4; else if (op !== 4) break;
        }
      } else if (fn === OPS.clip || fn === OPS.eoClip) clipNext = true;
      else if (fn === OPS.shadingFill) {
        s.shadings++;
        const ir = typeof args?.[0] === 'string' && page.objs.has(args[0]) ? page.objs.get(args[0]) : null;
        const kind = Array.isArray(ir) ? (ir[0] === 'RadialAxial' ? ir[1] : ir[0]) : 'unresolved';
        s[`shading_${kind}`] = (s[`shading_${kind}`] ?? 0) + 1;
        if (Array.isArray(ir) && ir[0] === 'RadialAxial') s.shadingStops = Math.max(s.shadingStops ?? 0, ir[3]?.length ?? 0);
      }
      else if (fn === OPS.paintFormXObjectBegin) s.forms++;
      else if (fn === OPS.beginGroup) s.groups++;
      else if (fn === OPS.setFillColorN || fn === OPS.setStrokeColorN) s.patternFills++;
      else if (fn === OPS.paintImageXObject || fn === OPS.paintInlineImageXObject || fn === OPS.paintImageMaskXObject) s.images++;
      else if (fn === OPS.setGState && Array.isArray(args?.[0])) {
        for (const [k, v] of args[0]) {
          if ((k === 'ca' || k === 'CA') && typeof v === 'number' && v < 1) s.alpha++;
          if (k === 'SMask' && v) s.softMasks++;
        }
      }
    }
    return s;
  } finally {
    await doc.destroy();
  }
}

/** Extraction-level counts: what the vector layer kept on the page and what the chart reader sees in it. */
async function extractionStats(bytes, pageNumber) {
  const { pages } = await readPdf(bytes, { pages: [pageNumber] });
  const raw = pages[0];
  const g = chartGraphics(raw);
  const axes = findValueAxes(raw.words, g.rules);
  const big = (b) => (b.x1 - b.x0) * (b.y1 - b.y0) > 0.02;
  return {
    xAxes: axes.filter((a) => a.along === 'x').length, yAxes: axes.filter((a) => a.along === 'y' && !a.side).length,
    largeBoxes: g.boxes.filter((b) => big(b.box)).length, largeShapes: g.shapes.filter((s) => big(s.box)).length,
    gradientBoxes: g.boxes.filter((b) => b.colour.startsWith('gradient')).length,
    gradientColours: new Set([...g.boxes, ...g.shapes].map((m) => m.colour).filter((c) => c.startsWith('gradient'))).size, gradientShapes: g.shapes.filter((s) => s.colour.startsWith('gradient')).length,
    keptPaths: raw.paths?.length ?? 0,
    shadingBoxes: (raw.paths ?? []).filter((p) => p.shading).length,
    vectorClusters: raw.images.filter((im) => im.kind === 'vector').length,
    rasterImages: raw.images.filter((im) => im.kind !== 'vector').length,
    boxes: g.boxes.length, lines: g.lines.length, shapes: g.shapes.length,
    curvedShapes: g.shapes.filter((s) => s.curved).length,
    shapeColours: new Set(g.shapes.map((s) => s.colour)).size,
    words: raw.words.length,
  };
}

export async function pageStats(bytes, pageNumber) {
  return { ...(await operatorStats(bytes.slice(), pageNumber)), ...(await extractionStats(bytes.slice(), pageNumber)) };
}

const bucket = (n) => (n === 0 ? '0' : n < 10 ? '1-9' : n < 100 ? '10-99' : '100+');

/** Aggregate over many pages' stats: per measure, how many pages fall in each bucket (0, 1-9, 10-99, 100+). */
export function aggregateStats(list) {
  if (!list.length) return 'none';
  const keys = Object.keys(list[0]);
  return keys.map((k) => {
    const counts = new Map();
    for (const s of list) counts.set(bucket(s[k]), (counts.get(bucket(s[k])) ?? 0) + 1);
    return `${k} ${['0', '1-9', '10-99', '100+'].filter((b) => counts.has(b)).map((b) => `[${b}]×${counts.get(b)}`).join(' ')}`;
  }).join('; ');
}
