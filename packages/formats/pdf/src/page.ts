import { emptyPageWarning, type OcrEngine, type ParseLimits, type RawPage } from '@quire/core';
import { type MarkedContentReader, alignActualText, needsMarkedContent } from './actualtext.js';
import type { Matrix } from './matrix.js';
import { type PDFDocumentProxy, type PDFPageProxy, loadPdfjs } from './pdfjs.js';
import { type EmbeddedImageOcr, readEmbeddedImages } from './embedded-images.js';
import { recoverGuessedFonts } from './embedded-cmap.js';
import { garbledFonts, sharedWordShare } from './plausibility.js';
import { judgeTextLayer } from './quality.js';
import { type PageRasterizer, fitDpi, renderPage } from './render.js';
import { type SingleImage, findSingleImage } from './single-image.js';
import { type FontLike, extractWords, fontsWithGuessedMapping } from './text.js';
import { extractVector } from './vector.js';
import { toWidgets } from './widgets.js';

export interface PageContext {
  limits: ParseLimits; ocr?: OcrEngine; warnings: string[];
  /** The document's marked-content spans, for replacement text (/ActualText); none: glyphs as drawn. */
  markedContent?: MarkedContentReader;
  /** Draws pages for OCR that are not one image; pdf.js's canvas when absent. */
  rasterizer?: PageRasterizer;
  /** OCR of large images on text-layer pages, with the document's pixel budget; absent: off. */
  embeddedImages?: EmbeddedImageOcr;
}

const OCR_DPI = 300;
const MIN_OCR_DPI = 72;

/** Reads one page; never throws for a bad page (it comes back with `error`, PROC_005). */
export async function readPage(doc: PDFDocumentProxy, n: number, ctx: PageContext): Promise<RawPage> {
  let page: PDFPageProxy | undefined;
  let raw: RawPage = { number: n, width: 0, height: 0, words: [], segments: [], rects: [], images: [], widgets: [], source: 'text-layer' };
  try {
    page = await doc.getPage(n);
    const vp = page.getViewport({ scale: 1 });
    raw = { ...raw, width: round2(vp.width), height: round2(vp.height) };
    const side = Math.max(vp.width, vp.height);
    if (!(side <= ctx.limits.maxPageSidePt) || !(Math.min(vp.width, vp.height) > 0)) {
      return fail(raw, `Page ${n} is ${Math.round(vp.width)}×${Math.round(vp.height)} pt, outside the allowed size (largest side ${ctx.limits.maxPageSidePt} pt); it was skipped`, ctx);
    }
    const { ops, drawsAnnotations, guessedFonts, ...content } = await readContent(page, n, vp.transform as Matrix, vp.width, vp.height, ctx);
    raw = { ...raw, ...content };
    const verdict = judgeTextLayer(raw.words, raw.images);
    if (verdict.usable) {
      const substituted = await readIfSubstituted(page, raw, guessedFonts, ctx);
      if (substituted) return substituted;
      if (!ctx.ocr || !ctx.embeddedImages || raw.images.length === 0) return raw;
      return await readEmbeddedImages(page, raw, { ocr: ctx.ocr, state: ctx.embeddedImages, maxPixels: ctx.limits.maxPixels, rasterizer: ctx.rasterizer });
    }
    if (!ctx.ocr) {
      ctx.warnings.push(verdict.reason === 'garbage'
        ? `Page ${n}: the text layer has no usable Unicode mapping and OCR is not configured; its text was dropped`
        : `Page ${n} has no text layer and OCR is not configured; it has no text`);
      return { ...raw, words: [] };
    }
    // a scan: its one image is the render, unless form fields are drawn over it
    const pdfjs = await loadPdfjs();
    const image = drawsAnnotations ? undefined : findSingleImage(ops, pdfjs.OPS as unknown as Record<string, number>);
    return await ocrPage(page, raw, ctx, image);
  } catch (e) {
    return fail(raw, `Page ${n} could not be read: ${e instanceof Error ? e.message : String(e)}`, ctx);
  } finally {
    page?.cleanup();
  }
}

