import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { DEFAULT_LIMITS, QuireError } from '@quire/core';
import { assertBoundedContent } from './content-bounds.js';
import { pdfjsOpenError } from './errors.js';
import { guardBuiltins, installPolyfills } from './polyfills.js';

type PdfjsModule = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
export type PDFDocumentProxy = import('pdfjs-dist/legacy/build/pdf.mjs').PDFDocumentProxy;
export type PDFPageProxy = import('pdfjs-dist/legacy/build/pdf.mjs').PDFPageProxy;
export type PageViewport = import('pdfjs-dist/legacy/build/pdf.mjs').PageViewport;
type PDFWorker = import('pdfjs-dist/legacy/build/pdf.mjs').PDFWorker;

const require = createRequire(import.meta.url);
let loaded: Promise<PdfjsModule> | undefined;

/**
 * Loads pdf.js once, lazily (importing this package costs nothing until a PDF is read). The legacy
 * build is the one that runs on Node 20. The worker module is preloaded onto globalThis so pdf.js
 * uses its in-thread "fake worker" without a dynamic import by URL. Builtin methods the legacy
 * build's core-js replaces (Array#push, JSON.parse/stringify, …) are put back to the native ones
 * afterwards (see guardBuiltins): they were slowing the whole process.
 */
export function loadPdfjs(): Promise<PdfjsModule> {
  loaded ??= (async () => {
    installPolyfills();
    const guard = guardBuiltins();
    try {
      const g = globalThis as { pdfjsWorker?: unknown };
      g.pdfjsWorker ??= await import('pdfjs-dist/legacy/build/pdf.worker.mjs' as string);
      return await import('pdfjs-dist/legacy/build/pdf.mjs');
    } finally {
      guard.restore();
    }
  })();
  return loaded;
}

const pdfjsDir = () => path.dirname(require.resolve('pdfjs-dist/package.json'));

/** A font file of pdfjs-dist's standard_fonts folder (Liberation Sans, Foxit's Type 1 fonts): read-only library assets. */
export const standardFontFile = (name: string) => path.join(pdfjsDir(), 'standard_fonts', name);

/** Resource folders shipped inside pdfjs-dist; pdf.js requires the trailing '/'. Nothing is fetched. */
function resourceOptions() {
  const dir = pdfjsDir();
  return {
    standardFontDataUrl: path.join(dir, 'standard_fonts') + '/',
    cMapUrl: path.join(dir, 'cmaps') + '/',
    cMapPacked: true,
    wasmUrl: path.join(dir, 'wasm') + '/',
    iccUrl: path.join(dir, 'iccs') + '/',
  };
}

export interface OpenOptions {
  /** Images larger than this many pixels are not decoded (decompression-bomb guard). */
  maxImagePixels?: number;
  /**
   * Parse on the shared worker thread whatever setPdfWorkerThread says: for callers on an event loop
   * that serves requests (the gateway's intake), where pdf.js must never parse (design rule 6).
   */
  offThread?: boolean;
  /**
   * Most bytes one page's content streams may decode to (ParseLimits.maxPageContentBytes; FILE_003
   * past it). Checked, with graphics-state nesting, on documents held in memory before pdf.js reads
   * them (content-bounds.ts); null for callers that read only the document's structure (page count).
   */
  maxPageContentBytes?: number | null;
}

/** Random access to a document that is not held in memory (a blob store's range reads). */
export interface RangeSource {
  size: number;
  /** Bytes [start, end). */
  read(start: number, end: number): Promise<Uint8Array>;
}

const RANGE_CHUNK = 64 * 1024;

/**
 * pdf.js's parser (its "worker": content streams, fonts, text items, operator lists) runs on one
 * worker thread shared by every document in the process, as in a browser, instead of pdf.js's
 * in-thread fake worker: while it parses the next page, this thread builds words and analyses the
 * layout of the previous one. QUIRE_PDF_WORKER_THREAD=0 keeps everything on the calling thread.
 * The thread holds the process open only while a document is open. If it dies (out of memory),
 * later documents start a new one.
 */
