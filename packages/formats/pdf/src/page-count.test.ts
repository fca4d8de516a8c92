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

  it('a file whose xref is not where its trailer says is read in few range reads (pdf.js rebuilds the table by scanning)', async () => {
    const counted = (bytes: Uint8Array) => {
      const src = { size: bytes.length, reads: 0, read: async (start: number, end: number) => { src.reads++; return bytes.slice(start, Math.min(end, bytes.length)); } };
      return src;
    };
    // a real document with its startxref pointing nowhere: still counted
    const good = Buffer.from(await pages(4));
    const k = good.lastIndexOf('startxref');
    const broken = Buffer.concat([good.subarray(0, k), Buffer.from('startxref\n12\n%%EOF\n')]);
    const a = counted(broken);
    expect(await countPdfPages(a)).toBe(4);
    expect(a.reads).toBeLessThanOrEqual(3);
    // 20 MB of junk behind a header: refused without hundreds of chunk reads, each restarting the scan
    const junk = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(20 * 1024 * 1024, 0x41)]);
    const b = counted(junk);
    await expect(countPdfPages(b)).rejects.toMatchObject({ code: 'FILE_003' });
    expect(b.reads).toBeLessThanOrEqual(3);
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
