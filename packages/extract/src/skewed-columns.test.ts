// A scanned two-column page of justified prose, the right column's lines set half a line lower than the left's
// (baselines that do not line up across the gutter), the sheet fed a little askew: read by the real OCR engine
// and laid out through the pipeline. Each column must come back whole and in order: no line joined across the
// gutter, no stretched word space taken for a column, no table made of the two columns.
import path from 'node:path';
import { createRequire } from 'node:module';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import sharp from 'sharp';
import type { TextElement } from '@quire/core';
import { createOcrPool, type OcrPool } from '@quire/ocr';
import { extractDocument } from './pipeline.js';
import { prose } from '../../../tests/fixtures/layout/builder.js';

const T = 240_000;
const require = createRequire(import.meta.url);
const TAGS = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot'];

/** The page at 200 DPI: two 230 pt columns, 10 pt type, justified (word spaces stretched to fill each line). */
async function twoColumnScan(skewDeg: number): Promise<Buffer> {
  const dir = path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts');
  GlobalFonts.registerFromPath(path.join(dir, 'LiberationSerif-Regular.ttf'), 'QuireSkewSerif');
  const dpi = 200, W = 8.5 * dpi, H = 11 * dpi;
  const px = (pt: number) => (pt / 72) * dpi;
  const canvas = createCanvas(W, H);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, W, H);
  g.fillStyle = '#111';
  g.font = `${px(10)}px QuireSkewSerif`;
  const colWidth = px(230), gutter = px(14), lead = px(12.5);
  const space = g.measureText(' ').width;
  for (let c = 0; c < 2; c++) {
    const x = px(66) + c * (colWidth + gutter);
    let y = px(100) + c * lead * 0.5;
    for (let k = 0; k < 3; k++) {
      const words = [TAGS[c * 3 + k], ...prose(55, c * 3 + k + 7).split(' ')];
      const lines: string[][] = [[]];
      for (const w of words) {
        const line = lines[lines.length - 1];
        if (line.length && g.measureText([...line, w].join(' ')).width > colWidth) lines.push([w]);
        else line.push(w);
      }
      lines.forEach((line, i) => {
        // every line but the paragraph's last is set full width: its spaces grow by what the line lacks
        const inked = line.reduce((s, w) => s + g.measureText(w).width, 0);
        const gap = i < lines.length - 1 && line.length > 1 ? (colWidth - inked) / (line.length - 1) : space;
        let at = x;
        for (const w of line) { g.fillText(w, at, y); at += g.measureText(w).width + gap; }
        y += lead;
      });
      y += lead * 0.8;
    }
  }
  const upright = canvas.toBuffer('image/png');
  return sharp(upright).rotate(skewDeg, { background: '#ffffff' }).removeAlpha().greyscale().withMetadata({ density: dpi }).png().toBuffer();
}

describe('a skewed scan of two justified columns whose baselines do not line up', () => {
  let pool: OcrPool;
  beforeAll(async () => { pool = await createOcrPool({ size: 1 }); }, T);
  afterAll(() => pool.close());

  for (const skew of [0, 1.5]) {
    it(`reads column by column at ${skew}° (levelled before layout, boxes on the page as sent)`, async () => {
      const doc = await extractDocument(new Uint8Array(await twoColumnScan(skew)), 'png', { ocr: pool });
      const page = doc.pages[0];
      const els = page.elements;
      expect(els.filter((e) => e.kind === 'table')).toEqual([]);
      const texts = els.filter((e): e is TextElement => e.kind === 'text').map((e) => e.text);
      const text = texts.join('\n');
      const at = TAGS.map((s) => text.indexOf(s));
      expect(at.filter((i) => i < 0)).toEqual([]);
      expect([...at].sort((a, b) => a - b)).toEqual(at);
      // every paragraph is one block that starts with its tag: no block takes words from both columns
      for (const tag of TAGS) expect(texts.filter((t) => t.startsWith(tag))).toHaveLength(1);
      if (skew) {
        expect(page.extra?.ocr_skew_corrected).toBeCloseTo(-skew, 0);
        // the boxes are on the page as sent: the first paragraph's block starts where the skewed scan prints it
        const first = els.find((e) => e.kind === 'text' && e.text.startsWith(TAGS[0]))!;
        expect(first.box!.x0).toBeGreaterThan(0.05);
        expect(first.box!.x0).toBeLessThan(0.2);
      }
    }, T);
  }
});
