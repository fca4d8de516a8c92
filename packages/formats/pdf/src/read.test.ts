import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import type { RawPage, RawWord } from '@quire/core';
import { readPdf, readPdfPages, setPdfWorkerThread } from './index.js';
import { makeMixedContentPdf, makeRotatedPdf, makeSimplePdf } from '../../../../tests/fixtures/pdf/documents.js';

const word = (p: RawPage, text: string): RawWord => {
  const w = p.words.find((x) => x.text === text);
  if (!w) throw new Error(`word "${text}" not found on page ${p.number}: ${p.words.map((x) => x.text).join(' ')}`);
  return w;
};

describe('readPdf: text layer', () => {
  let result: Awaited<ReturnType<typeof readPdf>>;
  beforeAll(async () => { result = await readPdf(await makeMixedContentPdf()); });

  test('reads page count, title and the outline with levels and pages', () => {
    expect(result.pageCount).toBe(5);
    expect(result.pages.map((p) => p.number)).toEqual([1, 2, 3, 4, 5]);
    expect(result.title).toBe('Fixture Report');
    expect(result.outline).toEqual([
      { title: 'Report', level: 1, page: 1 },
      { title: 'Tables', level: 2, page: 2 },
      { title: 'Thin rules', level: 2, page: 3 },
      { title: 'Figures', level: 1, page: 4 },
    ]);
    expect(result.warnings).toEqual([]);
  });

  test('splits runs into words in order with font size, name and style', () => {
    const p = result.pages[0];
    expect(p.source).toBe('text-layer');
    expect([p.width, p.height]).toEqual([612, 792]);
    expect(p.words.map((w) => w.text)).toEqual(['Quarterly', 'Report', 'Revenue', 'grew', 'twelve', 'percent', 'Footnote', 'in', 'italics', 'const', 'x', '=', '1;']);
    const q = word(p, 'Quarterly');
    expect(q).toMatchObject({ fontSize: 24, fontName: 'Helvetica-Bold', bold: true, confidence: 1, direction: 'ltr' });
    expect(q.italic).toBeUndefined();
    expect(word(p, 'Revenue')).toMatchObject({ fontSize: 12, fontName: 'Helvetica' });
    expect(word(p, 'Revenue').bold).toBeUndefined();
    expect(word(p, 'italics')).toMatchObject({ fontSize: 10, italic: true, endOfRun: true });
    expect(word(p, 'Footnote').endOfRun).toBeUndefined();
    expect(word(p, 'Report').endOfRun).toBe(true);
  });

  test('word boxes sit where the glyphs are (normalized, top-left origin)', () => {
    const p = result.pages[0];
    const q = word(p, 'Quarterly'), r = word(p, 'Report');
    expect(q.box.x0).toBeCloseTo(72 / 612, 3);
    // baseline at y=700 from the bottom → 92pt from the top; ascent ≈ 0.9 em, descent ≈ 0.2 em at 24pt
    expect(q.box.y1 * 792).toBeGreaterThan(92);
    expect(q.box.y1 * 792).toBeLessThan(92 + 0.3 * 24);
    expect(q.box.y0 * 792).toBeLessThan(92 - 0.6 * 24);
    // "Quarterly" is ~107pt wide in Helvetica-Bold 24 (AFM); proportional splitting must land close
    expect((q.box.x1 - q.box.x0) * 612).toBeGreaterThan(95);
    expect((q.box.x1 - q.box.x0) * 612).toBeLessThan(118);
    expect(r.box.x0).toBeGreaterThan(q.box.x1);
    expect(r.box.y0).toBeCloseTo(q.box.y0, 5);
    // monospaced run: equal advance per character, "const" is 5 of 12 characters at 6pt each
    expect((word(p, 'const').box.x1 - word(p, 'const').box.x0) * 612).toBeCloseTo(30, 0);
  });
});

describe('readPdf: page geometry', () => {
  test('/Rotate 90: boxes are on the page as displayed and sideways text is marked', async () => {
    const { pages } = await readPdf(await makeRotatedPdf());
    const p = pages[0];
    expect([p.width, p.height]).toEqual([792, 612]);
    // drawn rotated at user (300,100): on screen it reads left-to-right starting 100pt from the left,
    // with its baseline 300pt from the top
    const up = word(p, 'Upright');
    expect(up.direction).toBe('ltr');
    expect(up.box.x0).toBeCloseTo(100 / 792, 3);
    expect(up.box.y1 * 612).toBeGreaterThan(300);
    expect(up.box.y1 * 612).toBeLessThan(306);
    expect(up.box.y0 * 612).toBeLessThan(300 - 12);
    expect(up.box.x1 - up.box.x0).toBeGreaterThan(up.box.y1 - up.box.y0);
    // drawn unrotated at user (100,50): it runs down the screen from 100pt below the top
    const side = word(p, 'Sideways');
    expect(side.direction).toBe('ttb');
    expect(side.box.y0).toBeCloseTo(100 / 612, 3);
    expect(side.box.y1 - side.box.y0).toBeGreaterThan(side.box.x1 - side.box.x0);
    expect(side.box.x0 * 792).toBeGreaterThan(40);
    expect(side.box.x1 * 792).toBeLessThan(72);
  });

  test('a MediaBox with a non-zero origin is measured from its own corner', async () => {
    const { pages } = await readPdf(await makeRotatedPdf());
    const p = pages[1];
    expect([p.width, p.height]).toEqual([500, 700]);
    const w = word(p, 'Offset');
    expect(w.box.x0).toBeCloseTo(50 / 500, 4);
    expect(w.box.y1 * 700).toBeGreaterThan(50);
    expect(w.box.y1 * 700).toBeLessThan(54);
  });
});

