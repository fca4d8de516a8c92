import { PDFDocument } from 'pdf-lib';
import { encryptPdf } from '../../../../tests/fixtures/pdf/encrypt.js';
import { countPdfPages } from './page-count.js';
import { openDocument, pdfWorkerThread, setPdfWorkerThread } from './pdfjs.js';

async function pages(n: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < n; i++) doc.addPage([200, 200]);
  return doc.save();
}

describe('countPdfPages', () => {
  afterAll(() => setPdfWorkerThread(true));

  it('parses on pdf.js worker thread even where documents are read on the calling thread', async () => {
    setPdfWorkerThread(false);
    const bytes = await pages(3);
    const doc = await openDocument(bytes);
    await doc.destroy();
    expect(pdfWorkerThread()).toBeUndefined(); // the setting holds for reading
    expect(await countPdfPages(bytes)).toBe(3);
    expect(pdfWorkerThread()).toBeDefined(); // the count went to the thread
  });

  it('counts by range reads and answers as the opener does', async () => {
    const bytes = await pages(5);
    const read = async (start: number, end: number) => bytes.slice(start, Math.min(end, bytes.length));
    expect(await countPdfPages({ size: bytes.length, read })).toBe(5);
    expect(await countPdfPages(await encryptPdf(bytes))).toBe(5); // an empty user password opens without asking
    await expect(countPdfPages(new TextEncoder().encode('%PDF-1.7\nnot a pdf'))).rejects.toMatchObject({ code: 'FILE_003' });
    await expect(countPdfPages(new Uint8Array())).rejects.toMatchObject({ code: 'FILE_004' });
  });
});