interface SharedWorker { worker: PDFWorker; thread: Worker; port: MessagePort; open: number; dead: boolean }

type Listener = (ev: { data: unknown }) => void;
interface Msg { sourceName?: string; targetName?: string; action?: string; callbackId?: number; streamId?: number; stream?: number; callback?: number }
const CALLBACK_ERROR = 2, STREAM_ERROR = 5, STREAM_CLOSE = 3, STREAM_CANCEL_COMPLETE = 2;

/**
 * The thread's end of pdf.js's message channel as pdf.js sees it, keeping the requests still waiting for
 * an answer. If the thread dies, each gets an error answer (what pdf.js itself sends when a request
 * fails), so the calls waiting on it reject instead of waiting forever.
 */
function trackingPort(port: MessagePort) {
  const listeners = new Map<Listener, (ev: MessageEvent) => void>();
  const pending = new Map<string, Msg>();
  const key = (m: Msg, outgoing: boolean) =>
    `${outgoing ? m.sourceName : m.targetName}|${outgoing ? m.targetName : m.sourceName}|${m.callbackId !== undefined ? `c${m.callbackId}` : `s${m.streamId}`}`;
  const onMessage = (ev: MessageEvent) => {
    const m = ev.data as Msg;
    if (m && (m.callback !== undefined || m.stream === STREAM_CLOSE || m.stream === STREAM_ERROR || m.stream === STREAM_CANCEL_COMPLETE)) pending.delete(key(m, false));
  };
  port.addEventListener('message', onMessage as never);
  let stopped: string | undefined;
  const answerWithError = (m: Msg, message: string) => {
    const reason = { name: 'UnknownErrorException', message, details: message };
    const data = m.callbackId !== undefined
      ? { sourceName: m.targetName, targetName: m.sourceName, callback: CALLBACK_ERROR, callbackId: m.callbackId, reason }
      : { sourceName: m.targetName, targetName: m.sourceName, stream: STREAM_ERROR, streamId: m.streamId, reason };
    for (const l of [...listeners.keys()]) l({ data });
  };
  return {
    postMessage(m: Msg, transfer?: unknown[]) {
      const request = !!m && !!m.action && (m.callbackId !== undefined || m.streamId !== undefined);
      if (stopped !== undefined) {
        const message = stopped;
        if (request) setImmediate(() => answerWithError(m, message)); // asked after the thread died
        return;
      }
      if (request) pending.set(key(m, true), m);
      port.postMessage(m, transfer as never);
    },
    addEventListener(type: string, l: Listener, opts?: { signal?: AbortSignal }) {
      const w = (ev: MessageEvent) => l({ data: ev.data });
      listeners.set(l, w);
      port.addEventListener(type as 'message', w as never, opts);
      // pdf.js ends a document's listener by aborting this signal, never by removeEventListener: without
      // this, every document ever opened stayed reachable from the shared thread's port (~250 KB each)
      opts?.signal?.addEventListener('abort', () => listeners.delete(l), { once: true });
    },
    removeEventListener(type: string, l: Listener) {
      const w = listeners.get(l);
      if (w) port.removeEventListener(type as 'message', w as never);
      listeners.delete(l);
    },
    /** Answers every waiting request with an error. */
    failPending(message: string) {
      stopped = message;
      const waiting = [...pending.values()];
      pending.clear();
      for (const m of waiting) answerWithError(m, message);
    },
  };
}

/** The current pdf.js worker thread, if one is running (tests use it to stop the thread). */
export function pdfWorkerThread(): Worker | undefined {
  return shared && !shared.dead ? shared.thread : undefined;
}
let shared: SharedWorker | undefined;

