import { existsSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import type { OcrEngine, RawPage } from '@quire/core';
import { checkTesseractBinary, createOcrPool, type OcrPool } from '@quire/ocr';
import { ConfigError, type Config, type Logger, type Metrics } from '@quire/runtime';
import { JobThreadPool, type RunnableJobHandler } from '@quire/jobs';
import { createLanguageModel, type LanguageModel } from '@quire/models';
import { mapFormInstructionsByLabel } from '@quire/forms';
import { setPdfWorkerThread } from '@quire/format-pdf';
import { classifyBuiltin } from '@quire/classify';
import { extractSchemaBuiltin } from '@quire/schema';
import { splitBuiltin } from '@quire/split';
import { JOB_HANDLERS } from './handlers.js';

export interface StepServices {
  ocr: OcrEngine;
  languageModel: LanguageModel;
  /** Job kind → handler for the JobRunner: on job threads when there are any, else JOB_HANDLERS as they are. */
  handlers: Record<string, RunnableJobHandler>;
  /** Where handlers run: 'threads' (QUIRE_JOB_THREADS > 0 and built code) or 'main'. */
  handlersOn: 'threads' | 'main';
  close(): Promise<void>;
}

/**
 * Process-wide services for handlers. The OCR pool starts on the first page that needs it (it costs
 * ~0.4 s and ~370 MB per worker), so text-only workloads never pay for it; job threads use this
 * process's pool remotely rather than each starting their own.
 *
 * Handlers run on a JobThreadPool of QUIRE_JOB_THREADS threads, so a long layout, XLSX or table step
 * never blocks this process's event loop. The threads run the built JavaScript (dist/job-thread.js):
 * when this module runs as TypeScript source (jest), there is no thread module to start, and the
 * handlers run on the calling thread as with QUIRE_JOB_THREADS=0.
 */
export function createStepServices({ config, log, metrics }: { config: Config; log: Logger; metrics: Metrics }): StepServices {
  setPdfWorkerThread(config.pdfWorkerThread ?? isMainThread); // handlers on this thread (QUIRE_JOB_THREADS=0); see threadLocalServices
  let pool: Promise<OcrPool> | undefined;
  const ocr: OcrEngine = {
    recognize: async (image: Uint8Array, page: { number: number; widthPt: number; heightPt: number }): Promise<RawPage> => {
      pool ??= createOcrPool(ocrPoolOptions(config, log));
      const read = await (await pool).recognize(image, page);
      if (read.ocr) {
        metrics.ocrPageSeconds.observe({ engine: read.ocr.engine }, read.ocr.seconds);
        metrics.ocrPageConfidence.observe({ engine: read.ocr.engine }, read.ocr.meanConfidence);
      }
      return read;
    },
  };
  const entry = new URL('./job-thread.js', import.meta.url);
  const threads = config.jobThreads > 0 && existsSync(fileURLToPath(entry))
    ? new JobThreadPool({ entry, size: config.jobThreads, config, log, sharedOcr: true, onThreadCount: (n) => metrics.jobThreads.set(n) })
    : undefined;
  threads?.warm();
  const handlers = threads ? Object.fromEntries(Object.keys(JOB_HANDLERS).map((kind) => [kind, threads.handler(kind)])) : JOB_HANDLERS;
  return {
    ocr,
    languageModel: threadLocalServices(config).languageModel,
    handlers,
    handlersOn: threads ? 'threads' : 'main',
    close: async () => {
      await threads?.close();
      if (pool) await (await pool).close();
    },
  };
}

/** The OCR pool the configuration asks for (created on the first page that needs OCR). */
export function ocrPoolOptions(config: Config, log?: Logger): Parameters<typeof createOcrPool>[0] {
  return {
    size: config.ocrWorkers, engine: config.ocrEngine, tesseractPath: config.tesseractPath, tessdataDir: config.ocrTessdataDir,
    // tesseract's own chatter ("Detected 12 diacritics") is a debug line of ours, never raw stdout
    ...(log ? { onEngineOutput: (line: string, stream: 'stdout' | 'stderr') => log.debug({ engine: config.ocrEngine, stream, line }, 'ocr engine output') } : {}),
  };
}

/**
 * Start-up check of the OCR engine: with QUIRE_OCR_ENGINE=native the tesseract binary must run and be
 * tesseract 4 or newer. The pool itself starts on the first scanned page, so without this check a
 * missing binary would surface as a failed job, not as a service that refuses to start. Call it
 * before opening anything, so the process can stop cleanly with the message.
 */
export function checkOcrEngine(config: Config): void {
  if (config.ocrEngine !== 'native') return;
  try {
    checkTesseractBinary(config.tesseractPath);
  } catch (e) {
    throw new ConfigError(`Invalid configuration:\n  QUIRE_OCR_ENGINE=native: ${(e as Error).message}; set QUIRE_TESSERACT_PATH to the tesseract binary, or use QUIRE_OCR_ENGINE=wasm (tesseract.js, nothing to install)`);
  }
}

/** The services a job thread makes for itself: a language model client (HTTP or the built-in engines). */
export function threadLocalServices(config: Config): { languageModel: LanguageModel } {
  // A job thread is already off the event loop: parsing on it saves a nested pdf.js thread per job thread
  // (~90 MB at the peak of a 1,000-page PDF) for ~3 % of speed (docs/benchmarks.md, "pdf.js thread in job threads").
  setPdfWorkerThread(config.pdfWorkerThread ?? isMainThread);
  return { languageModel: createLanguageModel(config.llm, {
    extractSchema: extractSchemaBuiltin, classify: classifyBuiltin, split: splitBuiltin, mapFormInstructions: mapFormInstructionsByLabel,
  }) };
}
