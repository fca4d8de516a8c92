// The worker thread of one onnx-ppocr OCR worker (onnx-worker.ts): loads PP-OCR's models once, then reads
// the page images it is sent. Everything a page costs runs here — decoding, the detector's input tensors,
// DB post-processing, line crops, CTC decoding — so the thread that owns the pool never waits on it;
// ONNX Runtime runs each model on its own intra-op threads besides.
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';
import { decodeGrey } from '../preprocess.js';
import type { GreyImage } from '../analysis.js';
import { allowedClasses, ctcCharset } from './ctc.js';
import { readPage, type PpocrModels } from './pipeline.js';

export interface PpocrThreadData {
  detPath: string;
  recPath: string;
  clsPath: string | null;
  dictionaryPath: string;
  /** ONNX Runtime intra-op threads per model run. */
  threads: number;
  /** Whether the pages may hold Chinese (the pool's languages name it): else ideographs are not read (allowedClasses). */
  chinese: boolean;
}
export type PpocrRequest = { id: number; image: Uint8Array };
export type PpocrReply = { id: number; result?: unknown; error?: string } | { ready: true } | { initError: string };

/** Binary PGM (what recognizePage sends) without a decoder; anything else goes through sharp. */
function parsePgm(b: Uint8Array): GreyImage | null {
  if (b[0] !== 0x50 || b[1] !== 0x35) return null;
  const head = Buffer.from(b.subarray(0, 64)).toString('latin1');
  const m = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(head);
  if (!m || m[3] !== '255') return null;
  const width = Number(m[1]), height = Number(m[2]);
  const data = b.subarray(m[0].length, m[0].length + width * height);
  return data.length === width * height ? { data, width, height } : null;
}

async function main(): Promise<void> {
  const d = workerData as PpocrThreadData;
  const options: ort.InferenceSession.SessionOptions = {
    intraOpNumThreads: d.threads, interOpNumThreads: 1, executionProviders: ['cpu'], graphOptimizationLevel: 'all',
    // The arena stays on: input shapes vary with every page (tile sizes, line widths), and without it each
    // shape ONNX Runtime has not seen before allocates every intermediate tensor from the system: a batch of 8
    // recognizer lines 1712 px wide took ~30 CPU s (half of it in the kernel) the first time, 1.7 s the next;
    // with the arena 2.1 s and 1.2 s. The arena holds the largest page's buffers for good (bench:ocr's peak RSS).
    enableCpuMemArena: true,
    // intra-op threads that wait spin by default: on a busy machine (several OCR workers, job threads) that
    // burns the cores the other threads need; they sleep instead
    extra: { session: { intra_op: { allow_spinning: '0' } } },
  };
  let models: PpocrModels;
  try {
    const [det, rec, cls] = await Promise.all([
      ort.InferenceSession.create(d.detPath, options),
      ort.InferenceSession.create(d.recPath, options),
      d.clsPath ? ort.InferenceSession.create(d.clsPath, options) : Promise.resolve(null),
    ]);
    const charset = ctcCharset(fs.readFileSync(d.dictionaryPath, 'utf8'));
    models = { ort, det, rec, cls, charset, allowed: allowedClasses(charset, d.chinese) };
  } catch (e) {
    parentPort!.postMessage({ initError: String((e as Error)?.message ?? e) } satisfies PpocrReply);
    return;
  }
  parentPort!.on('message', (req: PpocrRequest) => {
    void (async () => {
      try {
        const img = parsePgm(req.image) ?? (await decodeGrey(req.image, Number.MAX_SAFE_INTEGER));
        parentPort!.postMessage({ id: req.id, result: await readPage(models, img) } satisfies PpocrReply);
      } catch (e) {
        parentPort!.postMessage({ id: req.id, error: String((e as Error)?.message ?? e) } satisfies PpocrReply);
      }
    })();
  });
  parentPort!.postMessage({ ready: true } satisfies PpocrReply);
}

void main();
