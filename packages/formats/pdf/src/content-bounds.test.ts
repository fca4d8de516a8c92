import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { QuireError } from '@quire/core';
import { deflateSync } from 'node:zlib';
import { MAX_SAVE_DEPTH, MAX_OPEN_SAVES, measureContent } from './content-bounds.js';
import { readPdf } from './index.js';
import { encryptPdf, encryptPdfAes256 } from '../../../../tests/fixtures/pdf/encrypt.js';

/** A one-page PDF whose extra content streams (Flate unless `raw`) are written operator by operator. */
async function pdfWithContent(streams: string[], raw = false): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText('Outer text', { x: 50, y: 700, size: 12, font });
  for (const body of streams) {
    const bytes = Buffer.from(body, 'latin1');
    const stream = raw ? doc.context.stream(bytes) : doc.context.flateStream(bytes);
    page.node.addContentStream(doc.context.register(stream));
  }
  return doc.save();
}

const nested = (depth: number) => `${'q '.repeat(depth)}BT /F1 12 Tf 50 600 Td (Inner) Tj ET ${'Q '.repeat(depth)}`;

async function readError(bytes: Uint8Array, limits = {}): Promise<QuireError> {
  const e = await readPdf(bytes, { limits }).then(() => undefined, (err: unknown) => err);
  if (!(e instanceof QuireError)) throw new Error(`expected a QuireError, got ${String(e)}`);
  return e;
}

describe('graphics-state nesting bound (pdf.js reads nesting in quadratic time)', () => {
  test('measures the deepest q nesting, ignoring q inside strings and inline images', async () => {
    const bytes = await pdfWithContent([`${nested(40)} BT (q q q q q q q q) Tj ET BI /W 1 /H 1 /BPC 8 /CS /G ID q q q EI`], true);
    expect(measureContent(bytes, 1 << 20).deepest).toBe(40);
  });

  test('an ordinary nesting is read as before', async () => {
    const r = await readPdf(await pdfWithContent([nested(50)]));
    expect(r.pages[0].words.map((w) => w.text)).toEqual(['Outer', 'text', 'Inner']);
  });

  test('200,000 nested q in a Flate content stream are refused with FILE_003 before pdf.js reads them', async () => {
    const bytes = await pdfWithContent([nested(200_000)]);
    expect(bytes.length).toBeLessThan(100_000); // small on disk: the flate stream compresses the repetition
    const e = await readError(bytes);
    expect(e.code).toBe('FILE_003');
    expect(e.message).toContain(`200000 deep, over the limit of ${MAX_SAVE_DEPTH}`);
  }, 60_000);

  test('nesting split over many streams that each leave saves open is refused too', async () => {
    const parts = Array.from({ length: 11 }, () => 'q '.repeat(MAX_SAVE_DEPTH));
    const e = await readError(await pdfWithContent(parts));
    expect(e.code).toBe('FILE_003');
    expect(e.message).toContain(`leave ${11 * MAX_SAVE_DEPTH} graphics states (q) open, over the limit of ${MAX_OPEN_SAVES}`);
  }, 60_000);
});

/** A one-page PDF whose content streams are `bodies`, each a Flate stream, named by /Contents in `order` (indexes into bodies). */
async function pdfWithStreams(bodies: Uint8Array[], order: number[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const refs = bodies.map((b) => doc.context.register(doc.context.stream(deflateSync(b), { Filter: 'FlateDecode' })));
  page.node.set(PDFName.of('Contents'), doc.context.obj(order.map((i) => refs[i])));
  return doc.save({ useObjectStreams: false });
}

describe('decoded page-content bound (flate bombs: pdf.js and PDFium hold a page\'s content whole)', () => {
  const MB = 1024 * 1024;
  const text = Buffer.from('BT /F1 12 Tf 50 700 Td (Hello) Tj ET\n', 'latin1');
  const spaces = (mb: number) => Buffer.concat([text, Buffer.alloc(mb * MB, 0x20)]);

  test('a content stream decoding past the limit is refused with FILE_003, without inflating it whole', async () => {
    const bytes = await pdfWithStreams([spaces(64)], [0]);
    expect(bytes.length).toBeLessThan(MB); // 64 MB of content in well under 1 MB of file
    const e = await readError(bytes, { maxPageContentBytes: 8 * MB });
    expect(e).toMatchObject({ code: 'FILE_003', details: expect.objectContaining({ reason: 'content_size_limit' }) });
    expect(e.message).toContain('decode to more than 8 MB');
  }, 60_000);

  test('one stream named many times by a page counts as often as it is read', async () => {
    const bytes = await pdfWithStreams([spaces(2)], Array.from({ length: 10 }, () => 0));
    expect(measureContent(bytes, 64 * MB).largestPageContent).toBeGreaterThan(20 * MB);
    expect((await readError(bytes, { maxPageContentBytes: 8 * MB })).code).toBe('FILE_003');
  }, 60_000);

  test('pages named inside a compressed object stream are summed too', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    const ref = doc.context.register(doc.context.stream(deflateSync(spaces(2)), { Filter: 'FlateDecode' }));
    page.node.set(PDFName.of('Contents'), doc.context.obj([ref, ref, ref, ref, ref]));
    const bytes = await doc.save({ useObjectStreams: true });
    expect(Buffer.from(bytes).includes('/ObjStm')).toBe(true);
    expect(measureContent(bytes, 64 * MB).largestPageContent).toBeGreaterThan(10 * MB);
  }, 60_000);

  test('content under the limit is read as before', async () => {
    const r = await readPdf(await pdfWithStreams([spaces(1)], [0, 0]), { limits: { maxPageContentBytes: 8 * MB } });
    expect(r.pages[0].words.map((w) => w.text)).toEqual(['Hello', 'Hello']);
  }, 60_000);
});

