import sharp, { type Metadata } from 'sharp';
import { QuireError } from '@quire/core';
import type { GreyImage } from './analysis.js';
import type { ImageTransform } from './transform.js';

/**
 * Decodes a page image into normalized greyscale, as displayed (EXIF orientation applied, alpha
 * composited on white so transparent PNGs don't turn black). The pixel limit is checked on the
 * header before anything is decoded.
 */
export async function decodeGrey(image: Uint8Array, maxPixels: number): Promise<GreyImage> {
  let meta: Metadata;
  try {
    meta = await sharp(image).metadata();
  } catch (e) {
    throw new QuireError('FILE_003', `Image could not be read: ${(e as Error).message}`);
  }
  if (!meta.width || !meta.height) throw new QuireError('FILE_003', 'Image has no dimensions');
  if (meta.width * meta.height > maxPixels) {
    throw new QuireError('REQ_003', `Image is ${meta.width}×${meta.height} pixels, over the limit of ${maxPixels}`, {
      width: meta.width, height: meta.height, maxPixels,
    });
  }
  try {
    const { data, info } = await sharp(image, { limitInputPixels: maxPixels })
      .rotate()
      .flatten({ background: '#ffffff' })
      .toColourspace('b-w')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 1) throw new Error(`expected 1 channel, got ${info.channels}`);
    const grey = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    stretchContrast(grey);
    return { data: grey, width: info.width, height: info.height };
  } catch (e) {
    throw new QuireError('FILE_003', `Image could not be decoded: ${(e as Error).message}`);
  }
}

/**
 * Stretches grey levels so the 1st percentile becomes black and the 99th white (in place). This is
 * what sharp's normalise() does, without its round trip through LAB: on a 300 DPI colour scan that
 * conversion cost ~0.55 s of a ~0.65 s decode, this histogram and table ~20 ms.
 */
export function stretchContrast(px: Uint8Array, lowerPct = 1, upperPct = 99): void {
  const hist = new Uint32Array(256);
  for (let i = 0; i < px.length; i++) hist[px[i]]++;
  const percentile = (pct: number) => {
    const target = (px.length * pct) / 100;
    let acc = 0;
    for (let v = 0; v < 256; v++) { acc += hist[v]; if (acc > target) return v; }
    return 255;
  };
  const lo = percentile(lowerPct), hi = percentile(upperPct);
  if (hi - lo <= 1) return;
  const lut = new Uint8Array(256);
  for (let v = 0; v < 256; v++) lut[v] = Math.max(0, Math.min(255, Math.round(((v - lo) * 255) / (hi - lo))));
  for (let i = 0; i < px.length; i++) px[i] = lut[px[i]];
}

// sharp turns single-channel raw input into sRGB unless told otherwise: insist on one channel.
function greyFrom(data: Buffer, info: { width: number; height: number; channels: number }): GreyImage {
  if (info.channels !== 1) throw new Error(`expected 1 channel, got ${info.channels}`);
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

const rawInput = (img: GreyImage) => ({ raw: { width: img.width, height: img.height, channels: 1 as const } });

/** A copy whose longer side is at most `maxSide` (for the cheap orientation/skew analysis). */
export async function downscale(img: GreyImage, maxSide: number): Promise<{ image: GreyImage; factor: number }> {
  const factor = Math.min(1, maxSide / Math.max(img.width, img.height));
  if (factor === 1) return { image: img, factor };
  const { data, info } = await sharp(img.data, rawInput(img))
    .resize(Math.max(1, Math.round(img.width * factor)), Math.max(1, Math.round(img.height * factor)), { kernel: 'linear' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { image: greyFrom(data, info), factor };
}

/** Scales the page by `scale` (1 = unchanged); Lanczos keeps upscaled glyph edges crisp for tesseract. */
export async function rescale(img: GreyImage, scale: number): Promise<GreyImage> {
  if (Math.abs(scale - 1) < 0.01) return img;
  const width = Math.max(1, Math.round(img.width * scale)), height = Math.max(1, Math.round(img.height * scale));
  const { data, info } = await sharp(img.data, rawInput(img)).resize(width, height, { kernel: 'lanczos3' })
    .toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return greyFrom(data, info);
}

/**
 * Binary PGM (P5): leptonica reads it natively, so tesseract skips a PNG decode in WASM and we skip
 * the encode (about 0.1–0.5 s on a 300 DPI page).
 */
export function toPgm(img: GreyImage): Uint8Array {
  const header = Buffer.from(`P5\n${img.width} ${img.height}\n255\n`, 'latin1');
  const out = new Uint8Array(header.length + img.data.length);
  out.set(header, 0);
  out.set(img.data, header.length);
  return out;
}

async function rotateGrey(img: GreyImage, angle: number): Promise<GreyImage> {
  if (angle === 0) return img;
  const { data, info } = await sharp(img.data, rawInput(img)).rotate(angle, { background: { r: 255, g: 255, b: 255 } })
    .toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return greyFrom(data, info);
}

/** Rotates the (scaled) page clockwise by `angle` onto a white canvas, as the image tesseract reads. */
export async function renderForOcr(img: GreyImage, angle: number, src: { width: number; height: number }): Promise<{ image: Uint8Array; transform: ImageTransform }> {
  const out = await rotateGrey(img, angle);
  return {
    image: toPgm(out),
    transform: {
      srcWidth: src.width, srcHeight: src.height,
      scaledWidth: img.width, scaledHeight: img.height,
      angle, outWidth: out.width, outHeight: out.height,
    },
  };
}

/**
 * A cheap look at one orientation: the page rotated by `angle`, cropped to a horizontal band of
 * `bandRows` rows (of `rowPx` pixels) around the ink centre (`centre`, normalized on `img`).
 */
export async function renderProbe(img: GreyImage, angle: number, centre: [number, number], rowPx: number, bandRows: number): Promise<Uint8Array> {
  const rotated = await rotateGrey(img, angle);
  const { width, height } = rotated;
  const a = (angle * Math.PI) / 180;
  const dx = centre[0] * img.width - img.width / 2, dy = centre[1] * img.height - img.height / 2;
  const cy = dx * Math.sin(a) + dy * Math.cos(a) + height / 2;
  const band = Math.round(Math.min(height, Math.max(height * 0.25, bandRows * rowPx)));
  const top = Math.round(Math.min(Math.max(0, cy - band / 2), height - band));
  return toPgm({ data: rotated.data.subarray(top * width, (top + band) * width), width, height: band });
}
