import type { RawImage, RawPath, RawRect, RawSegment } from '@quire/core';
import { clusterDrawings } from './clusters.js';
import { type Matrix, applyMatrix, multiply, normalizedBox } from './matrix.js';
import { type OperatorListLike, type Rgb, walkPaint } from './painting.js';
import { type PathSink, classifyPath } from './paths.js';

export interface VectorContent { segments: RawSegment[]; rects: RawRect[]; paths: RawPath[]; images: RawImage[] }

/** Caps per page: a pathological page (millions of hatch strokes) must not blow up memory. */
const MAX_SEGMENTS = 20_000, MAX_RECTS = 20_000, MAX_IMAGES = 2_000, MAX_PATHS = 5_000, MAX_PATH_NUMBERS = 200_000;
const MIN_IMAGE_SIDE = 2; // points

/**
 * Reads a page's drawing for extraction from the shared operator-list walk (walkPaint): straight
 * rulings, rectangles, raster image placements and clusters of curves/diagonals (vector drawings).
 * `viewport` maps user space to displayed page points.
 */
export function extractVector(ops: OperatorListLike, OPS: Record<string, number>, viewport: Matrix, W: number, H: number, shadingOf: (id: string) => unknown = () => undefined): VectorContent {
  const sink: PathSink = { segments: [], rects: [], paths: [], pieces: [], straightCentres: [] };
  const images: RawImage[] = [];
  walkPaint(ops, OPS, viewport, {
    path: (p) => classifyPath(p.subpaths, { stroked: p.stroked, filled: p.filled, lineWidth: p.lineWidth, fill: round3(p.fill), stroke: round3(p.stroke), clip: p.clip }, { width: W, height: H }, sink),
    image: (m, clip) => {
      const t = multiply(viewport, m);
      const pts = [applyMatrix(t, 0, 0), applyMatrix(t, 1, 0), applyMatrix(t, 1, 1), applyMatrix(t, 0, 1)];
      let box = normalizedBox(pts, W, H);
      if (clip) { // an image shows only inside the clipping path
        const [cx0, cy0, cx1, cy1] = clip;
        box = { x0: Math.max(box.x0, cx0 / W), y0: Math.max(box.y0, cy0 / H), x1: Math.min(box.x1, cx1 / W), y1: Math.min(box.y1, cy1 / H) };
        if (box.x1 <= box.x0 || box.y1 <= box.y0) return;
      }
      if ((box.x1 - box.x0) * W < MIN_IMAGE_SIDE || (box.y1 - box.y0) * H < MIN_IMAGE_SIDE) return;
      // some producers paint the same image twice (e.g. once per optional-content state): keep one
      if (images.length < MAX_IMAGES && !images.some((im) => sameBox(im.box, box))) images.push({ box, kind: 'raster' });
    },
    shading: (clip, region, id) => {
      // a gradient painted through the current clip (gradient-filled bars, areas, sectors, legend keys)
      if (!clip || sink.paths.length >= MAX_PATHS) return;
      const [x0, y0, x1, y1] = clip;
      if (x1 - x0 < 0.5 || y1 - y0 < 0.5 || (x1 - x0) * (y1 - y0) > 0.9 * W * H) return;
      // its colour: the mean of the gradient's stops, the same for a mark and its legend key painted alike
      const fill = round3(id ? meanStopColour(shadingOf(id)) : undefined);
      const first = sink.paths.length;
      if (region) {
        // the outline it fills (a sector, an area): kept as a filled path like any other
        classifyPath(region, { stroked: false, filled: true, lineWidth: 0, fill, clip }, { width: W, height: H }, sink);
        for (let k = first; k < sink.paths.length; k++) sink.paths[k].shading = true;
        return;
      }
      const r = (v: number, d: number) => Math.round((v / d) * 1e6) / 1e6;
      sink.paths.push({ subpaths: [[r(x0, W), r(y0, H), r(x1, W), r(y0, H), r(x1, W), r(y1, H), r(x0, W), r(y1, H), r(x0, W), r(y0, H)]], closed: [true], filled: true, stroked: false, curved: false, shading: true, ...(fill ? { fill } : {}) });
    },
  });
  const drawings = clusterDrawings(sink.pieces, sink.straightCentres, W, H);
  return {
    segments: sink.segments.slice(0, MAX_SEGMENTS),
    rects: sink.rects.slice(0, MAX_RECTS),
    paths: capPaths(sink.paths),
    images: [...images, ...drawings],
  };
}

/**
 * The mean colour along an axial or radial shading (pdf.js's pattern IR: ['RadialAxial', type, bbox,
 * [[offset, '#rrggbb'], …], …], its function sampled into linear pieces): each piece weighted by its
 * length. A mark and its legend key painted with one gradient get one colour. Undefined for other
 * shadings (meshes) or when the object is not there.
 */
function meanStopColour(ir: unknown): Rgb | undefined {
  if (!Array.isArray(ir) || ir[0] !== 'RadialAxial' || !Array.isArray(ir[3])) return undefined;
  // stops outside the extended range are 'transparent' (no colour): left out
  const stops = (ir[3] as unknown[]).flatMap((st) => (Array.isArray(st) && typeof st[0] === 'number' && typeof st[1] === 'string' && /^#[0-9a-f]{6}$/i.test(st[1])
    ? [{ at: st[0], rgb: [0, 8, 16].map((sh) => ((parseInt(st[1].slice(1), 16) >> (16 - sh)) & 255) / 255) }] : []));
  if (!stops.length) return undefined;
  const span = stops[stops.length - 1].at - stops[0].at;
  if (!(span > 0)) return stops[0].rgb as Rgb;
  const mean: Rgb = [0, 0, 0];
  for (let i = 1; i < stops.length; i++) {
    const w = (stops[i].at - stops[i - 1].at) / span;
    for (let c = 0; c < 3; c++) mean[c] += (w * (stops[i].rgb[c] + stops[i - 1].rgb[c])) / 2;
  }
  return mean;
}

/** Extraction reports colours to three decimals (stable across producers' rounding of the same colour). */
const round3 = (c: Rgb | undefined): Rgb | undefined => c && [r3(c[0]), r3(c[1]), r3(c[2])];
const r3 = (x: number) => Math.round(x * 1000) / 1000;

/** Painted paths kept for chart reading, within a count and a coordinate budget (maps and hatching stop early). */
function capPaths(paths: RawPath[]): RawPath[] {
  const out: RawPath[] = [];
  let numbers = 0;
  for (const p of paths) {
    numbers += p.subpaths.reduce((n, sp) => n + sp.length, 0);
    if (out.length >= MAX_PATHS || numbers > MAX_PATH_NUMBERS) break;
    out.push(p);
  }
  return out;
}

const sameBox = (a: RawImage['box'], b: RawImage['box']) =>
  Math.abs(a.x0 - b.x0) < 1e-4 && Math.abs(a.y0 - b.y0) < 1e-4 && Math.abs(a.x1 - b.x1) < 1e-4 && Math.abs(a.y1 - b.y1) < 1e-4;
