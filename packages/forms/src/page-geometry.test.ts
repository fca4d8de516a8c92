import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { MarkedContentReader, type PDFPageProxy, openDocument } from '@quire/format-pdf';
import { makeActualTextPdf } from '../../../tests/fixtures/pdf/actualtext.js';
import { readPageGeometryUpright } from './page-geometry.js';

async function firstPage(pdf: Uint8Array, read: (page: PDFPageProxy) => Promise<string[]>): Promise<string[]> {
  const doc = await openDocument(pdf);
  try { return await read(await doc.getPage(1)); } finally { await doc.destroy(); }
}

describe('page words for forms (format-pdf words)', () => {
  it('apply marked-content replacement text as extraction does', async () => {
    const pdf = await makeActualTextPdf();
    const texts = (mc?: MarkedContentReader) => firstPage(pdf, async (page) => (await readPageGeometryUpright(page, mc)).geo.words.map((w) => w.text));
    expect(await texts(new MarkedContentReader(pdf))).toEqual(expect.arrayContaining(['New', 'York']));
    expect(await texts()).toContain('NYC');
  });

  it('split underscore fill-in lines from their label and flag text inside /Tx as a filled-in value', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([400, 200]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    page.node.setFontDictionary(PDFName.of('F1'), font.ref);
    const content = 'BT /F1 12 Tf 20 150 Td (Name:__________) Tj ET /Tx BMC BT /F1 12 Tf 60 100 Td (Jane) Tj ET EMC';
    page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(content)));
    const pdf = await doc.save();
    const words = await firstPage(pdf, async (p) => (await readPageGeometryUpright(p)).geo.words.map((w) => `${w.text}${w.fill ? ' (fill)' : ''}`));
    expect(words).toEqual(['Name:', '__________', 'Jane (fill)']);
  });
});
