import { PDFDocument, StandardFonts } from 'pdf-lib';
import { renderExtraction } from '@quire/render';
import { extractDocument } from './pipeline.js';

/**
 * Issue #16 class 12 end to end: a generated three-page PDF with a title, section and subsection
 * headings (larger bold type) and body paragraphs, read and chunked by each strategy. Every chunk
 * must lead back to the page and region its text came from.
 */
const BODY = [
  'Each station keeps a log of its readings and sends it to the office every week.',
  'The readings are checked against the calibration table before they are stored.',
  'Stations that miss two reports in a row are visited by a technician within a month.',
];
type Line = { text: string; size: number; bold?: boolean };
const PAGES: Line[][] = [
  [{ text: 'Field Station Manual', size: 24, bold: true }, { text: 'Reporting', size: 16, bold: true }, ...BODY.map((t) => ({ text: t, size: 11 })),
    { text: 'Weekly logs', size: 13, bold: true }, ...BODY.map((t) => ({ text: `Weekly logs: ${t}`, size: 11 }))],
  [{ text: 'Maintenance', size: 16, bold: true }, ...BODY.map((t) => ({ text: `Maintenance: ${t}`, size: 11 }))],
  [{ text: 'Contacts', size: 16, bold: true }, ...BODY.map((t) => ({ text: `Contacts: ${t}`, size: 11 }))],
];

async function manual(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  for (const lines of PAGES) {
    const page = pdf.addPage([612, 792]);
    let y = 720;
    for (const l of lines) {
      page.drawText(l.text, { x: 72, y, size: l.size, font: l.bold ? bold : regular });
      y -= l.size * (l.bold ? 2.2 : 1.6);
    }
  }
  return pdf.save();
}

describe('chunk_types on a generated multi-page PDF with headings', () => {
  let doc: Awaited<ReturnType<typeof extractDocument>>;
  beforeAll(async () => { doc = await extractDocument(await manual(), 'pdf'); }, 60_000);
  const chunks = (types: ('semantic' | 'header' | 'page' | 'recursive')[], chunkSize = 1000) => renderExtraction(doc, { chunkSize, chunkTypes: types }).chunks;
  const pageOfId = () => new Map(doc.pages.flatMap((p) => p.elements.map((e) => [e.id!, p.number] as const)));

  it('every strategy: chunks name their elements, pages and boxes, and each box lies on a page the chunk names', () => {
    const pageOf = pageOfId();
    for (const type of ['semantic', 'header', 'page', 'recursive'] as const) {
      const cs = chunks([type], 300);
      expect(cs.length).toBeGreaterThan(2);
      for (const c of cs) {
        expect(c.chunk_type).toBe(type);
        expect(c.element_ids.length).toBeGreaterThan(0);
        expect(c.page_numbers).toEqual([...new Set(c.element_ids.map((id) => pageOf.get(id)!))].sort());
        expect(c.boxes.map((b) => b.element_id)).toEqual(c.element_ids);
        for (const b of c.boxes) expect(b.page_number).toBe(pageOf.get(b.element_id));
      }
    }
  });

  it('header: sections with their heading path, a subsection under its section under the title', () => {
    const paths = chunks(['header']).map((c) => c.heading_path);
    expect(paths).toEqual([
      ['Field Station Manual', 'Reporting'],
      ['Field Station Manual', 'Reporting', 'Weekly logs'],
      ['Field Station Manual', 'Maintenance'],
      ['Field Station Manual', 'Contacts'],
    ]);
  });

  it('page: one chunk per page, its content that page\'s text', () => {
    const cs = chunks(['page']);
    expect(cs.map((c) => c.page_numbers)).toEqual([[1], [2], [3]]);
    expect(cs[1].content).toContain('Maintenance: Each station keeps a log');
    expect(cs[1].content).not.toContain('Contacts:');
  });

  it('recursive and semantic keep every chunk within the size; recursive keeps the markdown\'s words in order', () => {
    const md = renderExtraction(doc).markdown;
    const words = (s: string) => s.split(/\s+/).filter(Boolean);
    const rec = chunks(['recursive'], 150);
    expect(rec.every((c) => c.content.length <= 150)).toBe(true);
    expect(rec.flatMap((c) => words(c.content))).toEqual(words(md));
    expect(chunks(['semantic'], 300).every((c) => c.content.length <= 300)).toBe(true);
  });
});
