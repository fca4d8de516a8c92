import { crc32, createDeflate, createDeflateRaw } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import JSZip from 'jszip';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { buildDocx, para, run } from '../fixtures/office/docx-writer.js';
import { HOSTILE_RSS_GROWTH_LIMIT, MB, measured } from '../support/bounds.js';
import { formWith, startTestServer, type TestServer } from '../support/embedded.js';

/**
 * Small files that expand: each is answered with a clear 4xx (or read within the limits) in bounded time,
 * the server's memory grows by a bounded amount, and /healthz answers after each. The server runs in
 * this process (job threads included), so this process's RSS is the server's.
 */
const RSS_GROWTH_LIMIT = HOSTILE_RSS_GROWTH_LIMIT;

/** Flate-compresses (zlib, or raw deflate as zip holds it) `mb` megabytes of `byte` after `head`, without holding them: ~1000:1. */
async function deflated(head: string, mb: number, byte = 0x20, raw = false): Promise<Buffer> {
  const d = raw ? createDeflateRaw({ level: 9 }) : createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  d.on('data', (c: Buffer) => parts.push(c));
  d.write(Buffer.from(head, 'latin1'));
  const chunk = Buffer.alloc(16 * MB, byte);
  for (let i = 0; i < mb / 16; i++) if (!d.write(chunk)) await new Promise((r) => d.once('drain', r));
  await new Promise<void>((r) => d.end(r));
  return Buffer.concat(parts);
}

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
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    page.drawText('Outer', { x: 50, y: 740, size: 12, font: await doc.embedFont(StandardFonts.Helvetica) });
    const bomb = await deflated('BT /F1 12 Tf 50 700 Td (Inner) Tj ET\n', 1024);
    page.node.addContentStream(doc.context.register(doc.context.stream(bomb, { Filter: 'FlateDecode' })));
    const bytes = await doc.save();
    expect(bytes.length).toBeLessThan(2 * MB);
    const r = await send(bytes, 'bomb.pdf', 'application/pdf');
    expect({ status: r.status, code: r.body.error?.code }).toEqual({ status: 400, code: 'FILE_003' });
    expect(r.body.error?.message).toContain('QUIRE_LIMIT_PAGE_CONTENT_MB');
    expect(r.ms).toBeLessThan(20_000);
    expect(r.growth).toBeLessThan(RSS_GROWTH_LIMIT);
  }, 120_000);

  it('a PDF image that declares 40,000 × 40,000 pixels over a 1 MB flate stream: the page\'s text is read, the image is not decoded', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    page.drawText('Caption beside a huge picture', { x: 50, y: 740, size: 12, font: await doc.embedFont(StandardFonts.Helvetica) });
    const pixels = await deflated('', 1024, 0x00);
    const image = doc.context.register(doc.context.stream(pixels, {
      Type: 'XObject', Subtype: 'Image', Width: 40_000, Height: 40_000, ColorSpace: 'DeviceGray', BitsPerComponent: 8, Filter: 'FlateDecode',
    }));
    page.node.normalizedEntries().Resources.set(PDFName.of('XObject'), doc.context.obj({ Im1: image }));
    page.node.addContentStream(doc.context.register(doc.context.flateStream(Buffer.from('q 500 0 0 600 50 100 cm /Im1 Do Q', 'latin1'))));
    const r = await send(await doc.save(), 'image-bomb.pdf', 'application/pdf');
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

/**
 * A DOCX whose word/document.xml is a paragraph followed by `mb` megabytes of spaces, deflated, in a zip
 * whose headers declare 1 MB for it (the other parts as a real writer made them).
 */
async function bombDocx(mb: number): Promise<Uint8Array> {
  const parts = await JSZip.loadAsync(await buildDocx({ body: para(run('Opening words')) }));
  const entries: { name: string; data: Buffer; method: number; crc: number; size: number }[] = [];
  for (const name of Object.keys(parts.files)) {
    const content = Buffer.from(await parts.files[name].async('uint8array'));
    if (name === 'word/document.xml') {
      const xml = content.toString('utf8');
      const cut = xml.indexOf('</w:body>');
      const raw = await deflated(xml.slice(0, cut), mb, 0x20, true);
      entries.push({ name, data: raw, method: 8, crc: 0, size: MB }); // the declared size and CRC are the lie
    } else {
      entries.push({ name, data: content, method: 0, crc: crc32(content), size: content.length });
    }
  }
  const local: Buffer[] = [], central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0); h.writeUInt16LE(20, 4); h.writeUInt16LE(e.method, 8);
    h.writeUInt32LE(e.crc, 14); h.writeUInt32LE(e.data.length, 18); h.writeUInt32LE(e.size, 22); h.writeUInt16LE(name.length, 26);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0); c.writeUInt16LE(20, 4); c.writeUInt16LE(20, 6); c.writeUInt16LE(e.method, 10);
    c.writeUInt32LE(e.crc, 16); c.writeUInt32LE(e.data.length, 20); c.writeUInt32LE(e.size, 24); c.writeUInt16LE(name.length, 28); c.writeUInt32LE(offset, 42);
    local.push(h, name, e.data);
    central.push(c, name);
    offset += 30 + name.length + e.data.length;
  }
  const dir = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(entries.length, 8); end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12); end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, dir, end]);
}

/** A white 1-bit PNG of side × side pixels, its rows deflated as they are made (a few hundred kilobytes). */
async function pngBomb(side: number): Promise<Buffer> {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0); ihdr.writeUInt32BE(side, 4); ihdr[8] = 1; ihdr[9] = 0; // 1-bit grey
  const d = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  d.on('data', (c: Buffer) => parts.push(c));
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(Math.ceil(side / 8), 0xff)]);
  const rows = Buffer.concat(Array.from({ length: 1000 }, () => row));
  for (let y = 0; y < side; y += 1000) if (!d.write(rows)) await new Promise((r) => d.once('drain', r));
  await new Promise<void>((r) => d.end(r));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', Buffer.concat(parts)), chunk('IEND', Buffer.alloc(0))]);
}
