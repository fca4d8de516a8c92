import { PDFDocument, StandardFonts } from 'pdf-lib';
import { QuireError } from '@quire/core';
import { MAX_SAVE_DEPTH, MAX_OPEN_SAVES, measureSaveNesting } from './nesting.js';
import { readPdf } from './index.js';

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

async function readError(bytes: Uint8Array): Promise<QuireError> {
  const e = await readPdf(bytes).then(() => undefined, (err: unknown) => err);
  if (!(e instanceof QuireError)) throw new Error(`expected a QuireError, got ${String(e)}`);
  return e;
}

describe('graphics-state nesting bound (pdf.js reads nesting in quadratic time)', () => {
  test('measures the deepest q nesting, ignoring q inside strings and inline images', async () => {
    const bytes = await pdfWithContent([`${nested(40)} BT (q q q q q q q q) Tj ET BI /W 1 /H 1 /BPC 8 /CS /G ID q q q EI`], true);
    expect(measureSaveNesting(bytes).deepest).toBe(40);
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
