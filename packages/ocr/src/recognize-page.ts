import type { Box, RawPage } from '@quire/core';
import { analysePage, type GreyImage, type PageAnalysis } from './analysis.js';
import { decodeGrey, downscale, rescale, renderForOcr, renderProbe } from './preprocess.js';
import { mergeReadings } from './merge-readings.js';
import { looksLikeFlatScan, pageEvidence, SMALL_ROW_PX, TESSERACT_KEEPS_FROM } from './engine-choice.js';
import { SECOND_BINARISATION, type OcrPass, type TessResult } from './ocr-worker.js';
import { normalizeAngle, splitRotation, type ImageTransform } from './transform.js';
import { readability, toRawWords } from './words.js';
import { detectRulings, dropTextUnderlines, rulingsToRaw } from './rulings.js';
import { cropToPaper, findPaper, uncropBox, type PixelCrop } from './paper.js';

export interface PageInfo { number: number; widthPt: number; heightPt: number }

/** The OCR engines a page can be read with (QUIRE_OCR_ENGINE's values but `auto`). */
export type OcrEngineName = 'wasm' | 'native' | 'onnx';

export interface EngineReader {
  name: OcrEngineName;
  /** Runs one recognition (through the engine's pool). */
  ocr: (image: Uint8Array, pass?: OcrPass) => Promise<TessResult>;
}

export interface RecognizeDeps {
  /** Runs one recognition with the page's engine (through the pool). */
  ocr: (image: Uint8Array, pass?: OcrPass) => Promise<TessResult>;
  maxPixels: number;
  /** Which engine `ocr` is (reported on the page; a tesseract engine's poor reading is re-read with another binarisation). Default 'wasm'. */
  engine?: OcrEngineName;
  /**
   * QUIRE_OCR_ENGINE=auto: the learned reader beside tesseract (`ocr`). A page that looks like a flat scan of
   * ordinary print is read by tesseract first and kept when tesseract is sure of it (engine-choice.ts); every
   * other page is read by the learned reader, and one it reads poorly (mean confidence < LEARNED_POOR_BELOW)
   * by tesseract too, the better reading of each line kept (mergeReadings).
   */
  learned?: EngineReader;
}

/**
 * auto, on a page the learned reader reads: the learned reader read every kind of corpus page better than
 * tesseract (photographed and scanned receipts, scanned forms, book scans; #17 figures), but where its own mean
 * confidence is below this, tesseract reads the page too and the better line is kept.
 */
export const LEARNED_POOR_BELOW = 80;

const ANALYSIS_SIDE = 1000;
/**
 * Text rows smaller than SMALL_ROW_PX (engine-choice.ts, which also routes by it) are scaled up to
 * TARGET_ROW_PX. A row (ascender to descender) is about
 * twice the x-height; tesseract's accuracy falls off below an x-height of ~20 px, and 10 pt print at
 * 300 DPI (rows of ~40 px) already reads at ~1 % CER, so only smaller text is enlarged — to an
 * x-height of ~25 px, where photographed receipts and low-resolution scans read best (measured on the
 * corpus receipts: rows scaled to 40 px lost digits and decimal points that 50 px rows keep).
 */
const TARGET_ROW_PX = 50;
/** Rows smaller than `small` are enlarged to `target`. */
export interface RowTarget { small: number; target: number }
const TESSERACT_ROWS: RowTarget = { small: SMALL_ROW_PX, target: TARGET_ROW_PX };
/**
 * PP-OCR resamples each line to a 48 px high crop (~1.1 rows) and detects at ~28 px rows: rows of 32 px
 * keep what it reads, and enlarging a FUNSD-size form (~13 px rows) to tesseract's 50 px made a 10 MP image
 * that cost 5–7 s a page for nothing.
 */
export const LEARNED_ROWS: RowTarget = { small: 24, target: 32 };
/** Enlarging further only interpolates: the glyphs gain no detail. */
const MAX_UPSCALE = 4;
/** Largest image handed to tesseract (its WASM heap is bounded). */
const MAX_OCR_PIXELS = 40_000_000;
/**
 * The projection-profile band of a text line covers the dense x-height zone more than the sparse
 * ascender/descender tails: on rendered 11 pt text at 300 DPI it measures ~0.74 of tesseract's row height.
 */
