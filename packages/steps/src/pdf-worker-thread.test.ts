import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '@quire/runtime';
import { ensureBuilt } from '../../../scripts/lib/fleet.mjs';
import { makeMixedContentPdf } from '../../../tests/fixtures/pdf/documents.js';

const root = path.resolve(import.meta.dirname, '../../..');
const dist = (p: string) => pathToFileURL(path.join(root, p)).href;

/**
 * Reads a PDF on a worker thread, as a job thread does (the built code: jest's TypeScript cannot be
 * loaded there), after `threadLocalServices` applied the settings; answers whether pdf.js got a thread
 * of its own for it.
 */
function readOnThread(env: Record<string, string>, pdf: Uint8Array): Promise<{ ownPdfThread: boolean; words: number }> {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    (async () => {
      const { loadConfig } = await import(${JSON.stringify(dist('packages/runtime/dist/index.js'))});
      const { threadLocalServices } = await import(${JSON.stringify(dist('packages/steps/dist/step-services.js'))});
      const { readPdfPages } = await import(${JSON.stringify(dist('packages/formats/pdf/dist/index.js'))});
      const { pdfWorkerThread } = await import(${JSON.stringify(dist('packages/formats/pdf/dist/pdfjs.js'))});
      threadLocalServices(loadConfig(workerData.env));
      let ownPdfThread = false, words = 0;
      await readPdfPages(workerData.pdf, {}, (page) => { ownPdfThread ||= !!pdfWorkerThread(); words += page.words.length; });
      parentPort.postMessage({ ownPdfThread, words });
    })().catch((e) => parentPort.postMessage({ error: String(e && e.stack || e) }));
  `;
  return new Promise((resolve, reject) => {
    const w = new Worker(source, { eval: true, workerData: { env, pdf } });
    w.once('message', (m) => { void w.terminate(); if (m.error) reject(new Error(m.error)); else resolve(m); });
    w.once('error', reject);
  });
}

describe('QUIRE_PDF_WORKER_THREAD', () => {
  beforeAll(async () => { await ensureBuilt(); }, 120_000);

  test('unset: a job thread parses with pdf.js itself; QUIRE_PDF_WORKER_THREAD=true gives it a thread of its own', async () => {
    expect(loadConfig({}).pdfWorkerThread).toBeUndefined();
    const pdf = await makeMixedContentPdf();
    const inThread = await readOnThread({}, pdf);
    expect(inThread).toEqual({ ownPdfThread: false, words: expect.any(Number) });
    expect(inThread.words).toBeGreaterThan(20);
    const forced = await readOnThread({ QUIRE_PDF_WORKER_THREAD: 'true' }, pdf);
    expect(forced).toEqual({ ownPdfThread: true, words: inThread.words });
  }, 60_000);

  test('set, it is honoured as written', () => {
    expect(loadConfig({ QUIRE_PDF_WORKER_THREAD: 'false' }).pdfWorkerThread).toBe(false);
    expect(loadConfig({ QUIRE_PDF_WORKER_THREAD: '1' }).pdfWorkerThread).toBe(true);
  });
});
