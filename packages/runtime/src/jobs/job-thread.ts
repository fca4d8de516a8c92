import { parentPort, threadId, workerData } from 'node:worker_threads';
import { QuireError, type OcrEngine } from '@quire/core';
import type { MetadataStore } from '@quire/storage';
import type { Config } from '../config.js';
import { createLogger } from '../logger.js';
import { blobStoreFor } from '../context.js';
import { jsonPieceStream } from './json-pieces.js';
import { placeResult, resultBody } from './result-placement.js';
import type { CheckedJobHandler, ClaimedJobContext, JobServices } from './job-handler.js';
import { asBuffers, fromWire, toWire, type FromThread, type JobThreadData, type StreamRef, type ToThread } from './thread-protocol.js';

export interface JobThreadSetup {
  /** Job kind → handler, as the process would run them. */
  handlers: Partial<Record<string, CheckedJobHandler>>;
  /**
   * Services this thread makes for itself (e.g. a language model client). Those the owning process
   * shares (JobThreadPoolOptions.remoteServices, e.g. the OCR pool) are reached remotely instead.
   */
  services(config: Config): JobServices;
}

type Call = (path: string[], args: unknown[]) => Promise<unknown>;

/**
 * The job thread's side of JobThreadPool: runs the handlers it is sent with a JobContext whose
 * stores, checkpoint and shared services are proxies to the owning process (one message per call;
 * their answers are structured clones). Only methods can be called through these proxies; a
 * property read gives another proxy, never a value.
 */
export function serveJobThread(setup: JobThreadSetup): void {
  const port = parentPort!;
  if (!parentPort) throw new Error('serveJobThread runs on a worker thread (see JobThreadPool)');
  const { config, remoteServices } = workerData as JobThreadData;
  const log = createLogger(config.logLevel, { role: 'job-thread', thread: threadId });
  const local = setup.services(config);
  // The thread's own client of the blob store (the adapters are stateless clients): sources are read and
  // outputs and results written from here, so no document or result crosses to the owning thread.
  const blobs = blobStoreFor(config);
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextCallId = 1;
  const send = (m: FromThread) => port.postMessage(m);

  // Job results left here as streams (see StreamRef), placed from here or read by the owning process.
  // Their pieces are made for the stream (jsonPieceStream), so they are moved, not copied.
  const streams = new Map<number, { it: Iterator<Uint8Array> }>();
  let nextStreamId = 1;
  const exportStream = (source: Iterable<Uint8Array>): StreamRef => {
    const streamId = nextStreamId++;
    streams.set(streamId, { it: source[Symbol.iterator]() });
    return { $quireStream: streamId };
  };
  const pull = async (streamId: number): Promise<void> => {
    const s = streams.get(streamId);
    if (!s) { send({ type: 'piece', streamId, error: toWire(new Error('unknown or finished stream')) }); return; }
    try {
      let r = s.it.next();
      while (!r.done && !r.value.byteLength) r = s.it.next();
      if (r.done) { streams.delete(streamId); send({ type: 'piece', streamId, end: true }); return; }
      const b = r.value;
      const own = b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer;
      port.postMessage({ type: 'piece', streamId, bytes: b } satisfies FromThread, own ? [b.buffer as ArrayBuffer] : []);
    } catch (e) {
      streams.delete(streamId);
      send({ type: 'piece', streamId, error: toWire(e) });
    }
  };
  // The runner's request to write a result stream where it belongs, from here.
  const place = async (m: Extract<ToThread, { type: 'place-result' }>): Promise<void> => {
    const s = streams.get(m.streamId);
    streams.delete(m.streamId);
    try {
      if (!s) throw new Error('unknown or finished result stream');
      const source: Iterable<Uint8Array> = { [Symbol.iterator]: () => s.it };
      const placed = await placeResult(resultBody({ resultJson: source }, m.extra)[Symbol.asyncIterator](), blobs, m.placement);
      send({ type: 'placed', streamId: m.streamId, placed });
    } catch (e) {
      send({ type: 'placed', streamId: m.streamId, error: toWire(e) });
    }
  };
  const dropStream = (streamId: number): void => {
    const s = streams.get(streamId);
    streams.delete(streamId);
    s?.it.return?.();
  };

  const callsOf = (runId: number): Call => (path, args) => new Promise((resolve, reject) => {
    const callId = nextCallId++;
    waiting.set(callId, { resolve, reject });
    try {
      send({ type: 'call', runId, callId, path, args });
    } catch (e) { // an argument that cannot be cloned
      waiting.delete(callId);
      reject(e as Error);
    }
  });

  async function run(m: Extract<ToThread, { type: 'run' }>): Promise<void> {
    const call = callsOf(m.runId);
    try {
      const handler = setup.handlers[m.kind];
      if (!handler) throw new QuireError('GENERAL_005', `No worker handles ${m.kind} jobs`);
      const services: JobServices = { ...local, ...(remoteServices.includes('ocr') ? { ocr: remote(call, ['services', 'ocr']) as OcrEngine } : {}) };
      const ctx: ClaimedJobContext = {
        job: m.job, org: m.org, config, blobPrefix: m.blobPrefix, services,
        log: log.child({ jobId: m.job.id, kind: m.job.kind }),
        store: remote(call, ['store']) as MetadataStore,
        blobs,
        checkpoint: async (done, total) => { await call(['checkpoint'], [done, total]); },
      };
      const { result, ...rest } = await handler(ctx);
      // Serialized here as it is placed (or read), piece by piece: a large result is never whole in
      // memory. credits_used and plan_info are the runner's to add (place-result brings them).
      const { credits_used: _credits, plan_info: _plan, ...own } = result;
      send({ type: 'done', runId: m.runId, outcome: { ...rest, resultJson: exportStream(jsonPieceStream(own)) } });
    } catch (e) {
      send({ type: 'failed', runId: m.runId, error: toWire(e) });
    }
  }

  port.on('message', (m: ToThread) => {
    if (m.type === 'run') { void run(m); return; }
    if (m.type === 'pull') { void pull(m.streamId); return; }
    if (m.type === 'drop-stream') { dropStream(m.streamId); return; }
    if (m.type === 'place-result') { void place(m); return; }
    const w = waiting.get(m.callId);
    if (!w) return;
    waiting.delete(m.callId);
    if (m.error) w.reject(fromWire(m.error));
    else w.resolve(asBuffers(m.value));
  });
  send({ type: 'ready' });
}

/** A callable proxy: `remote(call, ['store']).artifacts.getForOrg(a, b)` → call(['store', 'artifacts', 'getForOrg'], [a, b]). */
function remote(call: Call, path: string[]): unknown {
  return new Proxy(() => undefined, {
    // not a thenable (await on a proxy must not call it), no symbol-keyed protocol
    get: (_t, prop) => (typeof prop === 'symbol' || prop === 'then' ? undefined : remote(call, [...path, prop])),
    apply: (_t, _self, args: unknown[]) => call(path, args),
  });
}
