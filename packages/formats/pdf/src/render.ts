import { type Canvas, createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import { type Box, QuireError } from '@quire/core';
import type { Matrix } from './matrix.js';
import { type PDFPageProxy, loadPdfjs } from './pdfjs.js';
import { type DecodedImage, type ImageRaster, type SingleImage, findSingleImage, rasterFromImage } from './single-image.js';

export interface RenderOptions {
  dpi: number;
  /** Normalized crop region (0..1, top-left origin, page as displayed); the whole page when absent. */
  box?: Box;
  /** Greyscale output (OCR input): smaller and faster to encode. */
  grey?: boolean;
  maxPixels: number;
}

export interface RenderedPng { png: Uint8Array; width: number; height: number }
/** Raw pixels: `rgba` holds width × height × 4 bytes, row by row, opaque (rendered on white). */
export interface RenderedRgba { rgba: Uint8Array; width: number; height: number }

/** Pixel size of a render of `page` at `dpi`, cropped to `box` when given. */
export function renderSize(widthPt: number, heightPt: number, dpi: number, box?: Box) {
  const scale = dpi / 72;
  const fw = widthPt * scale, fh = heightPt * scale;
  const b = box ?? { x0: 0, y0: 0, x1: 1, y1: 1 };
  // the epsilon keeps float noise (792 × 300/72 = 3300.0000000005) from adding a pixel row
  const x = Math.floor(clamp01(b.x0) * fw + 1e-6), y = Math.floor(clamp01(b.y0) * fh + 1e-6);
  const w = Math.max(1, Math.ceil(clamp01(b.x1) * fw - 1e-6) - x), h = Math.max(1, Math.ceil(clamp01(b.y1) * fh - 1e-6) - y);
  return { scale, x, y, w, h };
}

/**
 * Renders a page (or a crop of it) to PNG. The crop is rendered directly: the viewport is shifted so
 * the region lands at the canvas origin and the canvas is only as large as the region, so a small
 * figure crop at high DPI never allocates a full-page raster. Form fields are drawn
 * (AnnotationMode.ENABLE; the default ENABLE_FORMS leaves them to an HTML layer we do not have) on white.
 * `image`: the page is known to draw only this one image (see single-image.ts): its pixels are used
 * without a canvas when it is axis-aligned.
 */
export async function renderPage(page: PDFPageProxy, opts: RenderOptions, image?: SingleImage): Promise<RenderedPng> {
  const raster = image && await rasterOfImage(page, opts, image);
  if (raster) {
    let img = sharp(raster.data, { raw: { width: raster.width, height: raster.height, channels: raster.channels } });
    if (opts.grey && raster.channels === 3) img = img.greyscale();
    const png = await img.png({ compressionLevel: opts.grey ? 1 : 6 }).toBuffer();
    return { png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), width: raster.width, height: raster.height };
  }
  const { canvas, w, h } = await drawPage(page, opts);
  const data = canvas.data();
  canvasOfPixels.set(data.buffer, canvas); // see renderPageRgba: the canvas must outlive the encoding
  let img = sharp(data, { raw: { width: w, height: h, channels: 4 } }).removeAlpha();
  if (opts.grey) img = img.greyscale();
  const png = await img.png({ compressionLevel: opts.grey ? 1 : 6 }).toBuffer();
  return { png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), width: w, height: h };
}

/** renderPage without the PNG encoding (opts.grey is ignored: the pixels are RGBA). */
export async function renderPageRgba(page: PDFPageProxy, opts: RenderOptions, image?: SingleImage): Promise<RenderedRgba> {
  const raster = image && await rasterOfImage(page, opts, image);
  if (raster) {
    const rgba = await sharp(raster.data, { raw: { width: raster.width, height: raster.height, channels: raster.channels } })
      .toColourspace('srgb').ensureAlpha(1).raw().toBuffer();
    return { rgba: new Uint8Array(rgba.buffer, rgba.byteOffset, rgba.byteLength), width: raster.width, height: raster.height };
  }
  const { canvas, w, h } = await drawPage(page, opts);
  // data() (where @napi-rs/canvas also rasterizes the recorded drawing) is a view of the canvas's own
  // pixel memory, freed with the canvas: a view handed on after the canvas became unreachable crashed
  // the process (SIGSEGV after a few 300 DPI pages). Copying 34 MB out costs 20-40 ms a page, so the
  // canvas is tied to the view's ArrayBuffer instead: it lives as long as anything can read the pixels.
  const data = canvas.data();
  canvasOfPixels.set(data.buffer, canvas);
  return { rgba: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: w, height: h };
}

