import type { OcrEngine, RawPage } from '@quire/core';
import type { LanguageModel } from '@quire/models';
import { createOcrPool, type OcrPool } from '@quire/ocr';
import type { Config } from '@quire/runtime';
import { createLanguageModel, mapFormInstructionsBuiltin } from '@quire/models';
import { classifyBuiltin } from '@quire/classify';
import { splitBuiltin } from '@quire/split';
import { extractSchemaBuiltin } from '@quire/schema';

export interface StepServices {
  ocr: OcrEngine;
  /** The LanguageModel port: the OpenAI-compatible adapter when QUIRE_LLM_BASE_URL is set, else the built-in engines. */
  languageModel: LanguageModel;
  close(): Promise<void>;
}

/**
 * Process-wide services for handlers. The OCR pool starts on the first page that needs it (it costs
 * ~0.4 s and ~370 MB per worker), so text-only workloads never pay for it.
 */
export function createStepServices(config: Config): StepServices {
  let pool: Promise<OcrPool> | undefined;
  const ocr: OcrEngine = {
    recognize: async (image: Uint8Array, page: { number: number; widthPt: number; heightPt: number }): Promise<RawPage> => {
      pool ??= createOcrPool({ size: config.ocrWorkers });
      return (await pool).recognize(image, page);
    },
  };
  const languageModel = createLanguageModel(config.llm, {
    extractSchema: extractSchemaBuiltin, classify: classifyBuiltin, split: splitBuiltin, mapFormInstructions: mapFormInstructionsBuiltin,
  });
  return { ocr, languageModel, close: async () => { if (pool) await (await pool).close(); } };
}
