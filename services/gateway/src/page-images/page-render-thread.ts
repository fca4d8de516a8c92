import { parentPort } from 'node:worker_threads';
import { isQuireError } from '@quire/core';
import { setPdfWorkerThread } from '@quire/format-pdf';
import { renderSourcePage } from './render-source-page.js';
import type { RenderReply, RenderRequest } from './page-renderer.js';

/**
 * The page-image thread (see PageRenderer): draws pages off the gateway's event loop. pdf.js parses
 * here too (not on its own shared thread): this thread exists to keep that work away from requests.
 */
if (!parentPort) throw new Error('page-render-thread runs on a worker thread (see PageRenderer)');
const port = parentPort;
setPdfWorkerThread(false);
port.on('message', async (m: RenderRequest) => {
  let reply: RenderReply;
  try {
    const image = await renderSourcePage(m.bytes, m.format, m.page, m.dpi);
    reply = { id: m.id, image };
    port.postMessage(reply); // copied, not transferred: sharp may hand out a view of a shared buffer
  } catch (e) {
    reply = { id: m.id, error: isQuireError(e) ? { code: e.code, message: e.message, details: e.details } : { message: (e as Error).message ?? String(e) } };
    port.postMessage(reply);
  }
});