const ROW_PER_BAND = 1.35;
/**
 * A page whose best reading has a mean word confidence below this (a photo, a faint thermal receipt,
 * a poor fax; clean scans read above 90, noisy form scans 86–90) is read a second time with a local
 * (per-tile) threshold, and the two readings are merged line by line (mergeReadings).
 */
const SECOND_READING_BELOW = 85;
/** Skew below this is left alone: resampling blurs more than the skew hurts. */
const MIN_SKEW_DEG = 0.3;

/** Scale that brings text to ~300 DPI size: from the measured line height, else from the nominal DPI. */
export function chooseScale(rowPx: number | null, width: number, height: number, page: PageInfo, maxPixels: number, rows: RowTarget = TESSERACT_ROWS): number {
  let s = 1;
  if (rowPx !== null) {
    if (rowPx < rows.small) s = Math.min(MAX_UPSCALE, rows.target / rowPx);
    else if (rowPx > 160) s = Math.max(0.5, 80 / rowPx);
  } else {
    const dpi = width / (page.widthPt / 72);
    if (dpi > 0 && dpi < 200) s = Math.min(3, 300 / dpi);
  }
  const cap = Math.sqrt(Math.min(maxPixels, MAX_OCR_PIXELS) / (width * height));
  return Math.min(s, Math.max(cap, 0.1));
}

/** Candidate clockwise corrections, most likely first: the line direction made horizontal, then the flip. */
export function candidateAngles(a: PageAnalysis): number[] {
  let first = normalizeAngle(-a.lineAngle);
  const { quarter, skew } = splitRotation(first);
  if (Math.abs(skew) < MIN_SKEW_DEG) first = quarter;
  const out = [first, normalizeAngle(first + 180)];
  // A weak axis decision (little text, tables, pictures) also tries the perpendicular pair.
  if (a.axisMargin < 1.3) out.push(normalizeAngle(first + 90), normalizeAngle(first - 90));
  return out;
}

type Readability = ReturnType<typeof readability>;

const looksRight = (r: Readability) => r.meanConfidence >= 70 && (r.letters >= 20 || r.meanConfidence >= 85);

const PROBE_ROWS = 12;

async function worthFullPass(ocr: RecognizeDeps['ocr'], scaled: GreyImage, angle: number, a: PageAnalysis, rowPx: number, sofar: Readability): Promise<boolean> {
  const probe = readability(await ocr(await renderProbe(scaled, angle, a.inkCentre, rowPx, PROBE_ROWS)));
  return looksRight(probe) || probe.meanConfidence > sofar.meanConfidence + 15;
}

/**
 * OCR of one page image: decode and normalise, find orientation and skew cheaply, read the upright
 * guess (and the other candidates only when it reads badly), and map the words back onto the
 * image as the caller sent it.
 */
export async function recognizePage(deps: RecognizeDeps, image: Uint8Array, page: PageInfo): Promise<RawPage> {
  const started = performance.now();
  const read = await readPage(deps, image, page);
  return { ...read.page, ocr: { engine: read.engine, meanConfidence: read.meanConfidence, seconds: Math.round(performance.now() - started) / 1000 } };
}

type PageReading = { page: RawPage; engine: string; meanConfidence: number };

