import sharp, { type Metadata } from 'sharp';
import { QuireError, emptyPageWarning, isQuireError, resolveLimits, sniffFileType, type ParseLimits, type ParseOptions, type RawPage } from '@quire/core';
import { contentBox, cropTo, uncropPage } from './content-crop.js';
import { pageSizePt } from './page-size.js';

export interface ImageReadResult {
  pageCount: number;
  /** The processed pages, in page order, numbered as in the file (1-indexed). */
  pages: RawPage[];
  warnings: string[];
  format: 'png' | 'jpeg' | 'tiff';
}

/** Pages OCR'd at once: enough to keep a per-core pool busy, few enough to bound memory. */
const PAGE_WINDOW = 4;

const emptyPage = (number: number, widthPt: number, heightPt: number): RawPage => ({
  number, width: widthPt, height: heightPt, words: [], segments: [], rects: [], images: [], widgets: [], source: 'ocr',
});

async function metadataOf(bytes: Uint8Array, page?: number): Promise<Metadata> {
  try {
    const m = await sharp(bytes, page === undefined ? {} : { page }).metadata();
    if (!m.width || !m.height) throw new Error('no dimensions');
    return m;
  } catch (e) {
    throw new QuireError('FILE_003', `Image is corrupted or unreadable: ${(e as Error).message}`);
  }
}

function selectPages(pageCount: number, wanted: number[] | undefined): number[] {
  if (!wanted) return Array.from({ length: pageCount }, (_, i) => i + 1);
  const bad = wanted.filter((p) => !Number.isInteger(p) || p < 1 || p > pageCount);
  if (bad.length > 0) throw new QuireError('REQ_006', `Pages ${bad.join(', ')} are outside the document (1-${pageCount})`, { page_count: pageCount });
  return [...new Set(wanted)].sort((a, b) => a - b);
}

interface PageJob { number: number; widthPt: number; heightPt: number; image?: Uint8Array; error?: { code: string; message: string } }

/** Header-only checks and the bytes to OCR for one page (TIFF pages are extracted to PNG). */
async function preparePage(bytes: Uint8Array, format: ImageReadResult['format'], number: number, multi: boolean, limits: ParseLimits): Promise<PageJob> {
  const meta = await metadataOf(bytes, multi ? number - 1 : undefined);
  const oriented = meta.autoOrient ?? { width: meta.width!, height: meta.height! };
  const { widthPt, heightPt } = pageSizePt(oriented.width, oriented.height, meta.density, limits.maxPageSidePt);
  const job: PageJob = { number, widthPt, heightPt };
  if (meta.width! * meta.height! > limits.maxPixels) {
    const message = `Page ${number} is ${meta.width}×${meta.height} pixels, over the limit of ${limits.maxPixels}`;
    if (!multi) throw new QuireError('REQ_003', message, { maxPixels: limits.maxPixels });
    job.error = { code: 'REQ_003', message };
    return job;
  }
  if (format !== 'tiff') { job.image = bytes; return job; }
  try {
    job.image = await sharp(bytes, { page: number - 1, limitInputPixels: limits.maxPixels }).png({ compressionLevel: 1 }).toBuffer();
  } catch (e) {
    if (!multi) throw new QuireError('FILE_003', `Image is corrupted: ${(e as Error).message}`);
    job.error = { code: 'FILE_003', message: `Page ${number} could not be decoded: ${(e as Error).message}` };
  }
  return job;
}

const MIN_CROP_SIDE_PX = 200;

/** OCR of one page; a photo whose text fills a small part of the frame is read from that part only. */
async function recognize(ocr: NonNullable<ParseOptions['ocr']>, job: PageJob, maxPixels: number): Promise<RawPage> {
  const image = job.image!;
  const box = await contentBox(image, maxPixels);
  if (!box) return ocr.recognize(image, { number: job.number, widthPt: job.widthPt, heightPt: job.heightPt });
  const crop = await cropTo(image, box, maxPixels);
  // A crop only helps a photo with a document in it; a strip of a line or two is better read whole
  // (orientation and layout analysis need more than a sliver of text).
  if (crop.width < MIN_CROP_SIDE_PX || crop.height < MIN_CROP_SIDE_PX) return ocr.recognize(image, { number: job.number, widthPt: job.widthPt, heightPt: job.heightPt });
  const b = crop.box;
  const page = await ocr.recognize(crop.png, { number: job.number, widthPt: job.widthPt * (b.x1 - b.x0), heightPt: job.heightPt * (b.y1 - b.y0) });
  return uncropPage(page, b, job.widthPt, job.heightPt);
}

