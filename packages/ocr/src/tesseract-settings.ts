// What both tesseract adapters (tesseract.js and the native CLI) set up the same way: the packaged
// model and the parameter behind each binarisation.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Binarisation } from './ocr-worker.js';

const require = createRequire(import.meta.url);

// The model: 4.0.0_best_int is the LSTM "best" network quantized to int8 — better accuracy than
// tessdata_fast at a similar speed, and 3 MB instead of the 11 MB legacy+LSTM 4.0.0 file.
const MODEL_DIR = '4.0.0_best_int';

/** Folder holding `<lang>.traineddata.gz` for each language; a local path, so nothing is fetched. */
export function languageDataPath(lang: string): string {
  return path.join(path.dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`)), MODEL_DIR);
}

/** tesseract 5's `thresholding_method` value for each binarisation. */
export const THRESHOLDING_METHOD: Record<Binarisation, string> = { otsu: '0', 'adaptive-otsu': '1', sauvola: '2' };
