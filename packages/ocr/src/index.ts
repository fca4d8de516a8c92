import os from 'node:os';
import { DEFAULT_LIMITS, type OcrEngine } from '@quire/core';
import { recognizePage } from './recognize-page.js';
import { createNativeTesseractWorkerFactory } from './native-worker.js';
import type { OcrWorkerFactory } from './ocr-worker.js';
import { createTesseractWorker } from './tesseract-worker.js';
import { WorkerPool } from './worker-pool.js';

/** Which tesseract runs the recognitions: tesseract.js (WASM, in worker threads) or the native CLI. */
export type OcrEngineKind = 'wasm' | 'native';

export interface OcrPoolOptions {
  /**
   * 'wasm' (default): tesseract.js, nothing to install. 'native': the tesseract 4/5 CLI, one process
   * per recognition, 0.65–0.8× the WASM engine's time per page with the same model; creation fails
   * when the binary is missing or is not tesseract 4+.
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
 * the others start on demand.
 */
export async function createOcrPool(opts: OcrPoolOptions = {}): Promise<OcrPool> {
  const pool = new WorkerPool({
    size: Math.max(1, opts.size ?? os.availableParallelism()),
    factory: opts.workerFactory ?? (opts.engine === 'native'
      ? createNativeTesseractWorkerFactory({ binary: opts.tesseractPath, cacheDir: opts.tessdataCacheDir })
      : createTesseractWorker),
    languages: opts.languages ?? 'eng',
    psm: opts.psm ?? 3,
    tessdataDir: opts.tessdataDir,
    onEngineOutput: opts.onEngineOutput,
    jobTimeoutMs: opts.jobTimeoutMs ?? 300_000,
  });
  await pool.warmUp();
  const maxPixels = opts.maxPixels ?? DEFAULT_LIMITS.maxPixels;
  return {
    size: pool.size,
    recognize: (image, page) => recognizePage({ ocr: (img, pass) => pool.recognize(img, pass), maxPixels }, image, page),
    close: () => pool.close(),
  };
}

export { recognizePage, rasterRulings, chooseScale, candidateAngles, type PageInfo, type RecognizeDeps } from './recognize-page.js';
export { detectRulings, rulingsToRaw, dropTextUnderlines, type PixelLine, type PixelSquare, type RasterRulings, type RulingOptions } from './rulings.js';
export { analysePage, otsuThreshold, type GreyImage, type PageAnalysis } from './analysis.js';
export { boxToPage, toPage, rotateBoxQuarter, splitRotation, normalizeAngle, type ImageTransform } from './transform.js';
export { DEFAULT_BINARISATION, SECOND_BINARISATION, type Binarisation, type OcrPass, type OcrWorker, type OcrWorkerFactory, type OcrWorkerOptions, type TessResult } from './ocr-worker.js';
export { createTesseractWorker } from './tesseract-worker.js';
export { languageDataPath } from './tesseract-settings.js';
export { mergeReadings } from './merge-readings.js';
export { checkTesseractBinary, createNativeTesseractWorkerFactory, nativeTessdataDir, parseTesseractTsv, parseHocrRowHeights, parseTesseractVersion, splitNativeOutput, type NativeEngineOptions, type TesseractVersion } from './native-worker.js';
export { WorkerPool, type WorkerPoolOptions } from './worker-pool.js';
