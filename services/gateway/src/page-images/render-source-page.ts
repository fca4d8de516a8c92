import sharp, { type Metadata } from 'sharp';
import { QuireError, resolveLimits } from '@quire/core';
import { openPdf } from '@quire/format-pdf';
import { pageSizePt } from '@quire/format-image';

/** Source formats whose pages Quire can draw: PDFs (PDFium, else pdf.js) and rasters (sharp). */
export const RENDERABLE_FORMATS = ['pdf', 'png', 'jpeg', 'tiff'] as const;
export type RenderableFormat = (typeof RENDERABLE_FORMATS)[number];

export const isRenderable = (format: string): format is RenderableFormat => (RENDERABLE_FORMATS as readonly string[]).includes(format);

export interface PageImage { png: Uint8Array; width: number; height: number; pageCount: number }

/**
 * Draws page `page` (1-indexed) of a source document as PNG at `dpi`, in the same geometry as the
 * extraction's boxes (the page as displayed, top-left origin), so normalized boxes scale straight onto it.
 * A page outside the document is REQ_006 with the page count in the details.
 */
export async function renderSourcePage(bytes: Uint8Array, format: RenderableFormat, page: number, dpi: number): Promise<PageImage> {
  return format === 'pdf' ? renderPdfPage(bytes, page, dpi) : renderImagePage(bytes, format, page, dpi);
}

const outside = (page: number, pageCount: number) =>
  new QuireError('REQ_006', `Page ${page} is outside the document (1-${pageCount})`, { page, page_count: pageCount });

async function renderPdfPage(bytes: Uint8Array, page: number, dpi: number): Promise<PageImage> {
  const pdf = await openPdf(bytes);
  try {
    if (page > pdf.pageCount) throw outside(page, pdf.pageCount);
    const { png, width, height } = await pdf.render(page, { dpi });
    return { png, width, height, pageCount: pdf.pageCount };
  } finally {
    await pdf.close();
  }
}

/**
 * A raster page scaled so that `dpi` means what it means for PDFs: the page's size in points (from the
 * file's density, as extraction takes it: format-image's pageSizePt) × dpi / 72. EXIF orientation is
 * applied, as extraction's boxes refer to the upright image.
 */
async function renderImagePage(bytes: Uint8Array, format: Exclude<RenderableFormat, 'pdf'>, page: number, dpi: number): Promise<PageImage> {
  const limits = resolveLimits({});
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: limits.maxPixels }).metadata();
  } catch (e) {
    throw new QuireError('FILE_003', `Image is corrupted or unreadable: ${(e as Error).message}`);
  }
  const pageCount = format === 'tiff' ? (meta.pages ?? 1) : 1;
  if (page > pageCount) throw outside(page, pageCount);
  const input = { page: page - 1, limitInputPixels: limits.maxPixels };
  const head = pageCount > 1 ? await sharp(bytes, input).metadata() : meta;
  const upright = head.autoOrient ?? { width: head.width ?? 0, height: head.height ?? 0 };
  if (!upright.width || !upright.height) throw new QuireError('FILE_003', 'Image has no dimensions');
  const { widthPt, heightPt } = pageSizePt(upright.width, upright.height, head.density, limits.maxPageSidePt);
  const width = Math.max(1, Math.round((widthPt * dpi) / 72)), height = Math.max(1, Math.round((heightPt * dpi) / 72));
  if (width * height > limits.maxPixels) throw new QuireError('REQ_003', `A ${width}×${height} render is over the limit of ${limits.maxPixels} pixels: ask for a lower dpi`, { max_pixels: limits.maxPixels });
  const png = await sharp(bytes, input).autoOrient().resize(width, height, { fit: 'fill' }).png().toBuffer();
  return { png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), width, height, pageCount };
}
