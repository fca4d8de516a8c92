import type { OcrEngine, RawPage } from '@quire/core';
import { createOcrPool, type OcrPool } from '@quire/ocr';
import type { Config } from '@quire/runtime';
import { createLanguageModel, mapFormInstructionsBuiltin, type LanguageModel } from '@quire/models';
import { setPdfWorkerThread } from '@quire/format-pdf';
import { BUILTIN_ENGINES } from './language-model.js';

export interface StepServices {
  ocr: OcrEngine;
  languageModel: LanguageModel;
  close(): Promise<void>;
}

/**
 * Process-wide services for handlers. The OCR pool starts on the first page that needs it (it costs
 * ~0.4 s and ~370 MB per worker), so text-only workloads never pay for it.
 */
export function createStepServices(config: Config): StepServices {
  setPdfWorkerThread(config.pdfWorkerThread);
  let pool: Promise<OcrPool> | undefined;
  const ocr: OcrEngine = {
    recognize: async (image: Uint8Array, page: { number: number; widthPt: number; heightPt: number }): Promise<RawPage> => {
      pool ??= createOcrPool({ size: config.ocrWorkers });
      return (await pool).recognize(image, page);
    },
  };
  return { ocr, languageModel: createLanguageModel(config.llm, { ...BUILTIN_ENGINES, mapFormInstructions: mapFormInstructionsBuiltin }), close: async () => { if (pool) await (await pool).close(); } };
}
