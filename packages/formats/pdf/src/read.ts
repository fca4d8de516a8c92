import {
  type OutlineEntry, type ParseLimits, type ParseOptions, type RawPage, QuireError, resolveLimits,
} from '@quire/core';
import { readOutline, readTitle } from './outline.js';
import { type PDFDocumentProxy, openDocument } from './pdfjs.js';
import { readPage } from './page.js';
import { MarkedContentReader } from './actualtext.js';
import { PageRasterizer } from './render.js';
import { DEFAULT_EMBEDDED_IMAGE_BUDGET, EmbeddedImageOcr } from './embedded-images.js';
import { type EmbeddedFile, mayHaveAttachments, readAttachments } from './attachments.js';

export interface PdfReadResult {
  pageCount: number;
  pages: RawPage[];
  outline: OutlineEntry[];
  title?: string;
  warnings: string[];
  /** Files embedded in the PDF (attachments, associated files), within the attachment limits. */
  attachments: EmbeddedFile[];
}

const CLEANUP_EVERY = 100;

/** Reads every selected page into memory. For large files prefer readPdfPages. */
export async function readPdf(bytes: Uint8Array, options: ParseOptions = {}): Promise<PdfReadResult> {
  const pages: RawPage[] = [];
  const rest = await readPdfPages(bytes, options, (p) => { pages.push(p); });
  return { ...rest, pages };
}

/**
 * Streams pages in order to `onRawPage` and keeps none of them, so memory stays bounded on
 * thousand-page files: each page's pdf.js state is released (page.cleanup) before the next one.
 * Errors from onRawPage and options.onPage (cancellation) propagate; a page that fails to read is
 * emitted with `error` and the rest continue.
 */
export async function readPdfPages(
  bytes: Uint8Array,
  options: ParseOptions,
  onRawPage: (p: RawPage) => void | Promise<void>,
): Promise<Omit<PdfReadResult, 'pages'>> {
  const limits = resolveLimits(options);
  const doc = await openDocument(bytes, { maxImagePixels: limits.maxPixels, maxPageContentBytes: limits.maxPageContentBytes });
  const warnings: string[] = [];
  const rasterizer = new PageRasterizer(bytes);
  try {
    const pageCount = doc.numPages;
    const selected = selectPages(pageCount, options.pages, warnings);
    if (selected.length > limits.maxPages) {
      throw new QuireError('REQ_003', `The PDF has ${selected.length} pages to process, over the limit of ${limits.maxPages}`, { pages: selected.length, maxPages: limits.maxPages });
    }
    const { outline, title } = await readDocumentInfo(doc, warnings);
    // One page ahead: pdf.js (on its worker thread) parses page i+1 while onRawPage handles page i.
    // readPage never throws, so a read left in flight by an error below cannot go unhandled.
    const embeddedImages = options.ocr && options.embeddedImageOcr !== false
      ? new EmbeddedImageOcr({
        maxPixelsPerPage: options.embeddedImageOcr?.maxPixelsPerPage ?? DEFAULT_EMBEDDED_IMAGE_BUDGET.maxPixelsPerPage,
        maxPixelsPerDocument: options.embeddedImageOcr?.maxPixelsPerDocument ?? DEFAULT_EMBEDDED_IMAGE_BUDGET.maxPixelsPerDocument,
      })
      : undefined;
    const ctx = { limits, ocr: options.ocr, warnings, markedContent: new MarkedContentReader(bytes), rasterizer, embeddedImages };
    let next = selected.length ? readPage(doc, selected[0], ctx) : undefined;
    for (let i = 0; i < selected.length; i++) {
      options.throwIfStopped?.();
      const page = await next!;
      // pdf.js keeps parsed fonts, images and page dictionaries for the document's lifetime (~35 KB a
      // page of text); dropping them every CLEANUP_EVERY pages keeps long files flat at a small cost
      // (fonts are parsed again on next use). Nothing is in flight at this point.
      if ((i + 1) % CLEANUP_EVERY === 0) await doc.cleanup();
      next = i + 1 < selected.length ? readPage(doc, selected[i + 1], ctx) : undefined;
      await onRawPage(page);
      await options.onPage?.(i + 1, selected.length);
    }
    if (embeddedImages) warnings.push(...embeddedImages.summary());
    const attachments = await embeddedFiles(bytes, ctx.markedContent, warnings);
    return { pageCount, outline, ...(title ? { title } : {}), warnings, attachments };
  } finally {
    try {
      await doc.destroy();
    } finally {
      await rasterizer.close();
    }
  }
}

/** The PDF's embedded files, read with the pdf-lib parse the page reading shares; none from an encrypted or damaged file. */
async function embeddedFiles(bytes: Uint8Array, reader: MarkedContentReader, warnings: string[]): Promise<EmbeddedFile[]> {
  if (!mayHaveAttachments(bytes)) return [];
  const doc = await reader.document();
  if (!doc) return [];
  try {
    return readAttachments(doc, warnings);
  } catch (e) {
    warnings.push(`The PDF's embedded files could not be read: ${errorMessage(e)}`);
    return [];
  }
}

function selectPages(pageCount: number, wanted: number[] | undefined, warnings: string[]): number[] {
  if (!wanted) return Array.from({ length: pageCount }, (_, i) => i + 1);
  const uniq = [...new Set(wanted)].sort((a, b) => a - b);
  const outside = uniq.filter((n) => !Number.isInteger(n) || n < 1 || n > pageCount);
  if (outside.length) warnings.push(`Pages ${outside.join(', ')} are outside the document (1-${pageCount}) and were skipped`);
  return uniq.filter((n) => Number.isInteger(n) && n >= 1 && n <= pageCount);
}

async function readDocumentInfo(doc: PDFDocumentProxy, warnings: string[]): Promise<{ outline: OutlineEntry[]; title?: string }> {
  let outline: OutlineEntry[] = [], title: string | undefined;
  try { outline = await readOutline(doc); } catch (e) { warnings.push(`The PDF outline could not be read: ${errorMessage(e)}`); }
  try { title = await readTitle(doc); } catch (e) { warnings.push(`The PDF metadata could not be read: ${errorMessage(e)}`); }
  return { outline, title };
}

export const errorMessage = (e: unknown) => (e instanceof Error ? e.message : String(e));
export type { ParseLimits };
