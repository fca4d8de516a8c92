import sharp, { type Sharp } from 'sharp';
import { type Matrix, IDENTITY, applyMatrix, multiply } from './matrix.js';
import type { OperatorListLike } from './painting.js';

/*
 * Fast path for rendering a scanned page: when all a page draws is one raster image (plus invisible
 * OCR text and clipping), its raster is the image itself, oriented, scaled and placed on white. That
 * skips the canvas (a full-page surface, drawing the image into it, reading the pixels back) and, for
 * OCR, a second decode of the image: pdf.js already decoded it for the operator list the text layer
 * was read from.
 */

/** The one image a page draws, with the matrix from the image's unit square to user space. */
export interface SingleImage { objId: string; matrix: Matrix; clip?: [number, number, number, number] }

/** pdf.js's decoded image (page.objs / commonObjs): 1-bit grey (packed rows, 1 = white), RGB or RGBA. */
export interface DecodedImage { width: number; height: number; kind: number; data?: Uint8Array | Uint8ClampedArray }
const GRAYSCALE_1BPP = 1, RGB_24BPP = 2, RGBA_32BPP = 3;

const INVISIBLE_TEXT = 3;

/**
 * The page's only drawing when it is a single raster image: state operators, marked content, form
 * XObjects, rectangular-or-not clipping paths (their bounding box is kept) and invisible text may
 * surround it; anything else drawn (a path, visible text, an image mask, a second image, a transparency
 * group, a soft mask or alpha) means the canvas must render the page.
 */
export function findSingleImage(ops: OperatorListLike, OPS: Record<string, number>): SingleImage | undefined {
  const passive = new Set([
    OPS.dependency, OPS.beginMarkedContent, OPS.beginMarkedContentProps, OPS.endMarkedContent, OPS.markPoint, OPS.markPointProps,
    OPS.setLineWidth, OPS.setLineCap, OPS.setLineJoin, OPS.setMiterLimit, OPS.setDash, OPS.setRenderingIntent, OPS.setFlatness,
    OPS.setStrokeColorSpace, OPS.setFillColorSpace, OPS.setStrokeColor, OPS.setStrokeColorN, OPS.setFillColor, OPS.setFillColorN,
    OPS.setStrokeGray, OPS.setFillGray, OPS.setStrokeRGBColor, OPS.setFillRGBColor, OPS.setStrokeCMYKColor, OPS.setFillCMYKColor,
    OPS.beginText, OPS.endText, OPS.setFont, OPS.setTextMatrix, OPS.moveText, OPS.setLeadingMoveText, OPS.nextLine, OPS.setLeading,
    OPS.setCharSpacing, OPS.setWordSpacing, OPS.setHScale, OPS.setTextRise, OPS.beginCompat, OPS.endCompat, OPS.endPath,
  ].filter((n) => n !== undefined));
  const stack: { ctm: Matrix; clip?: [number, number, number, number]; mode: number }[] = [];
  let ctm: Matrix = IDENTITY, clip: [number, number, number, number] | undefined, mode = 0;
  let clipNext = false;
  let found: SingleImage | undefined;
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i];
    const args = ops.argsArray[i] as unknown[] | null;
    if (passive.has(fn)) continue;
    switch (fn) {
      case OPS.save: stack.push({ ctm, clip, mode }); break;
      case OPS.restore: case OPS.paintFormXObjectEnd: {
        const s = stack.pop();
        if (s) ({ ctm, clip, mode } = s);
        break;
      }
      case OPS.paintFormXObjectBegin: {
        stack.push({ ctm, clip, mode });
        const m = args?.[0] as ArrayLike<number> | undefined;
        if (m && m.length === 6) ctm = multiply(ctm, Array.from(m));
        break;
      }
      case OPS.transform: if (args && args.length === 6) ctm = multiply(ctm, args as number[]); break;
      case OPS.setTextRenderingMode: mode = Number(args?.[0]); break;
      case OPS.showText: case OPS.showSpacedText: if (mode !== INVISIBLE_TEXT) return undefined; break;
      case OPS.setGState: if (!benignGState(args?.[0])) return undefined; break;
      case OPS.clip: case OPS.eoClip: clipNext = true; break;
      case OPS.constructPath: {
        // only a clipping path (W n): painting anything else is drawing
        if (Number(args?.[0]) !== OPS.endPath || !clipNext) return undefined;
        clipNext = false;
        const mm = args?.[2] as ArrayLike<number> | null | undefined;
        if (!mm || mm.length < 4) break;
        const b = boundsOf([[mm[0], mm[1]], [mm[2], mm[1]], [mm[2], mm[3]], [mm[0], mm[3]]].map(([x, y]) => applyMatrix(ctm, x, y)));
        clip = clip ? [Math.max(clip[0], b[0]), Math.max(clip[1], b[1]), Math.min(clip[2], b[2]), Math.min(clip[3], b[3])] : b;
        break;
      }
      case OPS.paintImageXObject: {
        if (found) return undefined;
        const objId = args?.[0];
        if (typeof objId !== 'string') return undefined;
        found = { objId, matrix: ctm, ...(clip ? { clip } : {}) };
        break;
      }
      default: return undefined;
    }
  }
  return found;
}

