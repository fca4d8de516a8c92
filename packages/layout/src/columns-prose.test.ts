import { layoutDocument } from '@quire/layout';
import type { Document, TextElement } from '@quire/core';
import { input, PageBuilder, prose } from '../../../tests/fixtures/layout/builder.js';

const texts = (doc: Document) => doc.pages[0].elements.filter((e): e is TextElement => e.kind === 'text');
const kinds = (doc: Document) => doc.pages[0].elements.map((e) => e.kind);
const allText = (doc: Document) => texts(doc).map((e) => e.text).join('\n');

/** Lays out words as a ragged-right column `width` points wide, breaking a long word with a hyphen where it does not fit. */
function column(p: PageBuilder, x: number, y: number, width: number, words: string[], size = 9, leading = 11): number {
  const perChar = size * 0.5, space = size * 0.25;
  let line: string[] = [], used = 0;
  const flush = () => { if (line.length) { p.text(x, y, line.join(' '), { size }); y += leading; } line = []; used = 0; };
  for (const w of words) {
    const need = (used ? space : 0) + w.length * perChar;
    if (used + need <= width) { line.push(w); used += need; continue; }
    const room = Math.floor((width - used - (used ? space : 0)) / perChar) - 1;
    if (w.length >= 8 && room >= 3) {
      line.push(`${w.slice(0, room)}-`);
      flush();
      line.push(w.slice(room)); used = (w.length - room) * perChar;
    } else { flush(); line.push(w); used = w.length * perChar; }
  }
  flush();
  return y;
}

const LONG = ['newspaper', 'magazines', 'arrangement', 'typesetting', 'hyphenation', 'continuing', 'paragraphs', 'columns'];
/** Prose with long words mixed in so that narrow columns hyphenate some line ends. */
function article(n: number, seed: number): string[] {
  return prose(n, seed).split(' ').map((w, i) => (i % 5 === 3 ? LONG[(i + seed) % LONG.length] : w));
}

describe('multi-column prose is not a table', () => {
  /** Narrow columns of two or three words a line (newspaper, magazine), with a captioned picture in the second column. */
  function columnsPage(ncol: number, width: number, gutter: number, source: 'text-layer' | 'ocr'): { page: PageBuilder; starts: string[] } {
    const p = new PageBuilder(1, 612, 792, source);
    p.text(40, 40, 'Reading narrow columns', { size: 18, bold: true });
    const starts: string[] = [];
    for (let c = 0; c < ncol; c++) {
      const x = 40 + c * (width + gutter);
      let y = 80;
      for (let k = 0; k < 3; k++) {
        const tag = `P${c + 1}${'abc'[k]}`;
        starts.push(tag);
        y = column(p, x, y, width, [tag, ...article(28 + 7 * k, c * 3 + k + 1)]) + 6;
        if (c === 1 && k === 0) {
          // a picture in the second column, with its caption in the gap
          p.image(x, y, width, 90);
          p.text(x + 4, y + 96, 'Figure 2: the gap', { size: 8, italic: true });
          y += 118;
        }
      }
    }
    return { page: p, starts };
  }

  for (const [ncol, width, gutter, source] of [[3, 90, 12, 'text-layer'], [4, 80, 10, 'text-layer'], [4, 80, 10, 'ocr']] as const) {
    it(`reads ${ncol} narrow columns (${source}) with a captioned picture gap column by column, not as a table`, () => {
      const { page, starts } = columnsPage(ncol, width, gutter, source);
      const doc = layoutDocument(input([page.build()]));
      expect(kinds(doc)).not.toContain('table');
      const text = allText(doc);
      const order = starts.map((s) => text.indexOf(s));
      expect(order.every((i) => i >= 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      // hyphenated line ends are joined within each column's paragraphs
      expect(text).not.toMatch(/\p{L}- \p{Ll}/u);
      expect(text).toMatch(/Figure 2: the gap/);
    });
  }

  it('still finds a borderless table of short cells whose lower-case cells do not run on', () => {
    const p = new PageBuilder();
    const rows = [['item', 'unit', 'count'], ['apples', 'kg', '12'], ['pears', 'kg', '7'], ['plums', 'box', '3'], ['grapes', 'crate', '9']];
    rows.forEach((r, i) => r.forEach((t, c) => p.text(72 + c * 120, 100 + i * 14, t)));
    const doc = layoutDocument(input([p.build()]));
    expect(kinds(doc)).toContain('table');
  });
});

describe('columns whose baselines do not line up across the gutter', () => {
  /**
   * Two columns of lines, the right column set half a line lower, as OCR reads a scan of such a
   * page: the bands of the page alternate between the columns, so the lines just above and below a
   * right-column line are the left column's. Sentences end with a full stop followed by a space stretched
   * to 1.2 em (as TeX sets it), wider than the first pass's 0.9 em: whether it parts the line is the
   * rejoin's call, from the lines of the same column above and below, which run through it.
   */
  function page(source: 'text-layer' | 'ocr') {
    const p = new PageBuilder(1, 612, 792, source);
    const size = 10, lead = 12.5, width = 240, space = size * 0.25, wide = size * 1.2;
    const printed: string[] = [];
    for (let c = 0; c < 2; c++) {
      const words = article(110, 3 + 2 * c).map((w, i) => (i % 7 === 6 ? `${w}.` : w));
      const x = 60 + c * (width + 14);
      let y = 100 + c * lead * 0.5;
      const gapAfter = (w: string) => (w.endsWith('.') ? wide : space);
      const lines: string[][] = [[]];
      const len = (l: string[]) => l.reduce((s, w, i) => s + w.length * size * 0.5 + (i ? gapAfter(l[i - 1]) : 0), 0);
      for (const w of words) {
        const line = lines[lines.length - 1];
        if (line.length && len([...line, w]) > width) lines.push([w]); else line.push(w);
      }
      lines.forEach((line) => {
        let at = x;
        for (const w of line) { p.text(at, y, w, { size }); at += w.length * size * 0.5 + gapAfter(w); }
        y += lead;
      });
      printed.push(lines.map((l) => l.join(' ')).join(' '));
    }
    return { raw: p, printed };
  }

  for (const source of ['text-layer', 'ocr'] as const) {
    it(`keeps each column one paragraph: stretched spaces join, the gutter parts (${source})`, () => {
      const { raw, printed } = page(source);
      const doc = layoutDocument(input([raw.build()]));
      expect(kinds(doc)).toEqual(["text", "text"]);
      expect(texts(doc).map((e) => e.text.replace(/\s+/g, ' '))).toEqual(printed);
    });
  }
});
