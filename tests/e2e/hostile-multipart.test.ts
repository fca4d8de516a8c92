import fs from 'node:fs';
import path from 'node:path';
import { HOSTILE_RSS_GROWTH_LIMIT, measured } from '../support/bounds.js';
import { startTestServer, type TestServer } from '../support/embedded.js';
import { BOUNDARY, abortMidBody, fileHead, sendRaw } from '../support/raw-multipart.js';

/**
 * Multipart bodies that end early, are malformed, or are abandoned mid-upload, on every route that
 * takes an upload. Each gets a 400 REQ_002 (or, abandoned, no answer at all), leaves no staged blob and
 * no temporary file behind, and the server goes on serving. (A truncated form once ended the process:
 * busboy errors the unfinished file part, and nothing listened.)
 */
const UPLOAD_ROUTES = ['/extract', '/extract_async', '/classify', '/form/detect', '/form/fill', '/form/clear', '/convert', '/batch/extract'];
const fileField = (route: string) => (route === '/batch/extract' ? 'files' : 'file');
const KB = 1024;

/** Every regular file under a directory (none when it does not exist). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('embedded: truncated, malformed and aborted multipart uploads', () => {
  let t: TestServer;
  const blobsDir = () => path.join(t.dataDir, 'blobs', 'blobs');
  const tmpDir = () => path.join(t.dataDir, 'blobs', 'tmp');

  beforeAll(async () => { t = await startTestServer(); });
  afterAll(() => t.close());

  async function expectStillServingAndClean(): Promise<void> {
    const health = await fetch(`${t.url}/healthz`);
    expect(health.status).toBe(200);
    expect(filesUnder(blobsDir())).toEqual([]);
    expect(filesUnder(tmpDir())).toEqual([]);
  }

  const expectMalformed = (r: { status: number; body: any }) => {
    expect({ status: r.status, code: r.body?.error?.code }).toEqual({ status: 400, code: 'REQ_002' });
  };

  describe.each(UPLOAD_ROUTES)('%s', (route) => {
    it('a body cut off inside the file part: 400 REQ_002, nothing staged, in bounded time and memory', async () => {
      const body = Buffer.concat([Buffer.from(fileHead(fileField(route))), Buffer.alloc(256 * KB, 0x41)]);
      const { value, ms, rssGrowth } = await measured(() => sendRaw(t.url + route, { key: t.key, body }));
      expectMalformed(value);
      expect(ms).toBeLessThan(10_000);
      expect(rssGrowth).toBeLessThan(HOSTILE_RSS_GROWTH_LIMIT);
      await expectStillServingAndClean();
    });

    it('a body cut off inside a part header: 400 REQ_002', async () => {
      const body = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${fileField(route)}"; filena`;
      expectMalformed(await sendRaw(t.url + route, { key: t.key, body }));
      await expectStillServingAndClean();
    });

    it('a malformed part header, and a multipart type without a boundary: 400 REQ_002', async () => {
      const badHeader = `--${BOUNDARY}\r\nContent-Disposition form-data\r\n\r\nabc\r\n--${BOUNDARY}--\r\n`;
      expectMalformed(await sendRaw(t.url + route, { key: t.key, body: badHeader }));
      expectMalformed(await sendRaw(t.url + route, { key: t.key, body: 'abc', contentType: 'multipart/form-data' }));
      await expectStillServingAndClean();
    });

    it('a client that disconnects mid-file: the staged part is removed', async () => {
      const head = Buffer.from(fileHead(fileField(route), 'doc.pdf'));
      const sent = Buffer.concat([head, Buffer.alloc(64 * KB, 0x41)]);
      // Disconnect once the server is writing the part to its temporary file (so the store is mid-stream).
      await abortMidBody(t.url + route, { key: t.key, body: sent, contentLength: sent.length + 1024 * KB },
        () => waitFor(() => filesUnder(tmpDir()).length > 0, 'the upload to be staged'));
      await waitFor(() => filesUnder(tmpDir()).length === 0, 'the partial upload to be removed');
      await expectStillServingAndClean();
    });
  });

  it('the batch route removes the documents already stored when a later one is cut off', async () => {
    const complete = `${fileHead('files', 'one.pdf')}%PDF-1.4 first\r\n`;
    const body = Buffer.concat([Buffer.from(complete + fileHead('files', 'two.pdf')), Buffer.alloc(128 * KB, 0x42)]);
    expectMalformed(await sendRaw(`${t.url}/batch/extract`, { key: t.key, body }));
    await expectStillServingAndClean();
  });
});
