/**
 * The OCR worker port: what the pool (worker-pool.ts) and recognizePage need from one OCR engine
 * instance, and the result shape they read. Adapters: tesseract-worker.ts (tesseract.js, WASM in a
 * worker thread) and native-worker.ts (the tesseract CLI); both pass test/ocr-worker.conformance.ts.
 */
/** The part of tesseract's JSON output we read (tesseract.js `blocks` output). */
export interface TessBbox { x0: number; y0: number; x1: number; y1: number }
export interface TessWord { text: string; confidence: number; bbox: TessBbox }
export interface TessLine { bbox: TessBbox; words: TessWord[]; rowAttributes?: { rowHeight?: number } }
export interface TessBlock { paragraphs: { lines: TessLine[] }[] }
export interface TessResult { blocks: TessBlock[]; confidence: number; text: string }

/**
 * How tesseract turns the grey page into ink and paper before reading it: one global Otsu threshold,
 * Otsu per tile (adapts to uneven light), or Sauvola's local threshold (adapts to faint, low-contrast
 * print). Photos and thermal receipts read better with the local ones; they cost no extra time.
 */
export type Binarisation = 'otsu' | 'adaptive-otsu' | 'sauvola';

/** What may change from one recognition to the next on the same worker. */
export interface OcrPass { binarisation?: Binarisation }

/**
 * The first reading's binarisation: tesseract's own global Otsu, best on clean print (a local
 * threshold loses confidence on some words of a clean scan and, as a first reading, lowered the
 * corpus images' text similarity). A page that reads poorly gets a second reading (recognizePage)
 * with Otsu per tile, which recovers lines that uneven light or faint print cost the first.
 */
export const DEFAULT_BINARISATION: Binarisation = 'otsu';
export const SECOND_BINARISATION: Binarisation = 'adaptive-otsu';

/**
 * One OCR worker as the pool sees it. `onDeath` fires once when the underlying thread is gone
 * (crash, abort, terminate) so the pool can fail the job in flight and replace the worker.
 */
export interface OcrWorker {
  readonly id: string;
  /** Recognizes an encoded image (PGM, PNG, JPEG …), with this pass's settings (default binarisation otherwise). */
  recognize(image: Uint8Array, pass?: OcrPass): Promise<TessResult>;
  /** Graceful stop. */
  terminate(): Promise<void>;
  /** Abrupt stop of the thread (what a crash looks like); used by the pool on timeouts. */
  kill(): void;
  onDeath(cb: (reason: Error) => void): void;
}

export interface OcrWorkerOptions {
  languages: string;
  psm: number;
  /**
   * Folder with `<lang>.traineddata.gz` or `<lang>.traineddata` (e.g. Debian's tessdata_fast in
   * /usr/share/tesseract-ocr/5/tessdata). Default: the @tesseract.js-data packages' 4.0.0_best_int.
   */
  tessdataDir?: string;
  /**
   * What the engine itself prints (tesseract's "Detected 12 diacritics", "Empty page!!" …), one call per
   * line, for the caller's logger; never written to the process's stdout. Default: dropped.
   */
  onEngineOutput?: (line: string, stream: 'stdout' | 'stderr') => void;
}

export type OcrWorkerFactory = (opts: OcrWorkerOptions) => Promise<OcrWorker>;
