import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import type { Document, OcrEngine, RawPage } from '@quire/core';
import { renderPageResults } from '@quire/render';
import { extractDocument } from './pipeline.js';
import { makeTiff } from '../../../tests/fixtures/scans/generate.js';

/**
 * Live per-page results (issue #22): extractDocument hands each PDF or image page to onPageLaidOut as
 * soon as it is read — before the next page's progress — laid out on its own, and the final document
 * is exactly what it is without the callback.
 */
const HEADER = 'Harbour Works Quarterly Report';

/** Pages with the same running header, a heading and a paragraph naming the page. */
async function reportPdf(pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  for (let n = 1; n <= pages; n++) {
    const page = pdf.addPage([612, 792]);
    page.drawText(HEADER, { x: 72, y: 760, size: 9, font: regular });
    page.drawText(`Section ${n}: Dredging`, { x: 72, y: 700, size: 18, font: bold });
    page.drawText(`The channel depth on page ${n} was measured at low tide by the survey boat.`, { x: 72, y: 670, size: 11, font: regular });
    page.drawText('Readings are compared with the chart datum before the next dredging run.', { x: 72, y: 654, size: 11, font: regular });
  }
  return pdf.save();
}

/** Records the order of previews and progress calls. */
function recorder() {
  const log: string[] = [];
  const previews: Document[] = [];
  return {
    log, previews,
    onPageLaidOut: (d: Document) => { previews.push(d); log.push(`preview ${d.pages.map((p) => p.number).join(',')}`); },
    onPage: (done: number) => { log.push(`progress ${done}`); },
  };
}

describe('extractDocument: page previews as pages finish', () => {
  it('PDF: one preview per page, in page order, each before that page\'s progress; the final document is unchanged', async () => {
    const bytes = await reportPdf(4);
    const r = recorder();
    const withPreviews = await extractDocument(bytes, 'pdf', { onPageLaidOut: r.onPageLaidOut, onPage: r.onPage });
    expect(r.log).toEqual(['preview 1', 'progress 1', 'preview 2', 'progress 2', 'preview 3', 'progress 3', 'preview 4', 'progress 4']);
    const results = r.previews.map((d) => renderPageResults(d)[0]);
    results.forEach((p, i) => {
      expect(p.page).toBe(i + 1);
      expect(p.markdown).toContain(`The channel depth on page ${i + 1} was measured`);
      expect(p.elements.length).toBeGreaterThan(0);
      for (const e of p.elements) expect(e.bounding_box).toHaveLength(8);
      expect(p.elements.map((e) => p.markdown.slice(...e.markdown_span)).join('\n\n')).toBe(p.markdown);
    });
    // a page read on its own cannot know its header repeats; the whole document drops it as furniture
    expect(results[0].markdown).toContain(HEADER);
    const final = renderPageResults(withPreviews);
    expect(final.map((p) => p.markdown.includes(HEADER))).toEqual([false, false, false, false]);
    // the previews were laid out from copies: the document is the one read without them
    expect(withPreviews).toEqual(await extractDocument(bytes, 'pdf'));
  });

  it('PDF with a page filter: previews carry the original page numbers', async () => {
    const r = recorder();
    await extractDocument(await reportPdf(4), 'pdf', { pages: [2, 4], onPageLaidOut: r.onPageLaidOut, onPage: r.onPage });
    expect(r.log).toEqual(['preview 2', 'progress 1', 'preview 4', 'progress 2']);
  });

  it('multi-page TIFF: each OCR\'d page is previewed before the next page\'s progress', async () => {
    const blank = await sharp({ create: { width: 400, height: 500, channels: 3, background: 'white' } }).png().toBuffer();
    const ocr: OcrEngine = {
      async recognize(_image, page): Promise<RawPage> {
        return {
          number: page.number, width: page.widthPt, height: page.heightPt, source: 'ocr', segments: [], rects: [], images: [], widgets: [],
          words: ['scanned', 'page', `number${page.number}`].map((text, i) => ({ text, box: { x0: 0.1 + i * 0.15, y0: 0.1, x1: 0.22 + i * 0.15, y1: 0.12 }, fontSize: 11, confidence: 0.9 })),
        };
      },
    };
    const r = recorder();
    const bytes = await makeTiff([blank, blank, blank]);
    const doc = await extractDocument(bytes, 'tiff', { ocr, onPageLaidOut: r.onPageLaidOut, onPage: r.onPage });
    expect(r.log).toEqual(['preview 1', 'progress 1', 'preview 2', 'progress 2', 'preview 3', 'progress 3']);
    expect(r.previews.map((d) => renderPageResults(d)[0].markdown)).toEqual([1, 2, 3].map((n) => `scanned page number${n}`));
    expect(doc).toEqual(await extractDocument(bytes, 'tiff', { ocr }));
  });

  it('a page that could not be read is previewed empty, saying why', async () => {
    const blank = await sharp({ create: { width: 400, height: 500, channels: 3, background: 'white' } }).png().toBuffer();
    const ocr: OcrEngine = {
      async recognize(_image, page): Promise<RawPage> {
        if (page.number === 2) throw new Error('the OCR engine crashed');
        return { number: page.number, width: page.widthPt, height: page.heightPt, source: 'ocr', segments: [], rects: [], images: [], widgets: [],
          words: ['scanned', 'page', `number${page.number}`].map((text, i) => ({ text, box: { x0: 0.1 + i * 0.15, y0: 0.1, x1: 0.22 + i * 0.15, y1: 0.12 }, fontSize: 11, confidence: 0.9 })) };
      },
    };
    const r = recorder();
    await extractDocument(await makeTiff([blank, blank]), 'tiff', { ocr, onPageLaidOut: r.onPageLaidOut });
    const [one, two] = r.previews.map((d) => renderPageResults(d)[0]);
    expect(one).toEqual(expect.objectContaining({ page: 1, markdown: 'scanned page number1' }));
    expect(one.error).toBeUndefined();
    expect(two).toEqual({ page: 2, markdown: '', elements: [], error: { code: 'PROC_001', message: 'the OCR engine crashed' } });
  });

  it('office and HTML documents are read whole: no previews', async () => {
    const r = recorder();
    await extractDocument(new TextEncoder().encode('<html><body><h1>One page</h1><p>Text.</p></body></html>'), 'html', { onPageLaidOut: r.onPageLaidOut });
    expect(r.previews).toEqual([]);
  });
});