/** ExtGState entries that change nothing about how an opaque image is painted. */
function benignGState(entries: unknown): boolean {
  if (!Array.isArray(entries)) return true;
  for (const e of entries) {
    if (!Array.isArray(e)) continue;
    const [k, v] = e as [string, unknown];
    if ((k === 'ca' || k === 'CA') && v !== 1) return false;
    if (k === 'BM' && v !== 'source-over' && v !== 'normal') return false;
    if (k === 'SMask' && v) return false;
    if (k === 'TR') return false;
  }
  return true;
}

function boundsOf(pts: readonly [number, number][]): [number, number, number, number] {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of pts) { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); }
  return [x0, y0, x1, y1];
}

export interface ImageRaster { data: Buffer; width: number; height: number; channels: 1 | 3 }

/**
 * The w × h raster (pixels of the output, `toPixels`: user space → output pixels) showing `image`
 * placed by `placement` on white: the image is turned and mirrored by whole quarter turns as its
 * matrix says, scaled to its box and cropped to the output and to its clip. Undefined when the image
 * is not axis-aligned or its pixels are not available as pdf.js's plain kinds.
 */
export async function rasterFromImage(image: DecodedImage, placement: SingleImage, toPixels: Matrix, w: number, h: number): Promise<ImageRaster | undefined> {
  const { width: iw, height: ih, data } = image;
  if (!data || !(iw > 0 && ih > 0)) return undefined;
  const t = multiply(toPixels, placement.matrix); // image unit square → output pixels
  // image column +1 and row +1 (rows run top down: unit-square y falls) in output pixels
  const ex: [number, number] = [t[0] / iw, t[1] / iw], ey: [number, number] = [-t[2] / ih, -t[3] / ih];
  const orient = orientation(ex, ey);
  if (!orient) return undefined;
  const box = boundsOf([[0, 0], [1, 0], [1, 1], [0, 1]].map(([x, y]) => applyMatrix(t, x, y)));
  const bw = Math.round(box[2] - box[0]), bh = Math.round(box[3] - box[1]);
  if (bw < 1 || bh < 1) return undefined;
  let visible: [number, number, number, number] = [0, 0, w, h];
  if (placement.clip) {
    const [cx0, cy0] = applyMatrix(toPixels, placement.clip[0], placement.clip[1]);
    const [cx1, cy1] = applyMatrix(toPixels, placement.clip[2], placement.clip[3]);
    visible = [Math.max(0, Math.round(Math.min(cx0, cx1))), Math.max(0, Math.round(Math.min(cy0, cy1))), Math.min(w, Math.round(Math.max(cx0, cx1))), Math.min(h, Math.round(Math.max(cy0, cy1)))];
  }
  return place(await oriented(image, orient, bw, bh), Math.round(box[0]), Math.round(box[1]), w, h, visible);
}

interface Orientation { rotate: 0 | 90 | 180 | 270; flip: boolean; flop: boolean }

/**
 * The sharp operations (flip/flop first, then a clockwise rotation, as sharp applies them) that turn
 * the image's axes into the output's: `ex`, `ey` are where one image column and one image row step land.
 * Undefined when the image is sheared or turned by other than a quarter turn.
 */
export function orientation(ex: [number, number], ey: [number, number]): Orientation | undefined {
  const along = (v: [number, number]) => {
    const [x, y] = v;
    if (Math.abs(y) <= 1e-3 * Math.abs(x)) return x > 0 ? '+x' : '-x';
    if (Math.abs(x) <= 1e-3 * Math.abs(y)) return y > 0 ? '+y' : '-y';
    return undefined;
  };
  const a = along(ex), b = along(ey);
  if (!a || !b) return undefined;
  const table: Record<string, Orientation> = {
    '+x+y': { rotate: 0, flip: false, flop: false },
    '-x+y': { rotate: 0, flip: false, flop: true },
    '+x-y': { rotate: 0, flip: true, flop: false },
    '-x-y': { rotate: 180, flip: false, flop: false },
    '+y-x': { rotate: 90, flip: false, flop: false },
    '-y+x': { rotate: 270, flip: false, flop: false },
    '+y+x': { rotate: 90, flip: true, flop: false },
    '-y-x': { rotate: 90, flip: false, flop: true },
  };
  return table[a + b];
}