function fail(raw: RawPage, message: string, ctx: PageContext): RawPage {
  ctx.warnings.push(message);
  return { ...raw, words: [], segments: [], rects: [], images: [], widgets: [], error: { code: 'PROC_005', message } };
}

/**
 * One operator list gives the words (its text operators, glyph by glyph: see text.ts), rulings,
 * rectangles, images and drawings; the fonts it loaded are in commonObjs by the time it arrives.
 * Annotations are left out of it (AnnotationMode.DISABLE) so widget appearances do not read as page
 * content; widgets come from getAnnotations instead. pdf.js's getTextContent is not used: it would
 * parse the content stream a second time. Only a page whose list has marked-content spans that could
 * carry replacement text (a BDC other than optional content) has its content stream read again, for the
 * spans' /ActualText (actualtext.ts).
 */
async function readContent(page: PDFPageProxy, n: number, viewport: Matrix, W: number, H: number, ctx: PageContext) {
  const pdfjs = await loadPdfjs();
  // asked for together so the worker thread has the next job queued
  const [ops, annotations] = await Promise.all([
    page.getOperatorList({ annotationMode: pdfjs.AnnotationMode.DISABLE }),
    page.getAnnotations({ intent: 'display' }),
  ]);
  const OPS = pdfjs.OPS as unknown as Record<string, number>;
  // a shading's colours are in its pattern object, which pdf.js resolves on the page's objs with the list
  const vector = extractVector(ops, OPS, viewport, W, H, (id) => (page.objs.has(id) ? page.objs.get(id) : undefined));
  const font = (loadedName: string) =>
    page.commonObjs.has(loadedName) ? (page.commonObjs.get(loadedName) as FontLike) : undefined;
  const actualText = ctx.markedContent && needsMarkedContent(ops, OPS) ? await readActualText(ctx.markedContent, n, ops, OPS, ctx) : undefined;
  const guessedFonts = fontsWithGuessedMapping(ops, OPS, font);
  const recovered = ctx.markedContent ? await recoverGuessedFonts(ctx.markedContent, n, guessedFonts) : undefined;
  const words = extractWords(ops, OPS, { viewport, pageWidth: W, pageHeight: H, font, actualText, recoveredText: recovered && ((name) => recovered.get(name)) });
  // a font recovered from its embedded cmap is no longer a guess
  for (const name of recovered?.keys() ?? []) guessedFonts.delete(name);
  const widgets = toWidgets(annotations, viewport, W, H);
  const content: Pick<RawPage, 'words' | 'segments' | 'rects' | 'paths' | 'images' | 'widgets'> = { words, widgets, ...vector };
  return { ...content, ops, drawsAnnotations: annotations.length > 0, guessedFonts };
}

async function readActualText(
  reader: MarkedContentReader, n: number, ops: Parameters<typeof alignActualText>[0], OPS: Record<string, number>, ctx: PageContext,
): Promise<Map<number, string> | undefined> {
  let spans;
  try {
    spans = await reader.spans(n);
  } catch (e) {
    ctx.warnings.push(`Page ${n}: its marked content could not be read for replacement text (ActualText): ${e instanceof Error ? e.message : String(e)}; its glyphs were read as drawn`);
    return undefined;
  }
  if (!spans) return undefined;
  const aligned = alignActualText(ops, OPS, spans);
  if (!aligned) ctx.warnings.push(`Page ${n}: its marked-content spans did not match the drawn content; replacement text (ActualText) was not applied`);
  return aligned;
}

/** Fonts carrying at least this share of a page's Latin letters must read as a language, or the page is checked by OCR. */
const SUBSTITUTED_LETTER_SHARE = 0.25;
/** A text layer sharing fewer of its words with the page's OCR reading than this is not the page's text. */
const MIN_SHARED_WORDS = 0.2;

