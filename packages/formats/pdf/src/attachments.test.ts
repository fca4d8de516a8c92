import { AFRelationship, PDFDocument } from 'pdf-lib';
import { loadPdfLib } from './pdf-lib-objects.js';
import { mayHaveAttachments, readAttachments } from './attachments.js';

/** Embedded files (#19): names, types and relationships as written, and the count and size caps. */
describe('readAttachments', () => {
  beforeAll(loadPdfLib);

  async function withFiles(n: number, size = 10): Promise<Uint8Array> {
    const pdf = await PDFDocument.create();
    pdf.addPage();
    for (let i = 0; i < n; i++) await pdf.attach(new Uint8Array(size).fill(65 + i), `file-${i}.txt`, { mimeType: 'text/plain', description: `File ${i}`, ...(i === 0 ? { afRelationship: AFRelationship.Data } : {}) });
    return pdf.save();
  }

  test('reads each file with its name, MIME type, relationship and bytes', async () => {
    const bytes = await withFiles(2);
    expect(mayHaveAttachments(bytes)).toBe(true);
    const warnings: string[] = [];
    const files = readAttachments(await PDFDocument.load(bytes), warnings);
    expect(files.map((f) => [f.name, f.mime, f.relationship, f.description, f.bytes.length, f.bytes[0]])).toEqual([
      ['file-0.txt', 'text/plain', 'Data', 'File 0', 10, 65],
      ['file-1.txt', 'text/plain', null, 'File 1', 10, 66],
    ]);
    expect(warnings).toEqual([]);
  });

  test('stops at the file count cap and refuses a file over the size cap, with warnings', async () => {
    const warnings: string[] = [];
    const files = readAttachments(await PDFDocument.load(await withFiles(4, 2048)), warnings, { maxFiles: 3, maxBytes: 1024 });
    expect(files).toEqual([]);
    expect(warnings.filter((w) => /decodes to more than|larger than/.test(w))).toHaveLength(3);
    expect(warnings.some((w) => /embeds 4 files; only the first 3 were read/.test(w))).toBe(true);
    expect(warnings.some((w) => /more than 1024 bytes/.test(w))).toBe(true);
  });

  test('a PDF without embedded files is not parsed for them', async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage();
    expect(mayHaveAttachments(await pdf.save())).toBe(false);
  });
});
