import { layoutDocument } from '@quire/layout';
import type { Document, TextElement } from '@quire/core';
import { input, PageBuilder, prose } from '../../../tests/fixtures/layout/builder.js';

const heads = (doc: Document) => doc.pages.flatMap((p) => p.elements)
  .filter((e): e is TextElement => e.kind === 'text' && (e.category === 'Title' || e.category === 'Header'))
  .map((e) => [e.category, e.level, e.text]);

describe('headings', () => {
  it('levels headings by clustering font size and weight relative to the body, with the Title on page 1', () => {
    const p = new PageBuilder();
    p.text(72, 60, 'Annual Review of Layout', { size: 24, bold: true });
    p.text(72, 110, 'Background', { size: 16, bold: true });
    let y = p.paragraph(72, 135, 460, prose(60, 1)) + 10;
    p.text(72, y, 'Prior work', { size: 13, bold: true });
    y = p.paragraph(72, y + 20, 460, prose(60, 2)) + 10;
    p.text(72, y, 'Early systems', { bold: true });
    y = p.paragraph(72, y + 15, 460, prose(60, 3)) + 10;
    p.text(72, y, 'Method', { size: 16, bold: true });
    p.paragraph(72, y + 25, 460, prose(60, 4));
    const doc = layoutDocument(input([p.build()]));
    expect(heads(doc)).toEqual([
      ['Title', 1, 'Annual Review of Layout'], ['Header', 1, 'Background'], ['Header', 2, 'Prior work'],
      ['Header', 3, 'Early systems'], ['Header', 1, 'Method'],
    ]);
    expect(doc.title).toBe('Annual Review of Layout');
  });

  it('takes the level from numbering when headings share one style', () => {
    const p = new PageBuilder();
    let y = 72;
    for (const h of ['1 Introduction', '2 Methods', '2.1 Data', '2.1.1 Sources', 'A. Appendix', 'IV. Part four']) {
      p.text(72, y, h, { size: 11, bold: true });
      y = p.paragraph(72, y + 18, 460, prose(30, y)) + 12;
    }
    const doc = layoutDocument(input([p.build()]));
    expect(heads(doc).map(([, l, t]) => [l, t])).toEqual([
      [1, '1 Introduction'], [1, '2 Methods'], [2, '2.1 Data'], [3, '2.1.1 Sources'], [1, 'A. Appendix'], [1, 'IV. Part four'],
    ]);
  });

  it('lets PDF outline entries override levels and promote plain lines', () => {
    const p = new PageBuilder();
    p.text(72, 72, 'Overview', { size: 16, bold: true });
    let y = p.paragraph(72, 100, 460, prose(40, 1)) + 10;
    p.text(72, y, 'Background', { size: 16, bold: true });
    y = p.paragraph(72, y + 25, 460, prose(40, 2)) + 10;
    p.text(72, y, 'Plain subsection');
    p.paragraph(72, y + 20, 460, prose(40, 3));
    const outline = [{ title: 'Overview', level: 0 }, { title: 'Background', level: 1 }, { title: 'Plain Subsection', level: 2 }];
    const doc = layoutDocument(input([p.build()], { outline }));
    expect(heads(doc)).toEqual([['Header', 1, 'Overview'], ['Header', 2, 'Background'], ['Header', 3, 'Plain subsection']]);
  });

  it('does not take bold sentences or large headings on later pages as the Title', () => {
    const a = new PageBuilder(1), b = new PageBuilder(2);
    a.paragraph(72, 72, 460, prose(50, 1));
    a.text(72, 200, 'This sentence is bold but ends like prose.', { bold: true });
    b.text(72, 72, 'Chapter Two', { size: 24, bold: true });
    b.paragraph(72, 120, 460, prose(50, 2));
    const doc = layoutDocument(input([a.build(), b.build()]));
    expect(heads(doc)).toEqual([['Header', 1, 'Chapter Two']]);
    expect(doc.title).toBeUndefined();
  });
});