const WORKER_THREAD_SOURCE = `
const { workerData } = require('node:worker_threads');
const zlib = require('node:zlib');
// pdf.js inflates every Flate stream through DecompressionStream('deflate'); Node's web-streams version
// costs ~0.3 ms a stream in stream machinery against ~0.02 ms for zlib.inflateSync. This thread runs
// nothing but pdf.js, so its DecompressionStream is replaced by one that inflates in one call when the
// writer closes, with the same contract for pdf.js: a corrupt or truncated stream throws while being
// read (pdf.js then falls back to its own tolerant decoder). Other formats use the native one.
const NativeDecompressionStream = globalThis.DecompressionStream;
globalThis.DecompressionStream = class DecompressionStream {
  constructor(format) {
    if (format !== 'deflate') return new NativeDecompressionStream(format);
    const chunks = [];
    let close;
    const closed = new Promise((resolve) => { close = resolve; });
    this.writable = { getWriter: () => ({
      ready: Promise.resolve(),
      write: (chunk) => { chunks.push(chunk); return Promise.resolve(); },
      close: () => { close(); return Promise.resolve(); },
    }) };
    this.readable = { async *[Symbol.asyncIterator]() {
      await closed;
      const out = zlib.inflateSync(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
      yield new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    } };
  }
};
// pdf.js's legacy build (core-js) replaces these builtins with slower versions; put the native ones back
const natives = [[Array.prototype, 'push'], [JSON, 'parse'], [JSON, 'stringify'], [Function.prototype, 'toString']]
  .map(([o, k]) => [o, k, Object.getOwnPropertyDescriptor(o, k)]);
import(workerData.workerUrl).then(({ WorkerMessageHandler }) => {
  for (const [o, k, d] of natives) Object.defineProperty(o, k, d);
  WorkerMessageHandler.initializeFromPort(workerData.port);
});
`;

let workerThreadEnabled = true;

/**
 * Whether pdf.js parses on its own shared worker thread (the default: parsing overlaps layout) or on
 * the calling thread. Set from QUIRE_PDF_WORKER_THREAD by the step services; tests flip it directly.
 */
export function setPdfWorkerThread(enabled: boolean): void {
  workerThreadEnabled = enabled;
}

function useWorkerThread(): boolean {
  return workerThreadEnabled;
}

