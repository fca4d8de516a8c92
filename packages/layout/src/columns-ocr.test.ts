// A scanned magazine page (four narrow columns, a picture with its caption in the middle one), rendered
// with @napi-rs/canvas, read by the real OCR engine and laid out: the columns must come back one after
// the other, not interleaved and not as one table across them.
import path from 'node:path';
import { createRequire } from 'node:module';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import sharp from 'sharp';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { readImage } from '@quire/format-image';
import { readPdf } from '@quire/format-pdf';
import { layoutDocument } from '@quire/layout';
import { createOcrPool, type OcrPool } from '@quire/ocr';
import type { TextElement } from '@quire/core';
import { prose } from '../../../tests/fixtures/layout/builder.js';

const T = 180_000;
const LONG = ['newspaper', 'magazines', 'arrangement', 'typesetting', 'hyphenation', 'continuing', 'paragraphs', 'photographs'];
const require = createRequire(import.meta.url);
const TAGS = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf', 'Hotel', 'India', 'Juliet', 'Kilo', 'Lima'];

/**
 * Paragraph k of column c as lines that fit (`fits`): it starts with its tag, carries long words, and a long
 * word that does not fit is hyphenated where the line has room, as magazines set narrow columns.
 */
function paragraphLines(c: number, k: number, fits: (line: string) => boolean): string[] {
  const out: string[] = [];
  let line = '';
  const words = prose(30, c * 3 + k + 1).split(' ').map((w, i) => (i % 4 === 2 ? LONG[(i + k) % LONG.length] : w));
  for (const w of [TAGS[c * 3 + k], ...words]) {
    const next = line ? `${line} ${w}` : w;
    if (fits(next) || !line) { line = next; continue; }
    let cut = w.length - 3;
    while (cut >= 3 && !fits(`${line} ${w.slice(0, cut)}-`)) cut--;
    if (w.length >= 8 && cut >= 3) { out.push(`${line} ${w.slice(0, cut)}-`); line = w.slice(cut); } else { out.push(line); line = w; }
  }
  out.push(line);
  return out;
}

async function magazineScan(): Promise<{ png: Buffer; starts: string[] }> {
  const dir = path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts');
  GlobalFonts.registerFromPath(path.join(dir, 'LiberationSans-Regular.ttf'), 'QuireColumnsSans');
  const dpi = 200, W = 8.5 * dpi, H = 11 * dpi;
  const canvas = createCanvas(W, H);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, W, H);
  g.fillStyle = '#111';
  const px = (pt: number) => (pt / 72) * dpi;
  g.font = `${px(20)}px QuireColumnsSans`;
  g.fillText('Narrow Columns Weekly', px(54), px(70));
  g.font = `${px(10)}px QuireColumnsSans`;
  const colWidth = px(100), gutter = px(14), lead = px(13);
  const starts: string[] = [];
  for (let c = 0; c < 4; c++) {
    const x = px(54) + c * (colWidth + gutter);
    let y = px(110);
    for (let k = 0; k < 3; k++) {
      starts.push(TAGS[c * 3 + k]);
      const lines = paragraphLines(c, k, (line) => g.measureText(line).width <= colWidth);
      lines.forEach((line, i) => g.fillText(line, x, y + i * lead));
      y += (lines.length - 1) * lead + lead * 1.8;
      if (c === 1 && k === 0) {
        g.strokeRect(x, y - lead * 0.5, colWidth, px(90));
        g.font = `italic ${px(8)}px QuireColumnsSans`;
        g.fillText('Figure 2: the gap', x + px(4), y + px(102));
        g.font = `${px(10)}px QuireColumnsSans`;
        y += px(125);
      }
    }
  }
  const png = await sharp(canvas.toBuffer('image/png')).removeAlpha().greyscale().withMetadata({ density: dpi }).png().toBuffer();
  return { png, starts };
}

describe('a scanned four-column magazine page', () => {
  let pool: OcrPool;
  beforeAll(async () => { pool = await createOcrPool({ size: 1 }); }, T);
  afterAll(() => pool.close());

  it('reads column by column, with no table across the columns', async () => {
    const { png, starts } = await magazineScan();
    const doc = layoutDocument(await readImage(png, { ocr: pool }));
    const els = doc.pages[0].elements;
    expect(els.filter((e) => e.kind === 'table')).toEqual([]);
    const text = els.filter((e): e is TextElement => e.kind === 'text').map((e) => e.text).join('\n');
    const at = starts.map((s) => text.indexOf(s));
    expect(at.filter((i) => i < 0)).toEqual([]);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  }, T);
});

/** The same kind of page as a born-digital PDF (pdf-lib, Helvetica 9 pt in four 80 pt columns, hyphenated). */
async function magazinePdf(): Promise<{ pdf: Uint8Array; starts: string[] }> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const size = 9, colWidth = 80, gutter = 14, lead = 11;
  const fits = (s: string) => font.widthOfTextAtSize(s, size) <= colWidth;
  page.drawText('Narrow Columns Weekly', { x: 54, y: 740, size: 20, font });
  const starts: string[] = [];
  for (let c = 0; c < 4; c++) {
    const x = 54 + c * (colWidth + gutter);
    let y = 700;
    const put = (s: string) => { page.drawText(s, { x, y, size, font }); y -= lead; };
    for (let k = 0; k < 3; k++) {
      starts.push(TAGS[c * 3 + k]);
      for (const line of paragraphLines(c, k, fits)) put(line);
      y -= lead * 0.8;
      if (c === 1 && k === 0) {
        page.drawRectangle({ x, y: y - 90, width: colWidth, height: 90, borderWidth: 1 });
        page.drawText('Figure 2: the gap', { x: x + 4, y: y - 102, size: 8, font });
        y -= 125;
      }
    }
  }
  return { pdf: await doc.save(), starts };
}

describe('a born-digital four-column magazine page', () => {
  it('reads column by column, with no table across the columns, hyphenation joined', async () => {
    const { pdf, starts } = await magazinePdf();
    const doc = layoutDocument({ format: 'pdf', ...(await readPdf(pdf)) });
    const els = doc.pages[0].elements;
    expect(els.filter((e) => e.kind === 'table')).toEqual([]);
    const text = els.filter((e): e is TextElement => e.kind === 'text').map((e) => e.text).join('\n');
    const at = starts.map((s) => text.indexOf(s));
    expect(at.filter((i) => i < 0)).toEqual([]);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(text).not.toMatch(/\p{L}- \p{Ll}/u);
  }, T);
});
