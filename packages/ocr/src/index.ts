import os from 'node:os';
import { DEFAULT_LIMITS, type OcrEngine } from '@quire/core';
import { recognizePage, type OcrEngineName, type RecognizeDeps } from './recognize-page.js';
import { createNativeTesseractWorkerFactory } from './native-worker.js';
import { checkOnnxPpocrInstalled, createOnnxPpocrWorkerFactory } from './onnx-worker.js';
import type { OcrWorkerFactory } from './ocr-worker.js';
import { createTesseractWorker } from './tesseract-worker.js';
import { WorkerPool } from './worker-pool.js';

/**
 * Which engine reads: tesseract.js (WASM, in worker threads), the native tesseract CLI, PP-OCR through
 * ONNX Runtime (onnx), or auto: chosen per page (recognizePage, engine-choice.ts): tesseract.js for a flat scan
 * of ordinary print it reads surely, PP-OCR for the rest, tesseract.js too on pages PP-OCR reads poorly.
 */
export type OcrEngineKind = 'wasm' | 'native' | 'onnx' | 'auto';

/**
 * PP-OCR's recognizer spells Chinese and English (its dictionary has no accented Latin letters: no é, ü,
 * ß, ø); pages in other languages are read by tesseract whatever the engine setting.
 */
export function learnedReaderSpells(languages: string): boolean {
  return languages.split('+').every((l) => l === 'eng' || l === 'chi_sim' || l === 'chi_tra');
}

/** The engines a setting comes to for these languages: the page's reader and, for auto, the learned one beside it. */
export function resolveEngines(engine: OcrEngineKind, languages: string): { primary: OcrEngineName; learned?: OcrEngineName } {
  const spells = learnedReaderSpells(languages);
  if (engine === 'onnx') return { primary: spells ? 'onnx' : 'wasm' };
  if (engine === 'auto') return spells ? { primary: 'wasm', learned: 'onnx' } : { primary: 'wasm' };
  return { primary: engine };
}

export interface OcrPoolOptions {
  /**
   * 'wasm' (default): tesseract.js, nothing to install. 'native': the tesseract 4/5 CLI, one process
   * per recognition, 0.65–0.8× the WASM engine's time per page with the same model; creation fails
   * when the binary is missing or is not tesseract 4+. 'onnx': PP-OCRv4 with onnxruntime-node (models
   * packaged). 'auto': tesseract.js and PP-OCR, chosen per page from cheap evidence (engine-choice.ts).
   * onnx and auto read with tesseract.js alone when `languages` need letters PP-OCR cannot spell
   * (learnedReaderSpells).
   */
  engine?: OcrEngineKind;
  /** The native engine's executable (a path, or a name on PATH); default `tesseract`. */
  tesseractPath?: string;
  /** Native engine: where the packaged gzipped model is unpacked once; default os.tmpdir()/quire-tessdata. */
  tessdataCacheDir?: string;
  /** Workers (threads, or tesseract processes at once); default one per core (os.availableParallelism()). */
  size?: number;
  /** tesseract page segmentation mode; default 3 (fully automatic, no OSD). */
  psm?: number;
  /** tesseract language string ('eng', 'eng+deu' …); each needs its @tesseract.js-data package. */
  languages?: string;
  /**
   * Folder of traineddata to use instead of the packaged 4.0.0_best_int model, e.g. Debian's
   * tessdata_fast (/usr/share/tesseract-ocr/5/tessdata): about twice as fast on dense pages, a
   * little less accurate. Read from disk only; nothing is ever downloaded. The native engine reads
   * `<lang>.traineddata` there directly and unpacks `<lang>.traineddata.gz` into its cache.
   */
  tessdataDir?: string;
  /** Largest image (width × height) accepted; default the core limit. Over it: REQ_003. */
  maxPixels?: number;
  /** A recognition running longer is treated as a hung worker; default 300 s. */
  jobTimeoutMs?: number;
  /** Worker constructor (tests wrap it to simulate crashes). */
  workerFactory?: OcrWorkerFactory;
  /** The engine's own printed lines (see OcrWorkerOptions.onEngineOutput), e.g. to a logger at debug level. */
  onEngineOutput?: (line: string, stream: 'stdout' | 'stderr') => void;
}

