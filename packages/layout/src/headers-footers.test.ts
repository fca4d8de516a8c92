import { layoutDocument } from '@quire/layout';
import type { TextElement } from '@quire/core';
import { input, PageBuilder, prose } from '../../../tests/fixtures/layout/builder.js';

function report(n: number, pageNumber: (i: number) => string) {
  return Array.from({ length: n }, (_, i) => {
    const p = new PageBuilder(i + 1);
    p.text(72, 30, `Quire Annual Report ${2024}`, { size: 8 });
    p.paragraph(72, 90, 460, prose(80, i + 1));
    p.text(72, 750, `Confidential draft ${i + 1}`, { size: 8 });
    p.text(500, 750, pageNumber(i + 1), { size: 8 });
    return p.build();
  });
}

describe('headers and footers', () => {
  it('finds running headers, footers and page numbers by repetition across pages', () => {
    const doc = layoutDocument(input(report(4, (i) => `Page ${i} of 4`)));
    for (const page of doc.pages) {
      const els = page.elements as TextElement[];
      expect(els.map((e) => e.category)).toEqual(['Header', 'Text', 'Footer', 'Page Number']);
      expect(els[0]).toMatchObject({ text: 'Quire Annual Report 2024', extra: { running: true } });
      expect(els[0].level).toBeUndefined();
      expect(els[3].text).toBe(`Page ${page.number} of 4`);
    }
  });

  it('recognizes bare and dashed page numbers even on a single page', () => {
    for (const pn of ['7', '- 7 -', 'iv', '7 / 12']) {
      const p = new PageBuilder();
      p.paragraph(72, 90, 460, prose(40));
      p.text(300, 760, pn, { size: 9 });
      const els = layoutDocument(input([p.build()])).pages[0].elements as TextElement[];
      expect(els.map((e) => e.category)).toEqual(['Text', 'Page Number']);
    }
  });

  it('leaves a top-band line that appears on one page of many as ordinary content', () => {
    const pages = report(4, (i) => String(i));
    pages[2].words.push({ text: 'Erratum', box: { x0: 0.7, y0: 0.04, x1: 0.8, y1: 0.055 }, fontSize: 10, confidence: 1 });
    const doc = layoutDocument(input(pages));
    const erratum = doc.pages[2].elements.find((e) => e.kind === 'text' && e.text === 'Erratum') as TextElement;
    expect(erratum.category).not.toBe('Footer');
    expect(erratum.extra?.running).toBeUndefined();
  });

  it('keeps a repeated line as content on a page where it is the only thing to read', () => {
    const pages = report(4, (i) => String(i));
    // page 3 holds nothing but the document's repeated top line (and its footer lines)
    const divider = new PageBuilder(3);
    divider.text(72, 30, 'Quire Annual Report 2024', { size: 8 });
    divider.text(72, 750, 'Confidential draft 3', { size: 8 });
    pages[2] = divider.build();
    const doc = layoutDocument(input(pages));
    const only = doc.pages[2].elements as TextElement[];
    expect(only.map((e) => [e.category, e.extra?.running])).toEqual([['Text', undefined], ['Text', undefined]]);
    // on the pages with body text, the same lines are still furniture
    expect((doc.pages[0].elements as TextElement[]).map((e) => e.category)).toEqual(['Header', 'Text', 'Footer', 'Page Number']);
  });
});