function acquireWorker(pdfjs: PdfjsModule, force = false): SharedWorker | undefined {
  if (!force && !useWorkerThread()) return undefined;
  if (!shared || shared.dead) {
    const { port1, port2 } = new MessageChannel();
    const workerUrl = pathToFileURL(require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs')).href;
    const thread = new Worker(WORKER_THREAD_SOURCE, { eval: true, workerData: { port: port2, workerUrl }, transferList: [port2] });
    const port = trackingPort(port1);
    // verbosity as getDocument's: errors only (the worker's own default prints pdf.js's warnings to stdout)
    const worker = new pdfjs.PDFWorker({ port, verbosity: pdfjs.VerbosityLevel.ERRORS } as never);
    const s: SharedWorker = { worker, thread, port: port1, open: 0, dead: false };
    const die = (e?: unknown) => {
      if (s.dead) return;
      s.dead = true;
      port.failPending(`The PDF reader's worker thread stopped${e instanceof Error ? `: ${e.message}` : ''}`);
      setImmediate(() => port1.close()); // after the error answers above are handled
    };
    thread.on('error', die);
    thread.on('exit', die);
    shared = s;
  }
  const s = shared;
  if (s.open++ === 0) { s.thread.ref(); s.port.ref(); }
  return s;
}

function releaseWorker(s: SharedWorker | undefined): void {
  if (!s) return;
  if (--s.open === 0) { s.thread.unref(); s.port.unref(); }
}

/**
 * Opens a document, held in memory or read by range (xref and the objects asked for only); maps pdf.js
 * failures to FILE_003 (encrypted, corrupt, not a PDF).
 */
export async function openDocument(source: Uint8Array | RangeSource, opts: OpenOptions = {}): Promise<PDFDocumentProxy> {
  const size = source instanceof Uint8Array ? source.length : source.size;
  if (size === 0) throw new QuireError('FILE_004', 'Empty file');
  if (source instanceof Uint8Array && opts.maxPageContentBytes !== null) {
    assertBoundedContent(source, opts.maxPageContentBytes ?? DEFAULT_LIMITS.maxPageContentBytes);
  }
  const pdfjs = await loadPdfjs();
  const input = source instanceof Uint8Array
    ? { data: new Uint8Array(source) } // a copy: pdf.js transfers (detaches) the buffer it is given
    : await rangeInput(pdfjs, source);
  const sw = acquireWorker(pdfjs, opts.offThread);
  let released = false;
  const release = () => { if (!released) { released = true; releaseWorker(sw); } };
  const task = pdfjs.getDocument({
    ...(sw ? { worker: sw.worker } : {}),
    ...input,
    ...resourceOptions(),
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    // fonts come with their ToUnicode map, so a code it maps to nothing has no text (text.ts: silent glyphs)
    fontExtraProperties: true,
    verbosity: 0,
    maxImageSize: opts.maxImagePixels ?? -1,
  });
  try {
    const doc = await task.promise;
    const destroy = doc.destroy.bind(doc);
    doc.destroy = async () => {
      try {
        await destroy();
      } catch (e) {
        if (!sw?.dead) throw e; // a dead worker thread cannot confirm; there is nothing left to free
      } finally {
        release();
      }
    };
    return doc;
  } catch (e) {
    await task.destroy().catch(() => undefined);
    release();
    throw pdfjsOpenError(e);
  }
}

/** Files with a broken cross-reference read whole up to this size; larger ones in chunks of a 32nd of the file. */
const BROKEN_XREF_WHOLE_LIMIT = 128 * 1024 * 1024;

/**
 * pdf.js's input for a document read by range. A file whose cross-reference table is where its trailer
 * says is read in small chunks (its xref and page tree only). One without (damaged, or junk behind a
 * %PDF header) makes pdf.js rebuild the table by scanning the whole file, and each chunk it lacks
 * restarts that scan from the start: 64 KB chunks made a 60 MB junk upload take a minute (quadratic).
 * Such a file is read whole when small enough, else in 32 large chunks.
 */
async function rangeInput(pdfjs: PdfjsModule, src: RangeSource) {
  if (!(await xrefWhereTrailerSays(src))) {
    if (src.size <= BROKEN_XREF_WHOLE_LIMIT) return { data: new Uint8Array(await src.read(0, src.size)) }; // a copy, never a Buffer: pdf.js transfers what it is given
    const chunk = Math.ceil(src.size / 32 / RANGE_CHUNK) * RANGE_CHUNK;
    return { range: await rangeTransport(pdfjs, src, chunk), length: src.size, rangeChunkSize: chunk, disableAutoFetch: true, disableStream: true };
  }
  return { range: await rangeTransport(pdfjs, src, RANGE_CHUNK), length: src.size, rangeChunkSize: RANGE_CHUNK, disableAutoFetch: true, disableStream: true };
}

/** True when the last `startxref` points at a cross-reference table or stream (PDF 32000-1 §7.5.5). */
async function xrefWhereTrailerSays(src: RangeSource): Promise<boolean> {
  const tailStart = Math.max(0, src.size - 4096);
  const tail = Buffer.from(await src.read(tailStart, src.size)).toString('latin1');
  const m = /startxref\s+(\d+)\s*(?:%%EOF)?\s*$/.exec(tail.slice(tail.lastIndexOf('startxref')));
  const at = m ? Number(m[1]) : -1;
  if (!(at > 0 && at < src.size)) return false;
  const head = Buffer.from(await src.read(at, Math.min(src.size, at + 64))).toString('latin1');
  return /^\s*(xref\b|\d+\s+\d+\s+obj\b)/.test(head);
}

async function rangeTransport(pdfjs: PdfjsModule, src: RangeSource, chunk: number) {
  const transport = new pdfjs.PDFDataRangeTransport(src.size, await src.read(0, Math.min(src.size, chunk)));
  transport.requestDataRange = (begin: number, end: number) => {
    src.read(begin, end).then((chunk) => transport.onDataRange(begin, chunk), () => transport.abort());
  };
  return transport;
}