export interface OcrPool extends OcrEngine {
  readonly size: number;
  close(): Promise<void>;
}

/**
 * A pool of OCR workers (tesseract.js threads, or native tesseract processes) behind the OcrEngine
 * port. Jobs queue FIFO; a worker that errors, hangs or dies is replaced and its job retried once.
 * Creation waits for the first worker, so a missing language package (or native binary) fails here;
 * the others start on demand (with `auto`, the learned reader's first one too; its install is checked here).
 */
export async function createOcrPool(opts: OcrPoolOptions = {}): Promise<OcrPool> {
  const size = Math.max(1, opts.size ?? os.availableParallelism());
  const languages = opts.languages ?? 'eng';
  const { primary, learned } = resolveEngines(opts.engine ?? 'wasm', languages);
  const factoryFor = (engine: OcrEngineName): OcrWorkerFactory => {
    if (engine === 'native') return createNativeTesseractWorkerFactory({ binary: opts.tesseractPath, cacheDir: opts.tessdataCacheDir });
    if (engine === 'onnx') return createOnnxPpocrWorkerFactory({ workers: size });
    return createTesseractWorker;
  };
  const poolFor = (engine: OcrEngineName) => new WorkerPool({
    size,
    factory: opts.workerFactory ?? factoryFor(engine),
    languages,
    psm: opts.psm ?? 3,
    tessdataDir: opts.tessdataDir,
    onEngineOutput: opts.onEngineOutput,
    jobTimeoutMs: opts.jobTimeoutMs ?? 300_000,
  });
  const pool = poolFor(primary);
  // auto: the learned reader's workers (PP-OCR's sessions and their buffers, ~0.4 GB each) start with the first
  // page that goes to them, so flat scans and text pages never load them; only its files are checked here.
  const learnedPool = learned ? poolFor(learned) : undefined;
  if (learned === 'onnx' && !opts.workerFactory) checkOnnxPpocrInstalled();
  await pool.warmUp();
  const deps: RecognizeDeps = {
    ocr: (img, pass) => pool.recognize(img, pass),
    maxPixels: opts.maxPixels ?? DEFAULT_LIMITS.maxPixels,
    engine: primary,
    ...(learnedPool && learned ? { learned: { name: learned, ocr: (img) => learnedPool.recognize(img) } } : {}),
  };
  return {
    size: pool.size,
    recognize: (image, page) => recognizePage(deps, image, page),
    close: async () => { await Promise.all([pool.close(), learnedPool?.close()]); },
  };
}

export { recognizePage, rasterRulings, chooseScale, candidateAngles, LEARNED_POOR_BELOW, type EngineReader, type OcrEngineName, type PageInfo, type RecognizeDeps } from './recognize-page.js';
export { checkOnnxPpocrInstalled, createOnnxPpocrWorkerFactory, ppocrModelPaths, ppocrThreadEntry, type OnnxEngineOptions } from './onnx-worker.js';
export { detectRulings, rulingsToRaw, dropTextUnderlines, type PixelLine, type PixelSquare, type RasterRulings, type RulingOptions } from './rulings.js';
export { analysePage, otsuThreshold, type GreyImage, type PageAnalysis } from './analysis.js';
export { boxToPage, toPage, rotateBoxQuarter, splitRotation, normalizeAngle, type ImageTransform } from './transform.js';
export { DEFAULT_BINARISATION, SECOND_BINARISATION, type Binarisation, type OcrPass, type OcrWorker, type OcrWorkerFactory, type OcrWorkerOptions, type TessResult } from './ocr-worker.js';
export { createTesseractWorker } from './tesseract-worker.js';
export { languageDataPath } from './tesseract-settings.js';
export { mergeReadings } from './merge-readings.js';
export { checkTesseractBinary, createNativeTesseractWorkerFactory, nativeTessdataDir, parseTesseractTsv, parseHocrRowHeights, parseTesseractVersion, splitNativeOutput, type NativeEngineOptions, type TesseractVersion } from './native-worker.js';
export { WorkerPool, type WorkerPoolOptions } from './worker-pool.js';