describe('encrypted files are measured too (the empty user password every reader opens them with)', () => {
  const MB = 1024 * 1024;
  test('a flate bomb inside an RC4-encrypted PDF is refused like an open one; an ordinary encrypted file reads', async () => {
    const text = Buffer.from('BT /F1 12 Tf 50 700 Td (Hello) Tj ET\n', 'latin1');
    const bomb = await encryptPdf(await pdfWithStreams([Buffer.concat([text, Buffer.alloc(64 * MB, 0x20)])], [0]));
    expect(Buffer.from(bomb).includes('/Encrypt')).toBe(true);
    expect(measureContent(bomb, 8 * MB).largestPageContent).toBeGreaterThan(8 * MB);
    expect((await readError(bomb, { maxPageContentBytes: 8 * MB })).code).toBe('FILE_003');
    const nested = await encryptPdf(await pdfWithContent([`${'q '.repeat(2_000)}${'Q '.repeat(2_000)}`]));
    expect(measureContent(nested, 8 * MB).deepest).toBe(2_000);
    const ordinary = await encryptPdf(await pdfWithStreams([text], [0]));
    expect((await readPdf(ordinary)).pages[0].words.map((w) => w.text)).toEqual(['Hello']);
  }, 60_000);

  test.each([6, 5] as const)('AES-256 (revision %i): a flate bomb is refused like an open one; nesting is measured; an ordinary file reads', async (revision) => {
    const text = Buffer.from('BT /F1 12 Tf 50 700 Td (Hello) Tj ET\n', 'latin1');
    const bomb = await encryptPdfAes256(await pdfWithStreams([Buffer.concat([text, Buffer.alloc(64 * MB, 0x20)])], [0]), { revision });
    expect(Buffer.from(bomb).toString('latin1')).toMatch(new RegExp(`/V 5\\s+/R ${revision}\\b`));
    expect(bomb.length).toBeLessThan(MB);
    expect(measureContent(bomb, 8 * MB).largestPageContent).toBeGreaterThan(8 * MB);
    const e = await readError(bomb, { maxPageContentBytes: 8 * MB });
    expect(e).toMatchObject({ code: 'FILE_003', details: expect.objectContaining({ reason: 'content_size_limit' }) });
    const deep = await encryptPdfAes256(await pdfWithContent([nested(2_000)]), { revision });
    expect(measureContent(deep, 8 * MB).deepest).toBe(2_000);
    expect((await readError(deep)).details).toMatchObject({ reason: 'nesting', depth: 2_000 });
    // pdf.js decrypts with its own implementation: the fixture is a real AES-256 file
    const ordinary = await encryptPdfAes256(await pdfWithStreams([text], [0]), { revision });
    expect((await readPdf(ordinary)).pages[0].words.map((w) => w.text)).toEqual(['Hello']);
  }, 60_000);

  test('AES-256 with a user password: not measured (no key without it), and refused as encrypted, as before', async () => {
    const text = Buffer.from('BT /F1 12 Tf 50 700 Td (Hello) Tj ET\n', 'latin1');
    const bomb = await encryptPdfAes256(await pdfWithStreams([Buffer.concat([text, Buffer.alloc(64 * MB, 0x20)])], [0]), { user: 'secret' });
    expect(measureContent(bomb, 8 * MB)).toEqual({ deepest: 0, leftOpen: 0, largestPageContent: 0 });
    const e = await readError(bomb, { maxPageContentBytes: 8 * MB });
    expect(e).toMatchObject({ code: 'FILE_003', details: { reason: 'encrypted' } });
  }, 60_000);
});
