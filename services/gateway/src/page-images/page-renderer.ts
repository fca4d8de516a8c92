import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type ErrorCode, QuireError } from '@quire/core';
import { type PageImage, type RenderableFormat, renderSourcePage } from './render-source-page.js';

export interface RenderRequest { id: number; bytes: Uint8Array; format: RenderableFormat; page: number; dpi: number }
export type RenderReply =
  | { id: number; image: PageImage; error?: undefined }
  | { id: number; error: { code?: ErrorCode; message: string; details?: Record<string, unknown> }; image?: undefined };

/**
 * Draws source pages for GET /results/{jobId}/pages/{n}.png on one worker thread, so that PDFium's
 * WebAssembly, pdf.js's parsing and the PNG encoding never hold the gateway's event loop (a dense page
 * at 150 DPI takes a few hundred ms). The thread starts on the first request and does not keep the
 * process alive. It runs the built JavaScript (dist/page-images/page-render-thread.js): when this module
 * runs as TypeScript source (jest), there is no thread module, and pages are drawn on the calling thread,
 * as the step services do with their job threads.
 */
export class PageRenderer {
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, { resolve: (i: PageImage) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private readonly entry = new URL('./page-render-thread.js', import.meta.url);
  readonly onThread = existsSync(fileURLToPath(this.entry));

  render(bytes: Uint8Array, format: RenderableFormat, page: number, dpi: number): Promise<PageImage> {
    if (!this.onThread) return renderSourcePage(bytes, format, page, dpi);
    const worker = this.thread();
    const id = this.nextId++;
    return new Promise<PageImage>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.ref(); // a render in hand keeps the process alive until it answers
      // the document moves to the thread when it owns its whole buffer; a view of a shared one is copied
      const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
      worker.postMessage({ id, bytes, format, page, dpi } satisfies RenderRequest, owned ? [bytes.buffer as ArrayBuffer] : []);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.entry);
    worker.unref();
    worker.on('message', (m: RenderReply) => {
      const waiter = this.waiting.get(m.id);
      if (!waiter) return;
      this.waiting.delete(m.id);
      if (this.waiting.size === 0) worker.unref();
      if (m.image) waiter.resolve(m.image);
      else waiter.reject(m.error.code ? new QuireError(m.error.code, m.error.message, m.error.details) : new Error(m.error.message));
    });
    const fail = (e: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined; // the next render starts a new thread
      for (const w of this.waiting.values()) w.reject(e);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`page render thread exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }
}