/** Pixel memory → the canvas owning it (a WeakMap keeps the canvas while its key is reachable). */
const canvasOfPixels = new WeakMap<ArrayBufferLike, Canvas>();

/**
 * The one image the page draws, when that is all it draws as rendered (form fields included), from
 * the operator list the renderer would use; undefined otherwise.
 */
export async function singleImageOf(page: PDFPageProxy): Promise<SingleImage | undefined> {
  const pdfjs = await loadPdfjs();
  const ops = await page.getOperatorList({ annotationMode: pdfjs.AnnotationMode.ENABLE });
  return findSingleImage(ops, pdfjs.OPS as unknown as Record<string, number>);
}

/** The render as the image's own pixels, placed; undefined when the canvas must draw it. */
async function rasterOfImage(page: PDFPageProxy, opts: RenderOptions, image: SingleImage): Promise<ImageRaster | undefined> {
  const { x, y, w, h, scale } = checkedSize(page, opts);
  const store = image.objId.startsWith('g_') ? page.commonObjs : page.objs;
  const decoded = await new Promise<DecodedImage | null>((resolve) => store.get(image.objId, resolve as (d: unknown) => void));
  if (!decoded || (decoded as { bitmap?: unknown }).bitmap) return undefined;
  const viewport = page.getViewport({ scale, offsetX: -x, offsetY: -y });
  return rasterFromImage(decoded, image, viewport.transform as Matrix, w, h);
}

function checkedSize(page: PDFPageProxy, opts: RenderOptions) {
  if (!(opts.dpi > 0 && opts.dpi <= 2400)) throw new QuireError('REQ_003', `Invalid render resolution: ${opts.dpi} DPI`);
  if (opts.box && !(opts.box.x1 > opts.box.x0 && opts.box.y1 > opts.box.y0)) throw new QuireError('REQ_003', 'Invalid crop region');
  const base = page.getViewport({ scale: 1 });
  const size = renderSize(base.width, base.height, opts.dpi, opts.box);
  if (size.w * size.h > opts.maxPixels) {
    throw new QuireError('REQ_003', `Rendering page ${page.pageNumber} at ${opts.dpi} DPI needs ${size.w}×${size.h} pixels, over the limit of ${opts.maxPixels}`, { page: page.pageNumber, pixels: size.w * size.h, maxPixels: opts.maxPixels });
  }
  return size;
}

async function drawPage(page: PDFPageProxy, opts: RenderOptions): Promise<{ canvas: Canvas; w: number; h: number }> {
  const { scale, x, y, w, h } = checkedSize(page, opts);
  const pdfjs = await loadPdfjs();
  const viewport = page.getViewport({ scale, offsetX: -x, offsetY: -y });
  const canvas = createCanvas(w, h);
  await page.render({
    canvas: canvas as unknown as Parameters<PDFPageProxy['render']>[0]['canvas'],
    viewport,
    background: 'white',
    annotationMode: pdfjs.AnnotationMode.ENABLE,
  }).promise;
  return { canvas, w, h };
}

/** Highest DPI ≤ `dpi` whose full-page render stays within maxPixels. */
export function fitDpi(widthPt: number, heightPt: number, dpi: number, maxPixels: number): number {
  const { w, h } = renderSize(widthPt, heightPt, dpi);
  if (w * h <= maxPixels) return dpi;
  return Math.floor(dpi * Math.sqrt(maxPixels / (w * h)) * 0.999);
}

const clamp01 = (n: number) => (n < 0 ? 0 : n > 1 ? 1 : n);