async function readPage(deps: RecognizeDeps, image: Uint8Array, page: PageInfo): Promise<PageReading> {
  const primary = deps.engine ?? 'wasm';
  const base: RawPage = {
    number: page.number, width: page.widthPt, height: page.heightPt,
    words: [], segments: [], rects: [], images: [], widgets: [], source: 'ocr', correctedRotation: 0,
  };
  const decoded = await decodeGrey(image, deps.maxPixels);
  let grey = decoded, { image: small, factor } = await downscale(decoded, ANALYSIS_SIDE);
  // A sheet photographed on a darker surface is read on its own: the surface's edge would pass for
  // text lines (turning the orientation) and its texture for words. Boxes are mapped back afterwards.
  let crop: PixelCrop | null = null;
  const paper = findPaper(small);
  if (paper) {
    ({ image: grey, crop } = cropToPaper(decoded, paper));
    ({ image: small, factor } = await downscale(grey, ANALYSIS_SIDE));
  }
  const sheet: PageInfo = crop
    ? { number: page.number, widthPt: (page.widthPt * crop.width) / crop.srcWidth, heightPt: (page.heightPt * crop.height) / crop.srcHeight }
    : page;
  // stroke widths are normalized by the page's larger side: the sheet's, then the image's
  const widthScale = Math.max(sheet.widthPt, sheet.heightPt) / Math.max(page.widthPt, page.heightPt);
  const onSource = (p: RawPage): RawPage => (crop ? uncropPage(p, crop, widthScale) : p);
  const analysis = analysePage(small);
  // The analysis only decides where to look; a page is called blank only after one upright reading
  // finds nothing (a faint or oddly encoded scan must not come back empty on the analysis's word alone).
  if (analysis.blank) {
    const { page: upright, meanConfidence } = await readUpright(deps, grey, sheet, base);
    return { page: onSource(upright), engine: primary, meanConfidence };
  }
  const rowOf = (bandPx: number | null | undefined) => (bandPx == null ? null : (bandPx / factor) * ROW_PER_BAND);
  let rowPx = rowOf(analysis.lineHeight);
  // Thin bands that are only ruling lines (a ruled table with more rules than rows of text) must not
  // make text that is large enough look small: the 4× upscale that follows leaves tesseract nothing to read.
  const textRowPx = rowOf(analysis.textLineHeight);
  if (rowPx !== null && rowPx < SMALL_ROW_PX && textRowPx !== null && textRowPx >= SMALL_ROW_PX) rowPx = textRowPx;

  let chosen: OrientedReading;
  let used: string;
  if (!deps.learned) {
    chosen = await readOriented({ name: primary, ocr: deps.ocr }, grey, sheet, analysis, rowPx, deps.maxPixels);
    used = primary;
    // A poor tesseract reading is re-read with a local threshold; the learned reader reads the grey image
    // itself, so another binarisation would change nothing there.
    if (chosen.r.meanConfidence < SECOND_READING_BELOW && primary !== 'onnx') {
      chosen = { ...chosen, res: mergeReadings(chosen.res, await deps.ocr(chosen.image, { binarisation: SECOND_BINARISATION })) };
    }
  } else {
    // auto: a flat scan of ordinary print is read by tesseract first, and kept when tesseract is sure of it
    // (engine-choice.ts); every other page, and a flat one tesseract is unsure of, by the learned reader.
    const tesseractFirst = looksLikeFlatScan(pageEvidence(grey, crop !== null, rowPx));
    const first = tesseractFirst ? await readOriented({ name: primary, ocr: deps.ocr }, grey, sheet, analysis, rowPx, deps.maxPixels) : null;
    if (first && first.r.meanConfidence >= TESSERACT_KEEPS_FROM) {
      chosen = first;
      used = primary;
    } else {
      chosen = await readOriented(deps.learned, grey, sheet, analysis, rowPx, deps.maxPixels);
      used = deps.learned.name;
      // a poor learned reading is read by tesseract too, line by line the better reading kept
      if (chosen.r.meanConfidence < LEARNED_POOR_BELOW) {
        chosen = { ...chosen, res: mergeReadings(chosen.res, await deps.ocr(chosen.image)) };
        used = `${deps.learned.name}+${primary}`;
      }
    }
  }
  const { t, res } = chosen;
  const ptPerSrcPx = (sheet.widthPt / grey.width + sheet.heightPt / grey.height) / 2;
  const ptPerOcrPx = ptPerSrcPx * (grey.width / t.scaledWidth);
  const words = toRawWords(res, t, ptPerOcrPx);
  return {
    page: onSource({ ...base, words, ...rasterRulings(grey, analysis, sheet, words), correctedRotation: splitRotation(t.angle).quarter, ...(splitRotation(t.angle).skew ? { correctedSkew: splitRotation(t.angle).skew } : {}), ...(words.length ? {} : { ocrEmpty: 'unread' as const }) }),
    engine: used,
    meanConfidence: meanWordConfidence(words),
  };
}

