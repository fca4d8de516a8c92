import { type Canvas, createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import { type Box, QuireError } from '@quire/core';
import type { Matrix } from './matrix.js';
import { type PDFPageProxy, loadPdfjs } from './pdfjs.js';
import { PdfiumDocument, type PixelFormat, type Raster } from './pdfium.js';
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

/** Which engine draws pages that are not one image: PDFium (default), or pdf.js on @napi-rs/canvas. */
export type RasterEngine = 'pdfium' | 'pdfjs';

/**
 * Draws pages of one document for renderPage. With 'pdfium' the document's bytes are opened in
 * PDFium on the first page that needs drawing (text-layer pages never do); a document or page PDFium
 * cannot read, or whose size PDFium sees differently from pdf.js (whose geometry every box in the
 * output uses), is drawn by pdf.js on the canvas instead. Close it with the document.
 */
export class PageRasterizer {
  private opened: Promise<PdfiumDocument | undefined> | undefined;
  private closed = false;

  constructor(private readonly bytes: Uint8Array, readonly engine: RasterEngine = 'pdfium') {}

  /** The page's pixels from PDFium; undefined where the canvas must draw it. */
  async draw(page: PDFPageProxy, opts: RenderOptions, format: PixelFormat): Promise<Raster | undefined> {
    if (this.engine !== 'pdfium' || this.closed) return undefined;
    const { scale, x, y, w, h } = checkedSize(page, opts);
    this.opened ??= PdfiumDocument.open(this.bytes).catch(() => undefined);
    const doc = await this.opened;
    if (!doc || this.closed) return undefined;
    const base = page.getViewport({ scale: 1 });
    const fullWidth = Math.round(base.width * scale), fullHeight = Math.round(base.height * scale);
    try {
      return await doc.render(page.pageNumber, (size) => (
        Math.abs(size.width - base.width) > 1 || Math.abs(size.height - base.height) > 1 ? undefined : { fullWidth, fullHeight, x, y, w, h }
      ), format);
    } catch {
      // PDFium failed inside (pdfium.ts lets that module go): the canvas draws the rest of this document
      this.opened = Promise.resolve(undefined);
      return undefined;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    (await this.opened)?.close();
  }
}

/**
 * Renders a page (or a crop of it) to PNG. A crop is rendered directly: only the region is drawn, so a
 * small figure crop at high DPI never allocates a full-page raster. Form fields are drawn (pdf.js:
 * AnnotationMode.ENABLE, as its default ENABLE_FORMS leaves them to an HTML layer we do not have;
 * PDFium: FPDF_ANNOT) on white.
 * `image`: the page is known to draw only this one image (see single-image.ts): its pixels are used
 * as they are when it is axis-aligned. Otherwise `rasterizer` draws the page, or pdf.js's canvas.
 */
export async function renderPage(page: PDFPageProxy, opts: RenderOptions, image?: SingleImage, rasterizer?: PageRasterizer): Promise<RenderedPng> {
  const raster = (image && await rasterOfImage(page, opts, image)) || await rasterizer?.draw(page, opts, opts.grey ? 'grey' : 'rgb');
  if (raster) {
    let img = sharp(raster.data, { raw: { width: raster.width, height: raster.height, channels: raster.channels } });
    if (opts.grey && raster.channels !== 1) img = img.greyscale();
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
export async function renderPageRgba(page: PDFPageProxy, opts: RenderOptions, image?: SingleImage, rasterizer?: PageRasterizer): Promise<RenderedRgba> {
  const raster = image && await rasterOfImage(page, opts, image);
  if (raster) {
    const rgba = await sharp(raster.data, { raw: { width: raster.width, height: raster.height, channels: raster.channels } })
      .toColourspace('srgb').ensureAlpha(1).raw().toBuffer();
    return { rgba: new Uint8Array(rgba.buffer, rgba.byteOffset, rgba.byteLength), width: raster.width, height: raster.height };
  }
  const drawn = await rasterizer?.draw(page, opts, 'rgba');
  if (drawn) return { rgba: drawn.data, width: drawn.width, height: drawn.height };
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
