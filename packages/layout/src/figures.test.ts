import { layoutDocument } from '@quire/layout';
import type { Document, FigureElement, TableElement, TextElement } from '@quire/core';
import { input, PageBuilder, prose } from '../../../tests/fixtures/layout/builder.js';

const figures = (doc: Document) => doc.pages[0].elements.filter((e): e is FigureElement => e.kind === 'figure');
const texts = (doc: Document) => doc.pages[0].elements.filter((e): e is TextElement => e.kind === 'text');

/** A vector bar chart: L-shaped axes, numeric ticks on the left and bottom, bars and a legend swatch. */
function chart(p: PageBuilder, x: number, y: number) {
  p.image(x, y, 300, 200, 'vector', 40);
  p.hRule(x + 30, x + 290, y + 170).vRule(x + 30, y + 10, y + 170);
  ['0', '50', '100', '150'].forEach((t, i) => p.text(x + 5, y + 165 - i * 50, t, { size: 8 }));
  ['2021', '2022', '2023'].forEach((t, i) => {
    p.rect(x + 60 + i * 70, y + 80 - i * 20, 30, 90 + i * 20, { filled: true, fill: [0.2, 0.4, 0.8] });
    p.text(x + 60 + i * 70, y + 176, t, { size: 8 });
  });
  p.rect(x + 220, y + 15, 8, 8, { filled: true, fill: [0.2, 0.4, 0.8], stroked: false });
  p.text(x + 232, y + 15, 'Revenue', { size: 8 });
}

describe('figures', () => {
  it('classifies a vector plot with axes, ticks, bars and a legend as a chart and keeps its labels as figure text', () => {
    const p = new PageBuilder();
    p.paragraph(72, 60, 460, `Before ${prose(20)}`);
    chart(p, 100, 120);
    p.text(100, 340, 'Figure 1: Revenue by year');
    p.paragraph(72, 380, 460, `After ${prose(20)}`);
    const doc = layoutDocument(input([p.build()]));
    const [fig] = figures(doc);
    expect(fig).toMatchObject({ id: 'fig-1', visualType: 'chart', caption: 'Figure 1: Revenue by year' });
    expect(fig.classification).toMatchObject({ model: 'quire-heuristic-v1' });
    expect(fig.classification!.confidence).toBeGreaterThan(0.7);
    expect(fig.text.split(' ').sort()).toEqual(['0', '100', '150', '2021', '2022', '2023', '50', 'Revenue'].sort());
    const t = texts(doc);
    expect(t.map((e) => e.category)).toEqual(['Text', 'caption', 'Text']);
    expect(t[1].captionFor).toBe('fig-1');
    expect(t.map((e) => e.text).join(' ')).not.toMatch(/2022|Revenue$/);
    expect(doc.pages[0].elements.map((e) => e.kind)).toEqual(['text', 'figure', 'text', 'text']);
  });

  it('calls a raster picture an image, and a raster with numeric axis text around it a chart', () => {
    const p = new PageBuilder();
    p.image(72, 72, 200, 150, 'raster');
    p.image(320, 72, 200, 150, 'raster');
    ['10', '20', '30', '40'].forEach((t, i) => p.text(305, 210 - i * 40, t, { size: 8 }));
    ['Q1', 'Q2', 'Q3', 'Q4', '1', '2', '3'].slice(4).forEach((t, i) => p.text(350 + i * 50, 215, t, { size: 8 }));
    const [a, b] = figures(layoutDocument(input([p.build()])));
    expect(a.visualType).toBe('image');
    expect(a.classification!.confidence).toBeGreaterThanOrEqual(0.9);
    expect(b.visualType).toBe('chart');
  });

  it('ties a table caption above a table to the table', () => {
    const p = new PageBuilder();
    p.text(72, 80, 'Table 2. Prices');
    p.ruledGrid([72, 200, 330], [100, 120, 140], [['Fruit', 'Price'], ['Fig', '2.00']]);
    const doc = layoutDocument(input([p.build()]));
    const cap = texts(doc).find((e) => e.category === 'caption')!;
    const table = doc.pages[0].elements.find((e): e is TableElement => e.kind === 'table')!;
    expect(cap.captionFor).toBe(table.id);
    expect(doc.pages[0].elements.map((e) => e.kind)).toEqual(['text', 'table']);
  });

  it('treats a "Figure 3 shows" sentence far from any figure as text, and a text-filled box as text, not a figure', () => {
    const p = new PageBuilder();
    p.paragraph(72, 72, 460, `Figure 3 shows ${prose(30)}`);
    p.image(60, 300, 480, 120, 'vector', 4);
    p.paragraph(72, 310, 440, `Boxed ${prose(80, 4)}`);
    const doc = layoutDocument(input([p.build()]));
    expect(figures(doc)).toHaveLength(0);
    expect(texts(doc).map((e) => [e.category, e.text.split(' ')[0]])).toEqual([['Text', 'Figure'], ['Text', 'Boxed']]);
  });
});