type OrientedReading = { res: TessResult; t: ImageTransform; r: Readability; image: Uint8Array };

/**
 * One engine's reading of the page, orientation found: the page is scaled for the engine (tesseract and the
 * learned reader want different row heights), read upright-as-guessed first, and the other candidate angles
 * only when that reads badly (a band of the page first says whether a full pass is worth it).
 */
async function readOriented(reader: EngineReader, grey: GreyImage, sheet: PageInfo, analysis: PageAnalysis, rowPx: number | null, maxPixels: number): Promise<OrientedReading> {
  const { ocr } = reader;
  const scale = chooseScale(rowPx, grey.width, grey.height, sheet, maxPixels, reader.name === 'onnx' ? LEARNED_ROWS : TESSERACT_ROWS);
  const scaled = await rescale(grey, scale);
  const readAt = async (angle: number): Promise<OrientedReading> => {
    const { image: ocrImage, transform } = await renderForOcr(scaled, angle, grey);
    const res = await ocr(ocrImage);
    return { res, t: transform, r: readability(res), image: ocrImage };
  };
  let best: OrientedReading | null = null;
  const tried: number[] = [];
  for (const angle of candidateAngles(analysis)) {
    // After a bad first read, a band of the page says whether another orientation is worth a full pass.
    if (best && !(await worthFullPass(ocr, scaled, angle, analysis, (rowPx ?? TARGET_ROW_PX) * scale, best.r))) continue;
    const reading = await readAt(angle);
    tried.push(angle);
    if (!best || reading.r.score > best.r.score) best = reading;
    if (looksRight(reading.r)) break;
  }
  // The line analysis can be fooled (a photo's shadows, a ruled frame, a sideways stamp): a turned
  // reading that reads badly is compared with the page as sent, and the better one is kept.
  if (!looksRight(best!.r) && !tried.some((a) => splitRotation(a).quarter === 0)) {
    const upright = await readAt(0);
    if (upright.r.score > best!.r.score) best = upright;
  }
  return best!;
}

const meanWordConfidence = (words: RawPage['words']) => (words.length ? Math.round((words.reduce((s, w) => s + (w.confidence ?? 0), 0) / words.length) * 1000) / 1000 : 0);

/** A page read on the crop of its paper, with every box put back on the image as sent. */
function uncropPage(p: RawPage, crop: PixelCrop, widthScale: number): RawPage {
  const box = (b: Box) => uncropBox(crop, b);
  return {
    ...p,
    words: p.words.map((w) => ({ ...w, box: box(w.box) })),
    segments: p.segments.map((s) => ({ ...box(s), width: s.width * widthScale })),
    rects: p.rects.map((r) => ({ ...r, box: box(r.box) })),
  };
}

/** One reading of the page as sent, at the scale its nominal resolution asks for: the check before calling a page blank. */
async function readUpright(deps: RecognizeDeps, grey: GreyImage, page: PageInfo, base: RawPage): Promise<{ page: RawPage; meanConfidence: number }> {
  const scaled = await rescale(grey, chooseScale(null, grey.width, grey.height, page, deps.maxPixels));
  const { image, transform } = await renderForOcr(scaled, 0, grey);
  const ptPerOcrPx = ((page.widthPt / grey.width + page.heightPt / grey.height) / 2) * (grey.width / transform.scaledWidth);
  const words = toRawWords(await deps.ocr(image), transform, ptPerOcrPx);
  return { page: words.length ? { ...base, words } : { ...base, ocrEmpty: 'blank' }, meanConfidence: meanWordConfidence(words) };
}

/**
 * Ruling lines and checkbox squares of the scan, on the page as sent (like the words), read along
 * the skew the analysis measured; lines that only underline a run of text are dropped.
 */
export function rasterRulings(grey: GreyImage, analysis: PageAnalysis, page: PageInfo, words: RawPage['words']): Pick<RawPage, 'segments' | 'rects'> {
  const found = detectRulings(grey, { skewDeg: splitRotation(analysis.lineAngle).skew, pxPerPt: grey.width / page.widthPt });
  const raw = rulingsToRaw(found, grey, page);
  return { segments: dropTextUnderlines(raw.segments, words), rects: raw.rects };
}
