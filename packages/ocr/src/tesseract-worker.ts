import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import tesseract from 'tesseract.js';

const require = createRequire(import.meta.url);

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

export const THRESHOLDING_METHOD: Record<Binarisation, string> = { otsu: '0', 'adaptive-otsu': '1', sauvola: '2' };

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
}

export type OcrWorkerFactory = (opts: OcrWorkerOptions) => Promise<OcrWorker>;

// The model: 4.0.0_best_int is the LSTM "best" network quantized to int8 — better accuracy than
// tessdata_fast at a similar speed, and 3 MB instead of the 11 MB legacy+LSTM 4.0.0 file.
const MODEL_DIR = '4.0.0_best_int';

/** Folder holding `<lang>.traineddata.gz` for each language; a local path, so nothing is fetched. */
export function languageDataPath(lang: string): string {
  return path.join(path.dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`)), MODEL_DIR);
}

function packagedTessdata(langs: string[]): { langPath: string; gzip: boolean } {
  const langPath = languageDataPath(langs[0]);
  for (const l of langs.slice(1)) {
    // tesseract.js takes one langPath, and each @tesseract.js-data package is its own folder.
    if (languageDataPath(l) !== langPath) throw new Error(`Language ${l} is not in the same folder as ${langs[0]}: pass tessdataDir`);
  }
  return { langPath, gzip: true };
}

function localTessdata(dir: string, langs: string[]): { langPath: string; gzip: boolean } {
  const has = (ext: string) => langs.every((l) => fs.existsSync(path.join(dir, `${l}${ext}`)));
  if (has('.traineddata.gz')) return { langPath: dir, gzip: true };
  if (has('.traineddata')) return { langPath: dir, gzip: false };
  throw new Error(`No traineddata for ${langs.join('+')} in ${dir}`);
}

interface NodeThread { on(ev: 'exit' | 'error', cb: (arg: unknown) => void): void; terminate(): Promise<number> }

let counter = 0;

/** Starts a tesseract.js worker thread, fully offline: local langPath, no cache writes, errors handled. */
export const createTesseractWorker: OcrWorkerFactory = async ({ languages, psm, tessdataDir }) => {
  const langs = languages.split('+');
  const { langPath, gzip } = tessdataDir ? localTessdata(tessdataDir, langs) : packagedTessdata(langs);
  const tw = await tesseract.createWorker(langs, tesseract.OEM.LSTM_ONLY, {
    langPath,
    gzip,
    cacheMethod: 'none',
    logger: () => {},
    // Without an errorHandler a rejected job also throws inside the message listener (uncaught).
    errorHandler: () => {},
  });
  await tw.setParameters({ tessedit_pageseg_mode: String(psm) as tesseract.PSM, user_defined_dpi: '300', ...binarisationParams(DEFAULT_BINARISATION) });
  return wrap(tw, (tw as unknown as { worker: NodeThread }).worker);
};

// tesseract 5's `thresholding_method`; tesseract.js's parameter type does not list it
const binarisationParams = (b: Binarisation) => ({ thresholding_method: THRESHOLDING_METHOD[b] }) as Partial<tesseract.WorkerParams>;

function wrap(tw: tesseract.Worker, thread: NodeThread): OcrWorker {
  const id = `ocr-${++counter}`;
  const deathListeners: ((e: Error) => void)[] = [];
  let dead: Error | null = null;
  let rejectDeath: (e: Error) => void = () => {};
  // tesseract.js never settles a job whose thread died, so every job races this promise.
  const death = new Promise<never>((_, reject) => { rejectDeath = reject; });
  death.catch(() => {});
  const die = (e: Error) => {
    if (dead) return;
    dead = e;
    rejectDeath(e);
    for (const cb of deathListeners) cb(e);
  };
  thread.on('error', (e) => die(e instanceof Error ? e : new Error(String(e))));
  thread.on('exit', (code) => die(new Error(`OCR worker thread exited (code ${String(code)})`)));

  let binarisation = DEFAULT_BINARISATION;
  return {
    id,
    async recognize(image, pass) {
      if (dead) throw dead;
      const want = pass?.binarisation ?? DEFAULT_BINARISATION;
      if (want !== binarisation) {
        // the pool runs one job per worker at a time, so the setting cannot leak into another job
        await Promise.race([tw.setParameters(binarisationParams(want)), death]);
        binarisation = want;
      }
      const job = tw.recognize(Buffer.from(image.buffer, image.byteOffset, image.byteLength), {}, { text: true, blocks: true })
        .then((r) => r.data as unknown as TessResult, (e: unknown) => { throw e instanceof Error ? e : new Error(String(e)); });
      return Promise.race([job, death]);
    },
    async terminate() {
      if (!dead) await tw.terminate();
    },
    kill() {
      void thread.terminate();
    },
    onDeath(cb) {
      if (dead) cb(dead);
      else deathListeners.push(cb);
    },
  };
}