/** The image's pixels as sharp raw input: 1-bit rows unpacked to 8-bit grey, RGBA laid on white. */
async function oriented(image: DecodedImage, o: Orientation, bw: number, bh: number): Promise<ImageRaster> {
  const { width: iw, height: ih, kind } = image;
  const data = image.data!;
  let img: Sharp;
  if (kind === GRAYSCALE_1BPP) img = sharp(unpackBits(data, iw, ih), { raw: { width: iw, height: ih, channels: 1 } });
  else if (kind === RGB_24BPP) img = sharp(Buffer.from(data.buffer, data.byteOffset, iw * ih * 3), { raw: { width: iw, height: ih, channels: 3 } });
  else if (kind === RGBA_32BPP) img = sharp(Buffer.from(data.buffer, data.byteOffset, iw * ih * 4), { raw: { width: iw, height: ih, channels: 4 } }).flatten({ background: '#ffffff' });
  else throw new Error(`unknown image kind ${kind}`);
  if (o.flip) img = img.flip();
  if (o.flop) img = img.flop();
  if (o.rotate) img = img.rotate(o.rotate);
  // sharp writes raw single-channel input back as RGB unless told otherwise
  const grey = kind === GRAYSCALE_1BPP;
  const channels = grey ? 1 : 3;
  if (grey) img = img.toColourspace('b-w');
  else if (kind === RGBA_32BPP) img = img.removeAlpha();
  // a separate pass: sharp resizes before it rotates when both are in one pipeline
  const turned = await img.raw().toBuffer({ resolveWithObject: true });
  if (turned.info.width === bw && turned.info.height === bh) return { data: turned.data, width: bw, height: bh, channels };
  let out = sharp(turned.data, { raw: { width: turned.info.width, height: turned.info.height, channels } }).resize(bw, bh, { fit: 'fill' });
  if (grey) out = out.toColourspace('b-w');
  return { data: await out.raw().toBuffer(), width: bw, height: bh, channels };
}

const UNPACK = (() => {
  // byte → its 8 pixels (bit 7 first), 1 = white
  const t = new Uint8Array(256 * 8);
  for (let b = 0; b < 256; b++) for (let k = 0; k < 8; k++) t[b * 8 + k] = b & (0x80 >> k) ? 255 : 0;
  return t;
})();

function unpackBits(src: Uint8Array | Uint8ClampedArray, w: number, h: number): Buffer {
  const out = Buffer.allocUnsafe(w * h);
  const rowBytes = (w + 7) >> 3, full = w >> 3, rest = w & 7;
  for (let y = 0; y < h; y++) {
    let s = y * rowBytes, d = y * w;
    for (let i = 0; i < full; i++) {
      const b = src[s++] * 8;
      out[d++] = UNPACK[b]; out[d++] = UNPACK[b + 1]; out[d++] = UNPACK[b + 2]; out[d++] = UNPACK[b + 3];
      out[d++] = UNPACK[b + 4]; out[d++] = UNPACK[b + 5]; out[d++] = UNPACK[b + 6]; out[d++] = UNPACK[b + 7];
    }
    if (rest) { const b = src[s] * 8; for (let k = 0; k < rest; k++) out[d++] = UNPACK[b + k]; }
  }
  return out;
}

/**
 * Places an image raster whose top-left lands at (x, y) on a w × h white raster, showing it only
 * inside `visible` ([left, top, right, bottom] in output pixels).
 */
async function place(img: ImageRaster, x: number, y: number, w: number, h: number, visible: [number, number, number, number]): Promise<ImageRaster | undefined> {
  const left = Math.max(visible[0], x), top = Math.max(visible[1], y);
  const right = Math.min(visible[2], x + img.width), bottom = Math.min(visible[3], y + img.height);
  const white = { r: 255, g: 255, b: 255 };
  if (right <= left || bottom <= top) {
    const blank = Buffer.alloc(w * h * img.channels, 255);
    return { data: blank, width: w, height: h, channels: img.channels };
  }
  if (left === 0 && top === 0 && right === w && bottom === h && x === 0 && y === 0 && img.width === w && img.height === h) return img;
  let out = sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } })
    .extract({ left: left - x, top: top - y, width: right - left, height: bottom - top })
    .extend({ left, top, right: w - right, bottom: h - bottom, background: white });
  if (img.channels === 1) out = out.toColourspace('b-w'); // raw output would be RGB
  const { data } = await out.raw().toBuffer({ resolveWithObject: true });
  return { data, width: w, height: h, channels: img.channels };
}
