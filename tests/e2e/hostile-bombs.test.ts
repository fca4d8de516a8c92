import { randomBytes } from 'node:crypto';
import { bombDocx, contentBombPdf, imageBombPdf, pngBomb } from '../fixtures/hostile/bombs.js';
import { encryptPdfAes256 } from '../fixtures/pdf/encrypt.js';
import { HOSTILE_RSS_GROWTH_LIMIT, MB, measured } from '../support/bounds.js';
import { formWith, startTestServer, type TestServer } from '../support/embedded.js';

/**
 * Small files that expand: each is answered with a clear 4xx (or read within the limits) in bounded time,
 * the server's memory grows by a bounded amount, and /healthz answers after each. The server runs in
 * this process (job threads included), so this process's RSS is the server's.
 */
const RSS_GROWTH_LIMIT = HOSTILE_RSS_GROWTH_LIMIT;

describe('embedded: expanding inputs are bounded in time and memory', () => {
  let t: TestServer;
  beforeAll(async () => { t = await startTestServer(); }, 60_000);
  afterAll(() => t.close());

  /** Sends one file synchronously; answers the response with the time taken and the RSS growth seen meanwhile. */
  async function send(bytes: Uint8Array, name: string, type: string) {
    try {
      const { value, ms, rssGrowth } = await measured(async () => {
        const res = await t.api('/extract', { method: 'POST', body: formWith({ bytes, name, type }) });
        return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string }; markdown?: string } };
      });
      return { ...value, ms, growth: rssGrowth };
    } finally {
      expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    }
  }

  it('a PDF whose 1 MB content stream inflates to 1 GiB: 400 FILE_003 naming the limit, fast, without the gigabyte', async () => {
    const bytes = await contentBombPdf(1024);
    expect(bytes.length).toBeLessThan(2 * MB);
    const r = await send(bytes, 'bomb.pdf', 'application/pdf');
    expect({ status: r.status, code: r.body.error?.code }).toEqual({ status: 400, code: 'FILE_003' });
    expect(r.body.error?.message).toContain('QUIRE_LIMIT_PAGE_CONTENT_MB');
    expect(r.ms).toBeLessThan(20_000);
    expect(r.growth).toBeLessThan(RSS_GROWTH_LIMIT);
  }, 120_000);

  it('the same bomb AES-256 encrypted (empty user password, revision 6): measured through the decryption, refused the same way', async () => {
    const bytes = await encryptPdfAes256(await contentBombPdf(1024), { revision: 6 });
    const r = await send(bytes, 'encrypted-bomb.pdf', 'application/pdf');
    expect({ status: r.status, code: r.body.error?.code }).toEqual({ status: 400, code: 'FILE_003' });
    expect(r.body.error?.message).toContain('QUIRE_LIMIT_PAGE_CONTENT_MB');
    expect(r.ms).toBeLessThan(20_000);
    expect(r.growth).toBeLessThan(RSS_GROWTH_LIMIT);
  }, 120_000);

  it('a PDF image that declares 40,000 × 40,000 pixels over a 1 MB flate stream: the page\'s text is read, the image is not decoded', async () => {
    const r = await send(await imageBombPdf(40_000, 1024, 'Caption beside a huge picture'), 'image-bomb.pdf', 'application/pdf');
    expect(r.status).toBe(200);
    expect(r.body.markdown).toContain('Caption beside a huge picture');
    expect(r.ms).toBeLessThan(30_000);
    expect(r.growth).toBeLessThan(RSS_GROWTH_LIMIT);
  }, 120_000);

  it('60 MB of random bytes behind a %PDF header: 400 FILE_003, and the memory it took is bounded', async () => {
    const junk = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(60 * MB)]);
    const r = await send(junk, 'junk.pdf', 'application/pdf');
    expect({ status: r.status, code: r.body.error?.code }).toEqual({ status: 400, code: 'FILE_003' });
    expect(r.ms).toBeLessThan(30_000);
    expect(r.growth).toBeLessThan(RSS_GROWTH_LIMIT);
  }, 120_000);

  it('a PNG of 50,000 × 50,000 pixels in a few hundred kilobytes: refused before decoding', async () => {
    const png = await pngBomb(50_000);
    expect(png.length).toBeLessThan(5 * MB);
    const r = await send(png, 'pixels.png', 'image/png');
    expect(r.status).toBe(400);
    expect(['REQ_003', 'FILE_003']).toContain(r.body.error?.code);
    expect(r.ms).toBeLessThan(20_000);
    expect(r.growth).toBeLessThan(RSS_GROWTH_LIMIT);
  }, 120_000);

  it('a DOCX whose document part declares 1 MB but inflates to 1 GiB: FILE_003 while reading, not the gigabyte', async () => {
    const bytes = await bombDocx(1024);
    expect(bytes.length).toBeLessThan(2 * MB);
    const r = await send(bytes, 'bomb.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect({ status: r.status, code: r.body.error?.code }).toEqual({ status: 400, code: 'FILE_003' });
    expect(r.ms).toBeLessThan(20_000);
    expect(r.growth).toBeLessThan(RSS_GROWTH_LIMIT);
  }, 120_000);
});