/**
 * A text layer whose letters read as substitutions (plausibility.ts: a font mapped to the wrong characters)
 * is checked against an OCR reading of the page, and replaced by it when the two share almost no words;
 * undefined keeps the text layer (it reads as a language, OCR agrees with it, OCR read nothing, or no OCR
 * is configured: then a warning says the text may be wrong).
 */
async function readIfSubstituted(page: PDFPageProxy, raw: RawPage, guessedFonts: ReadonlySet<string>, ctx: PageContext): Promise<RawPage | undefined> {
  const evidence = garbledFonts(raw.words, guessedFonts);
  if (!evidence || evidence.letterShare < SUBSTITUTED_LETTER_SHARE) return undefined;
  const why = `font${evidence.fonts.length > 1 ? 's' : ''} ${evidence.fonts.map((f) => `"${f}"`).join(', ')}: ${evidence.reasons.join('; ')}`;
  if (!ctx.ocr) {
    ctx.warnings.push(`Page ${raw.number}: the text layer's letters look substituted (${why}), as from a font mapped to the wrong characters; OCR is not configured, so it was kept`);
    return undefined;
  }
  const warnings: string[] = [];
  let ocrRead: RawPage;
  try {
    ocrRead = await ocrPage(page, raw, { ...ctx, warnings }, undefined);
  } catch (e) {
    ctx.warnings.push(`Page ${raw.number}: the text layer's letters look substituted (${why}) and OCR to check it failed (${e instanceof Error ? e.message : String(e)}); the text layer was kept`);
    return undefined;
  }
  if (ocrRead.error || ocrRead.words.length === 0 || sharedWordShare(raw.words, ocrRead.words) >= MIN_SHARED_WORDS) return undefined;
  ctx.warnings.push(...warnings, `Page ${raw.number}: the text layer does not spell what the page shows (${why}; OCR reads other words), as from a font mapped to the wrong characters; the page was read by OCR`);
  return ocrRead;
}

/**
 * OCR for a page without a usable text layer: rendered (greyscale) at 300 DPI, or lower when
 * 300 DPI would exceed maxPixels; a page that only draws one image (`image`) is rendered from that
 * image's pixels, already decoded for the operator list, without a canvas. The page keeps the PDF's vector content and widgets, minus the
 * raster images covering a large part of the page (the scan itself is not a figure).
 */
async function ocrPage(page: PDFPageProxy, raw: RawPage, ctx: PageContext, image: SingleImage | undefined): Promise<RawPage> {
  const dpi = fitDpi(raw.width, raw.height, OCR_DPI, ctx.limits.maxPixels);
  if (dpi < MIN_OCR_DPI) {
    return fail(raw, `Page ${raw.number} is too large to render for OCR within ${ctx.limits.maxPixels} pixels; it was skipped`, ctx);
  }
  const { png } = await renderPage(page, { dpi, grey: true, maxPixels: ctx.limits.maxPixels }, image, ctx.rasterizer);
  const ocr = await ctx.ocr!.recognize(png, { number: raw.number, widthPt: raw.width, heightPt: raw.height });
  const big = (b: { x0: number; y0: number; x1: number; y1: number }) => (b.x1 - b.x0) * (b.y1 - b.y0) >= 0.3;
  const out: RawPage = {
    ...raw,
    words: ocr.words ?? [],
    segments: [...raw.segments, ...(ocr.segments ?? [])],
    rects: [...raw.rects, ...(ocr.rects ?? [])],
    images: [...raw.images.filter((im) => !(im.kind === 'raster' && big(im.box))), ...(ocr.images ?? [])],
    source: 'ocr',
  };
  if (ocr.correctedRotation !== undefined) out.correctedRotation = ocr.correctedRotation;
  if (ocr.ocr) out.ocr = ocr.ocr;
  if (ocr.ocrEmpty) {
    out.ocrEmpty = ocr.ocrEmpty;
    ctx.warnings.push(emptyPageWarning(ocr)!);
  }
  return out;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
