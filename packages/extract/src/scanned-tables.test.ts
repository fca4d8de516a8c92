import sharp from 'sharp';
import { PDFDocument } from 'pdf-lib';
import type { Document, TableElement } from '@quire/core';
import { createOcrPool, type OcrPool } from '@quire/ocr';
import { degrade, renderRuledTable } from '../../../tests/fixtures/scans/ruled.js';
import { extractDocument } from './pipeline.js';

const T = 120_000;
// Empty cells and one-word columns: without the rules, text alone would not give this grid.
const CELLS = [
  ['Item', 'Qty', 'Price', 'Note'],
  ['Bolts', '40', '12.00', ''],
  ['Nuts', '', '3.50', 'backorder'],
  ['Washers', '200', '', ''],
  ['Rivets', '75', '9.25', 'sample'],
];

const tablesOf = (doc: Document) => doc.pages.flatMap((p) => p.elements.filter((e): e is TableElement => e.kind === 'table'));
const grid = (t: TableElement) => {
  const out: string[][] = Array.from({ length: t.rows }, () => Array<string>(t.cols).fill(''));
  for (const c of t.cells) out[c.row][c.col] = c.text.trim();
  return out;
};

async function scan() {
  return renderRuledTable({ cells: CELLS, colWidthsIn: [1.3, 0.8, 0.9, 1.2], rowHeightIn: 0.35, leftIn: 0.5, topIn: 0.9, widthIn: 5.5, heightIn: 3.2, dpi: 300, title: 'Parts on order' });
}

describe('scanned ruled tables (OCR words + raster rulings)', () => {
  let pool: OcrPool;
  beforeAll(async () => { pool = await createOcrPool({ size: 2 }); }, T);
  afterAll(async () => { await pool?.close(); });

  test('a skewed, noisy PNG scan gives the ruled grid: 5×4 with its empty cells', async () => {
    const { png } = await degrade(await scan(), { skewDeg: 0.6, blur: 0.7, noise: 0.003, seed: 2 });
    const doc = await extractDocument(png, 'png', { ocr: pool });
    const tables = tablesOf(doc);
    expect(tables).toHaveLength(1);
    const t = tables[0];
    expect(t.extra).toMatchObject({ source: 'ruled' });
    expect([t.rows, t.cols]).toEqual([5, 4]);
    expect(grid(t)).toEqual(CELLS);
  }, T);

  test('a sideways scan inside an image-only PDF: the grid is found upright and its box is on the page as sent', async () => {
    const s = await scan();
    const turned = await sharp(s.png).rotate(90).png().toBuffer();
    const pdf = await PDFDocument.create();
    const img = await pdf.embedPng(turned);
    // 300 DPI image → points
    const w = (s.height / 300) * 72, h = (s.width / 300) * 72;
    pdf.addPage([w, h]).drawImage(img, { x: 0, y: 0, width: w, height: h });
    const doc = await extractDocument(await pdf.save(), 'pdf', { ocr: pool });
    const tables = tablesOf(doc);
    expect(tables).toHaveLength(1);
    expect(grid(tables[0])).toEqual(CELLS);
    // upright the table spans x 0.5..(0.5+4.2) in of 5.5 in; turned clockwise that range is vertical on the page
    const b = tables[0].box!;
    expect(b.y0).toBeCloseTo(0.5 / 5.5, 1);
    expect(b.y1).toBeCloseTo(4.7 / 5.5, 1);
    expect(doc.pages[0].extra).toMatchObject({ ocr_rotation_corrected: 270 });
  }, T);
});
