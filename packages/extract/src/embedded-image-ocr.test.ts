import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import type { Document, OcrEngine, TableElement } from '@quire/core';
import { createOcrPool, type OcrPool } from '@quire/ocr';
import { renderExtraction } from '@quire/render';
import { ensureScanFont, renderScan, SCAN_FONT_FAMILY } from '../../../tests/fixtures/scans/generate.js';
import { renderRuledTable } from '../../../tests/fixtures/scans/ruled.js';
import { extractDocument } from './pipeline.js';

const T = 120_000;
const OPENING = 'Thank you for the order placed last week with our northern office.';
const CLOSING = 'Please keep this letter with the delivery papers for your records.';
const PICTURE_LINES = ['Harbour Logistics Limited', 'Certified freight carrier since 1987'];

/**
 * A born-digital letter: a text-layer paragraph, then a picture of text (a letterhead pasted as a PNG,
 * no text layer for it), then another text-layer paragraph.
 */
async function letterWithPicture(options: { picture?: Uint8Array; textOverPicture?: boolean; tiny?: boolean } = {}) {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 792]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawText(OPENING, { x: 72, y: 700, size: 11, font });
  const png = options.picture ?? (await renderScan({ lines: PICTURE_LINES, widthIn: 4.2, heightIn: 0.9, fontPt: 14, marginIn: 0.15 })).png;
  const image = await pdf.embedPng(png);
  const w = options.tiny ? 30 : 302, h = options.tiny ? 8 : (302 * image.height) / image.width;
  page.drawImage(image, { x: 72, y: 660 - h, width: w, height: h });
  if (options.textOverPicture) {
    for (let i = 0; i < 4; i++) page.drawText('Printed over the picture, line ' + (i + 1), { x: 80, y: 650 - i * 13, size: 10, font });
  }
  page.drawText(CLOSING, { x: 72, y: 660 - h - 40, size: 11, font });
  return pdf.save();
}

/** The pool, counting how many pictures were sent to it. */
function counting(pool: OcrPool): { engine: OcrEngine; calls: () => number } {
  let n = 0;
  return { engine: { recognize: (image, page) => { n++; return pool.recognize(image, page); } }, calls: () => n };
}

/** A bar chart as a picture: bars, an axis and a few short labels (text covers little of it). */
async function barChartPng(): Promise<Uint8Array> {
  ensureScanFont();
  const w = 1200, h = 800;
  const canvas = createCanvas(w, h);
  const g = canvas.getContext('2d');
  g.fillStyle = '#ffffff'; g.fillRect(0, 0, w, h);
  // horizontal bars, labels on their left
  g.fillStyle = '#222222'; g.fillRect(300, 60, 4, 680);
  const bars = [['North', 620], ['South', 380], ['East', 760], ['West', 470]] as const;
  g.font = `44px ${SCAN_FONT_FAMILY}`;
  bars.forEach(([label, v], i) => {
    g.fillStyle = '#4a6fa5'; g.fillRect(304, 100 + i * 160, v, 90);
    g.fillStyle = '#111111'; g.fillText(label, 100, 160 + i * 160);
  });
  return sharp(canvas.toBuffer('image/png')).removeAlpha().png().toBuffer();
}

const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

describe('text inside raster images on text-layer PDF pages', () => {
  let pool: OcrPool;
  beforeAll(async () => { pool = await createOcrPool({ size: 1 }); }, T);
  afterAll(async () => { await pool?.close(); });

  test('a picture of text between two text-layer paragraphs is read, in its reading position', async () => {
    const { engine, calls } = counting(pool);
    const doc = await extractDocument(await letterWithPicture(), 'pdf', { ocr: engine });
    expect(calls()).toBe(1);
    const md = renderExtraction(doc).markdown;
    const all = words(md).join(' ');
    const at = (line: string) => all.indexOf(words(line).join(' '));
    expect(at(OPENING)).toBeGreaterThanOrEqual(0);
    expect(at(PICTURE_LINES[0])).toBeGreaterThan(at(OPENING));
    expect(at(PICTURE_LINES[1])).toBeGreaterThan(at(PICTURE_LINES[0]));
    expect(at(CLOSING)).toBeGreaterThan(at(PICTURE_LINES[1]));
    // the picture was text: it is not also a figure, and the response says OCR read it
    expect(doc.pages[0].elements.some((e) => e.kind === 'figure')).toBe(false);
    expect(doc.warnings).toContain('Text was read by OCR from 1 embedded image(s) on text-layer pages');
  }, T);

  test('a table pasted as a picture comes back as its words and grid', async () => {
    const cells = [['Item', 'Qty', 'Price'], ['Bolts', '40', '12.00'], ['Nuts', '15', '3.50'], ['Rivets', '75', '9.25']];
    const { png } = await renderRuledTable({ cells, colWidthsIn: [1.3, 0.8, 0.9], rowHeightIn: 0.35, leftIn: 0.2, topIn: 0.2, widthIn: 3.4, heightIn: 1.8, dpi: 300 });
    const doc = await extractDocument(await letterWithPicture({ picture: png }), 'pdf', { ocr: pool });
    const tables = doc.pages[0].elements.filter((e): e is TableElement => e.kind === 'table');
    expect(tables).toHaveLength(1);
    const text = tables[0].cells.map((c) => c.text).join(' ');
    for (const w of ['Bolts', 'Nuts', 'Rivets', '12.00', '9.25']) expect(text).toContain(w);
    expect([tables[0].rows, tables[0].cols]).toEqual([4, 3]);
  }, T);

  test('a chart pasted as a picture stays a figure: its few labels become the figure\'s text, not running text', async () => {
    const { engine, calls } = counting(pool);
    const doc = await extractDocument(await letterWithPicture({ picture: await barChartPng() }), 'pdf', { ocr: engine });
    expect(calls()).toBe(1);
    const figures = doc.pages[0].elements.filter((e) => e.kind === 'figure');
    expect(figures).toHaveLength(1);
    expect(words(figures[0].text ?? '')).toEqual(expect.arrayContaining(['north', 'south', 'east', 'west']));
    const md = words(renderExtraction(doc).markdown);
    expect(md).not.toContain('north');
    expect(md).toEqual(expect.arrayContaining(words(OPENING)));
  }, T);

  test('switched off, under page text, or tiny: the picture is not OCR\'d', async () => {
    const off = counting(pool);
    const plain = await extractDocument(await letterWithPicture(), 'pdf', { ocr: off.engine, embeddedImageOcr: false });
    expect(off.calls()).toBe(0);
    expect(words(renderExtraction(plain).markdown)).not.toContain('harbour');
    expect(plain.pages[0].elements.some((e) => e.kind === 'figure')).toBe(true);

    const under = counting(pool);
    await extractDocument(await letterWithPicture({ textOverPicture: true }), 'pdf', { ocr: under.engine });
    expect(under.calls()).toBe(0);

    const tiny = counting(pool);
    await extractDocument(await letterWithPicture({ tiny: true }), 'pdf', { ocr: tiny.engine });
    expect(tiny.calls()).toBe(0);
  }, T);

  test('the pixel budget bounds the OCR: over it, the picture is skipped and the response says so', async () => {
    const { engine, calls } = counting(pool);
    const doc = await extractDocument(await letterWithPicture(), 'pdf', { ocr: engine, embeddedImageOcr: { maxPixelsPerDocument: 20_000 } });
    expect(calls()).toBe(0);
    expect(doc.warnings).toContain('1 embedded image(s) were not OCR\'d: over the pixel budget for image OCR');
  }, T);
});
