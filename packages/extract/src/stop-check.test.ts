import { PDFDocument, StandardFonts } from 'pdf-lib';
import { makeXlsx } from '../../../tests/fixtures/office/make-xlsx.js';
import { extractDocument } from './pipeline.js';

/**
 * ParseOptions.throwIfStopped reaches the reader and layout (the job's stop flag, see core's
 * interrupt.ts): once it throws, the extraction ends with that error, not with a page error or a
 * partial document.
 */
async function twoPagePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= 2; n++) {
    const page = pdf.addPage([612, 792]);
    for (let line = 0; line < 30; line++) page.drawText(`Line ${line} of page ${n} with a few words of running text.`, { x: 72, y: 740 - line * 16, size: 10, font });
  }
  return pdf.save();
}

/** Throws `stop` from the `at`-th call on; counts the calls. */
function stopAt(at: number, stop: Error) {
  const state = { calls: 0, check: () => { if (++state.calls >= at) throw stop; } };
  return state;
}

describe('extractDocument and throwIfStopped', () => {
  it('a PDF: checked inside the first page\'s layout, and its error ends the extraction', async () => {
    const bytes = await twoPagePdf();
    const counting = stopAt(Infinity, new Error('never'));
    await extractDocument(bytes, 'pdf', { throwIfStopped: counting.check });
    const perRun = counting.calls;
    expect(perRun).toBeGreaterThan(60); // more than once per page: inside layout's loops
    const stop = new Error('job canceled');
    const pages: number[] = [];
    const stopping = stopAt(Math.floor(perRun / 4), stop); // within page 1
    await expect(extractDocument(bytes, 'pdf', { throwIfStopped: stopping.check, onPage: (done) => { pages.push(done); } })).rejects.toBe(stop);
    expect(pages).toEqual([]);
  });

  it('an XLSX: checked at each row, and a stop is the extraction\'s error, not a sheet that "could not be read"', async () => {
    const bytes = await makeXlsx();
    const stop = new Error('job canceled');
    const state = stopAt(2, stop);
    await expect(extractDocument(bytes, 'xlsx', { throwIfStopped: state.check })).rejects.toBe(stop);
    expect(state.calls).toBeGreaterThanOrEqual(2); // the reader asks again before it would record a sheet error
  });
});
