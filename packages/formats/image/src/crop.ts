import sharp, { type Metadata } from 'sharp';
import { type Box, QuireError, resolveLimits, type ParseLimits } from '@quire/core';

export interface CroppedPng { png: Uint8Array; width: number; height: number }

/**
 * Crops a normalized region (0..1, top-left origin) of image page `page` (1-indexed; TIFF pages) to
 * PNG. Boxes from extraction refer to the upright image (EXIF orientation applied), so the crop is
 * taken after auto-orientation too.
 */
export async function cropImage(bytes: Uint8Array, page: number, box: Box, options: { limits?: Partial<ParseLimits> } = {}): Promise<CroppedPng> {
  const { maxPixels } = resolveLimits(options);
  if (!(box.x1 > box.x0 && box.y1 > box.y0)) throw new QuireError('REQ_003', 'Invalid crop region');
  const input = { page: page - 1, limitInputPixels: maxPixels };
  let meta: Metadata;
  try {
    meta = await sharp(bytes, input).metadata();
  } catch (e) {
    throw new QuireError('FILE_003', `Image is corrupted or unreadable: ${(e as Error).message}`);
  }
  const W = meta.autoOrient?.width ?? meta.width ?? 0, H = meta.autoOrient?.height ?? meta.height ?? 0;
  if (!W || !H) throw new QuireError('FILE_003', 'Image has no dimensions');
  const left = Math.min(W - 1, Math.floor(clamp01(box.x0) * W)), top = Math.min(H - 1, Math.floor(clamp01(box.y0) * H));
  const width = Math.max(1, Math.min(W - left, Math.ceil(clamp01(box.x1) * W) - left));
  const height = Math.max(1, Math.min(H - top, Math.ceil(clamp01(box.y1) * H) - top));
  const png = await sharp(bytes, input).autoOrient().extract({ left, top, width, height }).png().toBuffer();
  return { png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), width, height };
}

const clamp01 = (n: number) => (n < 0 ? 0 : n > 1 ? 1 : n);