async function readPage(job: PageJob, options: ParseOptions | undefined, multi: boolean, maxPixels: number): Promise<RawPage> {
  const page = emptyPage(job.number, job.widthPt, job.heightPt);
  if (job.error) return { ...page, error: job.error };
  if (!job.image) return page;
  if (!options?.ocr) {
    // Without OCR nothing else would decode the pixels: a tiny decode still catches a truncated file.
    await sharp(job.image).resize(32, 32, { fit: 'inside' }).raw().toBuffer().catch((e: Error) => {
      throw new QuireError('FILE_003', `Image is corrupted: ${e.message}`);
    });
    return page;
  }
  try {
    return await recognize(options.ocr, job, maxPixels);
  } catch (e) {
    const code = isQuireError(e) ? e.code : 'PROC_001';
    // A single image that cannot be decoded is a corrupt file; anything else fails just this page.
    if (!multi && code === 'FILE_003') throw e;
    return { ...page, error: { code, message: e instanceof Error ? e.message : String(e) } };
  }
}

/**
 * Reads a PNG, JPEG or (multi-page) TIFF into OCR'd RawPages. Headers are checked against the
 * limits before any pixel is decoded; pages are OCR'd a few at a time through `options.ocr`, and
 * `onRawPage` then `onPage` run after each page in order (`onPage` is the cancellation point; `onRawPage`
 * lets a caller use the page before the rest are read, as readPdfPages' callback does).
 */
export async function readImage(
  bytes: Uint8Array, options?: ParseOptions, onRawPage?: (page: RawPage) => void | Promise<void>,
): Promise<ImageReadResult> {
  const sniffed = sniffFileType(bytes.subarray(0, 4096));
  if (sniffed !== 'png' && sniffed !== 'jpeg' && sniffed !== 'tiff') {
    throw new QuireError('FILE_001', `Not an image this reader supports: ${sniffed}`);
  }
  const format = sniffed;
  const limits = resolveLimits(options);
  const head = await metadataOf(bytes);
  const pageCount = format === 'tiff' ? head.pages ?? 1 : 1;
  if (pageCount > limits.maxPages) throw new QuireError('REQ_003', `Image has ${pageCount} pages, over the limit of ${limits.maxPages}`);
  const numbers = selectPages(pageCount, options?.pages);
  const multi = pageCount > 1;
  const warnings: string[] = [];
  if (!options?.ocr) warnings.push('No OCR engine configured: image pages are returned without text');

  const pages: RawPage[] = [];
  const inFlight: Promise<RawPage>[] = [];
  const start = (n: number) => {
    const p = preparePage(bytes, format, n, multi, limits)
      .catch((e: unknown): PageJob => {
        // One TIFF page with a broken header fails alone; a broken single image is a broken file.
        if (!multi || !isQuireError(e)) throw e;
        const size = pageSizePt(head.width!, head.height!, head.density, limits.maxPageSidePt);
        return { number: n, ...size, error: { code: e.code, message: e.message } };
      })
      .then((job) => readPage(job, options, multi, limits.maxPixels));
    p.catch(() => {}); // awaited in order below; this only keeps an abandoned page from being "unhandled"
    inFlight.push(p);
  };
  let next = 0;
  while (next < numbers.length && inFlight.length < PAGE_WINDOW) start(numbers[next++]);
  while (inFlight.length > 0) {
    const page = await inFlight.shift()!;
    pages.push(page);
    if (page.error) warnings.push(`Page ${page.number}: ${page.error.message}`);
    const empty = emptyPageWarning(page);
    if (empty) warnings.push(empty);
    await onRawPage?.(page);
    await options?.onPage?.(pages.length, numbers.length);
    if (next < numbers.length) start(numbers[next++]);
  }
  return { pageCount, pages, warnings, format };
}