describe('readPdf: options', () => {
  test('pages keeps original page numbers and onPage reports progress over the selection', async () => {
    const progress: [number, number][] = [];
    const r = await readPdf(await makeSimplePdf(6), { pages: [5, 2, 2], onPage: (d, t) => { progress.push([d, t]); } });
    expect(r.pageCount).toBe(6);
    expect(r.pages.map((p) => p.number)).toEqual([2, 5]);
    expect(r.pages.map((p) => p.words[1].text)).toEqual(['2', '5']);
    expect(progress).toEqual([[1, 2], [2, 2]]);
  });

  test('pages outside the document are skipped with a warning', async () => {
    const r = await readPdf(await makeSimplePdf(2), { pages: [2, 9] });
    expect(r.pages.map((p) => p.number)).toEqual([2]);
    expect(r.warnings.join(' ')).toMatch(/9.*outside/);
  });

  test('onPage throwing cancels the read and the error propagates', async () => {
    const seen: number[] = [];
    const cancel = new Error('cancelled by user');
    await expect(readPdfPages(await makeSimplePdf(5), { onPage: (d) => { if (d === 2) throw cancel; } }, (p) => { seen.push(p.number); }))
      .rejects.toBe(cancel);
    expect(seen).toEqual([1, 2]);
  });

  test('long documents: font names and styles survive the periodic pdf.js cache cleanup', async () => {
    const doc = await PDFDocument.create();
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    for (let i = 1; i <= 102; i++) doc.addPage([300, 300]).drawText(`Heading ${i}`, { x: 20, y: 200, size: 16, font: bold });
    const fonts: string[] = [];
    await readPdfPages(await doc.save(), {}, (p) => {
      if (p.number >= 99) fonts.push(`${p.number}:${p.words[0].fontName}:${p.words[0].bold}:${p.words[1].text}`);
    });
    expect(fonts).toEqual(['99:Helvetica-Bold:true:99', '100:Helvetica-Bold:true:100', '101:Helvetica-Bold:true:101', '102:Helvetica-Bold:true:102']);
  });

  test('readPdfPages streams pages in order and returns the rest of the result', async () => {
    const seen: number[] = [];
    const r = await readPdfPages(await makeSimplePdf(4), {}, async (p) => { seen.push(p.number); });
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(r).toMatchObject({ pageCount: 4, outline: [], warnings: [] });
    expect((r as { pages?: unknown }).pages).toBeUndefined();
  });
});

describe('pdf.js worker thread', () => {
  test('pages read on the shared worker thread equal those read on the calling thread, documents in parallel too', async () => {
    const bytes = await makeMixedContentPdf();
    try {
      setPdfWorkerThread(false);
      const inThread = await readPdf(bytes);
      setPdfWorkerThread(true);
      const [a, b] = await Promise.all([readPdf(bytes), readPdf(bytes, { pages: [2, 4] })]);
      expect(a).toEqual(inThread);
      expect(b.pages).toEqual([inThread.pages[1], inThread.pages[3]]);
      expect(a.pages[0].words.length).toBeGreaterThan(5);
    } finally {
      setPdfWorkerThread(true);
    }
  });
});

test('a truncated Flate content stream reads the same on the worker thread (fast inflate) as in-thread (native DecompressionStream)', async () => {
  const { deflateSync } = await import('node:zlib');
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText('placeholder', { x: 72, y: 700, size: 12, font }); // registers the font as /F1-ish resource
  const fontKey = [...page.node.normalizedEntries().Font.keys()][0].asString();
  const ops = Array.from({ length: 40 }, (_, i) => `BT ${fontKey} 11 Tf 72 ${740 - i * 16} Td (line ${i} of the truncated stream) Tj ET`).join('\n');
  const full = deflateSync(Buffer.from(ops));
  const variants = { whole: full, truncated: full.subarray(0, Math.floor(full.length * 0.6)), junk: Buffer.from('not deflate data at all') };
  try {
    for (const [name, data] of Object.entries(variants)) {
      const stream = doc.context.stream(new Uint8Array(data), { Filter: 'FlateDecode' });
      page.node.set(PDFName.of('Contents'), doc.context.register(stream));
      const bytes = await doc.save();
      setPdfWorkerThread(false);
      const inThread = await readPdf(bytes);
      setPdfWorkerThread(true);
      const onWorker = await readPdf(bytes);
      expect({ name, words: onWorker.pages[0].words }).toEqual({ name, words: inThread.pages[0].words });
      if (name === 'whole') expect(onWorker.pages[0].words.length).toBe(40 * 6);
    }
  } finally {
    setPdfWorkerThread(true);
  }
});

test('if the pdf.js worker thread dies mid-read, the read ends with page errors instead of hanging, and the next read starts a new thread', async () => {
  const { pdfWorkerThread } = await import('./pdfjs.js');
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= 30; i++) doc.addPage([612, 792]).drawText(`page ${i} text`, { x: 72, y: 700, size: 12, font });
  const bytes = await doc.save();
  let killed = false;
  const r = await readPdf(bytes, {
    onPage: async (done) => {
      if (done === 3 && !killed) { killed = true; await pdfWorkerThread()!.terminate(); }
    },
  });
  expect(killed).toBe(true);
  expect(r.pages.map((p) => p.number)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  expect(r.pages.slice(0, 3).every((p) => !p.error && p.words.length === 3)).toBe(true);
  // page 4 was already being read ahead when the thread stopped; every later page fails cleanly
  expect(r.pages.slice(4).every((p) => p.error?.code === 'PROC_005' && /worker thread stopped/.test(p.error.message))).toBe(true);
  const again = await readPdf(bytes, { pages: [30] });
  expect(again.pages[0].words.map((w) => w.text)).toEqual(['page', '30', 'text']);
}, 20_000);
