import { layoutDocument } from '@quire/layout';
import type { Document, TableElement, TextElement } from '@quire/core';
import { input, PageBuilder, prose } from '../../../tests/fixtures/layout/builder.js';
import { readingOrder } from './reading-order.js';

const texts = (doc: Document) => doc.pages[0].elements.filter((e): e is TextElement => e.kind === 'text').map((e) => e.text);

describe('label…value rows', () => {
  for (const source of ['text-layer', 'ocr'] as const) {
    it(`reads a label and its far right-aligned amount as one line, between the paragraphs around them (${source})`, () => {
      const p = new PageBuilder(1, 612, 792, source);
      p.paragraph(72, 60, 460, `Thank you ${prose(40, 3)}`);
      [['Subtotal', '104.00'], ['Tax (8 %)', '$8.32']].forEach(([label, value], i) => {
        p.text(72, 120 + i * 14, label);
        p.text(540 - value.length * 5, 120 + i * 14, value);
      });
      p.paragraph(72, 170, 460, `Payment ${prose(30, 5)}`);
      const t = texts(layoutDocument(input([p.build()])));
      expect(t).toHaveLength(3);
      expect(t[1]).toBe('Subtotal 104.00 Tax (8 %) $8.32');
      expect(t[2]).toMatch(/^Payment/);
    });
  }

  it('keeps a number that is a line of a prose column in its column', () => {
    const p = new PageBuilder();
    p.paragraph(72, 100, 200, `Left ${prose(60, 1)}`);
    const y = p.paragraph(330, 100, 200, `Right ${prose(50, 2)} in the year`);
    p.text(330, y, '2023.');
    const doc = layoutDocument(input([p.build()]));
    const t = texts(doc);
    expect(t[0]).toMatch(/^Left/);
    expect(t[0]).not.toMatch(/2023/);
    expect(t[1]).toMatch(/^Right.*in the year 2023\.$/);
  });

  it('leaves three or more label…amount rows to the table detector (a two-column key-value table)', () => {
    const p = new PageBuilder();
    [['Subtotal', '104.00'], ['Tax', '8.32'], ['Shipping', '12.00'], ['Total', '124.32']].forEach(([label, value], i) => {
      p.text(72, 120 + i * 14, label);
      p.text(540 - value.length * 5, 120 + i * 14, value);
    });
    const [table] = layoutDocument(input([p.build()])).pages[0].elements.filter((e): e is TableElement => e.kind === 'table');
    expect([table.rows, table.cols]).toEqual([4, 2]);
    expect(table.cells.map((c) => c.text)).toEqual(['Subtotal', '104.00', 'Tax', '8.32', 'Shipping', '12.00', 'Total', '124.32']);
  });
});

describe('widely spaced lines', () => {
  for (const source of ['text-layer', 'ocr'] as const) {
    it(`joins a double-spaced shop name into one line above the lines under it (${source})`, () => {
      const p = new PageBuilder(1, 226, 600, source);
      let x = 30;
      // double spaces between the words, the OCR'd tops a little uneven
      ['BEST', 'CORNER', 'SHOP'].forEach((w, i) => { p.text(x, 30 + (i % 2 ? 1.2 : -0.8), w); x += w.length * 5 + 20; });
      p.text(70, 46, 'Main St 12');
      p.text(20, 70, 'Bread 3.20');
      const t = texts(layoutDocument(input([p.build()])));
      expect(t.join('\n')).toMatch(/^BEST CORNER SHOP\b/);
      expect(t.join(' ')).toMatch(/Main St 12.*Bread/);
    });
  }

  it('keeps the gaps of a row that columns continue above and below', () => {
    const p = new PageBuilder();
    for (let r = 0; r < 4; r++) ['alpha', 'beta', 'gamma'].forEach((w, c) => p.text(72 + c * 90, 100 + r * 14, `${w}${r}`));
    const doc = layoutDocument(input([p.build()]));
    const [table] = doc.pages[0].elements.filter((e): e is TableElement => e.kind === 'table');
    expect(table?.cols).toBe(3);
  });

  it('orders boxes that overlap (no cut between them) by rows of text, then left to right — not by top edge', () => {
    const box = (x0: number, y0: number, x1: number, y1: number) => ({ x0, y0, x1, y1 });
    const items = [
      { id: 'B', box: box(0.095, 0.1, 0.2, 0.12) },
      { id: 'A', box: box(0, 0.103, 0.1, 0.123) },
      { id: 'D', box: box(0.095, 0.118, 0.2, 0.138) },
      { id: 'C', box: box(0, 0.12, 0.1, 0.14) },
    ];
    expect(readingOrder(items, (i) => i.box, 0.01).map((i) => i.id)).toEqual(['A', 'B', 'C', 'D']);
  });
});
