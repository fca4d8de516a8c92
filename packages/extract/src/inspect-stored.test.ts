import JSZip from 'jszip';
import { PDFDocument } from 'pdf-lib';
import type { RandomAccessSource } from '@quire/format-ooxml';
import { parse as parseDocx } from '@quire/format-docx';
import { inspectDocument, inspectStoredDocument } from './inspect.js';
import { buildDocx, para, run } from '../../../tests/fixtures/office/docx-writer.js';

/** A source over bytes that records how much was read. */
function source(bytes: Uint8Array): RandomAccessSource & { bytesRead: number } {
  const s = {
    size: bytes.byteLength, bytesRead: 0,
    read: async (start: number, end: number) => { const b = bytes.slice(start, Math.min(end, bytes.byteLength)); s.bytesRead += b.byteLength; return b; },
  };
  return s;
}

describe('inspectStoredDocument (bounded memory)', () => {
  it('counts PDF pages over range reads without reading the whole file', async () => {
    const doc = await PDFDocument.create();
    for (let i = 0; i < 7; i++) doc.addPage([200, 200]);
    // An unreferenced 2 MB attachment-like stream makes the file large; the page tree stays small.
    const big = doc.context.stream(new Uint8Array(2 * 1024 * 1024).fill(32));
    doc.context.register(big);
    const bytes = await doc.save({ useObjectStreams: false });
    const src = source(bytes);
    expect(await inspectStoredDocument(src, 0)).toEqual({ format: 'pdf', pageCount: 7 });
    expect(src.bytesRead).toBeLessThan(bytes.byteLength / 2);
    expect(await inspectStoredDocument(source(bytes))).toEqual(await inspectDocument(bytes)); // small: read whole
  });

  it('identifies OOXML by the zip entries of its central directory', async () => {
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<Types/>');
    zip.file('ppt/presentation.xml', '<p/>');
    for (let i = 1; i <= 3; i++) zip.file(`ppt/slides/slide${i}.xml`, '<s/>');
    zip.file('ppt/media/filler.bin', new Uint8Array(512 * 1024).map((_, i) => (i * 7919) % 251), { compression: 'STORE' });
    const bytes = await zip.generateAsync({ type: 'uint8array' });
    const src = source(bytes);
    expect(await inspectStoredDocument(src, 0)).toEqual({ format: 'pptx', pageCount: 3 });
    expect(src.bytesRead).toBeLessThan(bytes.byteLength / 2);
  });

  it('reports a truncated zip as FILE_003 and an empty file as FILE_004', async () => {
    const zip = new JSZip();
    zip.file('a.txt', 'x');
    const bytes = await zip.generateAsync({ type: 'uint8array' });
    await expect(inspectStoredDocument(source(bytes.slice(0, bytes.length - 30)), 0)).rejects.toMatchObject({ code: 'FILE_003' });
    await expect(inspectStoredDocument(source(new Uint8Array(0)), 0)).rejects.toMatchObject({ code: 'FILE_004' });
  });

  it('counts DOCX pages as the DOCX reader numbers them (explicit breaks, or the breaks Word rendered), whole or by range', async () => {
    const pageBreak = '<w:r><w:br w:type="page"/></w:r>';
    const explicit = await buildDocx({
      body: [para(run('First page')), para(pageBreak + run('Second page')), para(run('Third page'), '<w:pageBreakBefore/>')].join(''),
      media: { 'filler.bin': new Uint8Array(1024 * 1024).map((_, i) => (i * 7919) % 251) },
    });
    // Word's saved layout: rendered breaks count alone (the hard break is already one of them)
    const rendered = await buildDocx({
      body: [para(run('One')), para('<w:r><w:lastRenderedPageBreak/><w:t>Two</w:t></w:r>'), para('<w:r><w:lastRenderedPageBreak/><w:t>Three</w:t></w:r>'),
        para('<w:r><w:lastRenderedPageBreak/><w:t>Four</w:t></w:r>')].join(''),
    });
    for (const [bytes, pages] of [[explicit, 3], [rendered, 4]] as const) {
      expect((await parseDocx(bytes)).pageCount).toBe(pages);
      expect(await inspectDocument(bytes)).toEqual({ format: 'docx', pageCount: pages });
      const src = source(bytes);
      expect(await inspectStoredDocument(src, 0)).toEqual({ format: 'docx', pageCount: pages }); // by range
    }
    const src = source(explicit);
    await inspectStoredDocument(src, 0);
    expect(src.bytesRead).toBeLessThan(explicit.byteLength / 2); // the filler was never read
  });
});

