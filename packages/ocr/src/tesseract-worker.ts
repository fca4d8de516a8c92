// The tesseract.js adapter of the OCR worker port (ocr-worker.ts): tesseract compiled to WASM, run in a
// worker thread, fully offline.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import tesseract from 'tesseract.js';
import { DEFAULT_BINARISATION, type Binarisation, type OcrWorker, type OcrWorkerFactory, type TessResult } from './ocr-worker.js';
import { languageDataPath, THRESHOLDING_METHOD } from './tesseract-settings.js';

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

interface NodeThread { on(ev: 'exit' | 'error' | 'message', cb: (arg: unknown) => void): void; terminate(): Promise<number> }

/**
 * tesseract.js's own worker script, started through a small ES module that first turns the thread's
 * console into messages: the wasm core prints what tesseract prints (Emscripten binds console.log and
 * console.error when the module is made, after this ran), and worker-thread output would otherwise
 * land on the process's stdout beside the JSON logs. tesseract.js ignores messages it does not know.
 */
export const TESSERACT_THREAD_URL = (() => {
  const script = createRequire(import.meta.url).resolve('tesseract.js/src/worker-script/node/index.js');
  const source = `import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { format } from 'node:util';
const say = (stream) => (...args) => { for (const line of format(...args).split('\\n')) if (line.trim()) parentPort.postMessage({ quireEngineOutput: { stream, line } }); };
console.log = console.info = console.debug = say('stdout');
console.warn = console.error = say('stderr');
createRequire(${JSON.stringify(script)})(${JSON.stringify(script)});
`;
  return new URL(`data:text/javascript,${encodeURIComponent(source)}`);
})();

type EngineOutputMessage = { quireEngineOutput?: { stream: 'stdout' | 'stderr'; line: string } };

let counter = 0;

/** Starts a tesseract.js worker thread, fully offline: local langPath, no cache writes, errors handled. */
export const createTesseractWorker: OcrWorkerFactory = async ({ languages, psm, tessdataDir, onEngineOutput }) => {
  const langs = languages.split('+');
  const { langPath, gzip } = tessdataDir ? localTessdata(tessdataDir, langs) : packagedTessdata(langs);
  const tw = await tesseract.createWorker(langs, tesseract.OEM.LSTM_ONLY, {
    // node's Worker takes a URL; tesseract.js passes workerPath to it as it is
    workerPath: TESSERACT_THREAD_URL as unknown as string,
    langPath,
    gzip,
    cacheMethod: 'none',
    logger: () => {},
    // Without an errorHandler a rejected job also throws inside the message listener (uncaught).
    errorHandler: () => {},
  });
  const thread = (tw as unknown as { worker: NodeThread }).worker;
  thread.on('message', (m) => {
    const out = (m as EngineOutputMessage | null)?.quireEngineOutput;
    if (out) onEngineOutput?.(out.line, out.stream);
  });
  await tw.setParameters({ tessedit_pageseg_mode: String(psm) as tesseract.PSM, user_defined_dpi: '300', ...binarisationParams(DEFAULT_BINARISATION) });
  return wrap(tw, thread);
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
