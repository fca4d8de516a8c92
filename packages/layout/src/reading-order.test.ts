import { layoutDocument } from '@quire/layout';
import type { Document, TextElement } from '@quire/core';
import { input, PageBuilder, prose } from '../../../tests/fixtures/layout/builder.js';

const texts = (doc: Document, page = 0) => doc.pages[page].elements.filter((e): e is TextElement => e.kind === 'text');
const firstWords = (doc: Document, page = 0) => texts(doc, page).map((e) => e.text.split(' ')[0]);

describe('reading order', () => {
  it('reads a one-column page top to bottom, joining wrapped lines into paragraphs', () => {
    const p = new PageBuilder();
    p.text(72, 72, 'Introduction', { size: 16, bold: true });
    let y = p.paragraph(72, 110, 460, `Alpha ${prose(80, 1)}`);
    p.paragraph(72, y + 12, 460, `Beta ${prose(60, 2)}`);
    const doc = layoutDocument(input([p.build()]));
    expect(firstWords(doc)).toEqual(['Introduction', 'Alpha', 'Beta']);
    const alpha = texts(doc)[1];
    expect(alpha.category).toBe('Text');
    expect(alpha.text).toBe(`Alpha ${prose(80, 1)}`);
    expect(alpha.box!.x0).toBeCloseTo(72 / 612, 3);
    expect(alpha.box!.y0).toBeCloseTo(110 / 792, 3);
  });

  it('reads two columns column by column even when their paragraph breaks line up', () => {
    const p = new PageBuilder();
    p.text(72, 60, 'A Study of Columns', { size: 20, bold: true });
    for (const [x, tag] of [[72, 'L'], [318, 'R']] as const) {
      let y = 110;
      for (let i = 1; i <= 3; i++) y = p.paragraph(x, y, 220, `${tag}${i} ${prose(40, i + (tag === 'L' ? 0 : 10))}`) + 10;
    }
    const doc = layoutDocument(input([p.build()]));
    expect(firstWords(doc)).toEqual(['A', 'L1', 'L2', 'L3', 'R1', 'R2', 'R3']);
  });

  it('reads columns above a full-width heading before it, and the columns below after it', () => {
    const p = new PageBuilder();
    for (const [x, tag] of [[72, 'L'], [318, 'R']] as const) p.paragraph(x, 72, 220, `${tag}top ${prose(50, tag === 'L' ? 3 : 4)}`);
    p.text(200, 300, 'Results across both columns', { size: 14, bold: true });
    for (const [x, tag] of [[72, 'L'], [318, 'R']] as const) p.paragraph(x, 330, 220, `${tag}bottom ${prose(50, tag === 'L' ? 5 : 6)}`);
    const doc = layoutDocument(input([p.build()]));
    expect(firstWords(doc)).toEqual(['Ltop', 'Rtop', 'Results', 'Lbottom', 'Rbottom']);
    expect(texts(doc)[2].category).toBe('Header');
  });

  it('reads three columns left to right', () => {
    const p = new PageBuilder();
    [[54, 'C1'], [226, 'C2'], [398, 'C3']].forEach(([x, tag], i) => {
      let y = 72;
      y = p.paragraph(x as number, y, 150, `${tag}a ${prose(30, i * 3 + 1)}`) + 10;
      p.paragraph(x as number, y, 150, `${tag}b ${prose(30, i * 3 + 2)}`);
    });
    const doc = layoutDocument(input([p.build()]));
    expect(firstWords(doc)).toEqual(['C1a', 'C1b', 'C2a', 'C2b', 'C3a', 'C3b']);
  });

  it('keeps a sidebar apart from the main text instead of interleaving lines', () => {
    const p = new PageBuilder();
    let y = 72;
    for (let i = 0; i < 4; i++) y = p.paragraph(40, y, 110, `Side${i} ${prose(12, 20 + i)}`, { size: 8 }) + 8;
    y = 72;
    for (let i = 0; i < 3; i++) y = p.paragraph(190, y, 370, `Main${i} ${prose(60, 30 + i)}`) + 10;
    const doc = layoutDocument(input([p.build()]));
    const order = firstWords(doc);
    expect(order).toEqual(['Side0', 'Side1', 'Side2', 'Side3', 'Main0', 'Main1', 'Main2']);
  });

  it('keeps a longer left column whole when it continues below the end of the right column', () => {
    const p = new PageBuilder();
    let y = 72;
    for (let i = 1; i <= 4; i++) y = p.paragraph(72, y, 220, `L${i} ${prose(40, i)}`) + 10;
    p.paragraph(318, 72, 220, `R1 ${prose(40, 9)}`);
    const doc = layoutDocument(input([p.build()]));
    expect(firstWords(doc)).toEqual(['L1', 'L2', 'L3', 'L4', 'R1']);
  });

  it('orders pages and numbers ids in reading order across them', () => {
    const a = new PageBuilder(1), b = new PageBuilder(2);
    a.paragraph(72, 72, 460, `First ${prose(20)}`);
    b.paragraph(72, 72, 460, `Second ${prose(20)}`);
    b.paragraph(72, 200, 460, `Third ${prose(20)}`);
    const doc = layoutDocument(input([a.build(), b.build()]));
    expect(doc.pages.map((pg) => pg.number)).toEqual([1, 2]);
    expect(texts(doc, 1).map((e) => [e.id, e.page, e.text.split(' ')[0]])).toEqual([['txt-2', 2, 'Second'], ['txt-3', 2, 'Third']]);
  });

  it('joins line-end hyphenation but keeps compounds before a capital or digit, and expands ligatures', () => {
    const p = new PageBuilder();
    p.text(72, 72, 'The docu-');
    p.text(72, 84.5, 'ment was ﬁled by Jean-');
    p.text(72, 97, 'Paul about COVID-');
    p.text(72, 109.5, '19 and the ﬂow.');
    const doc = layoutDocument(input([p.build()]));
    expect(texts(doc).map((e) => e.text)).toEqual(['The document was filed by Jean-Paul about COVID-19 and the flow.']);
    expect(doc.pages[0].words.map((w) => w.text)).toContain('filed');
  });

  it('keeps every word with its box and confidence, and averages word confidence per element', () => {
    const p = new PageBuilder(1, 612, 792, 'ocr');
    p.text(72, 72, 'alpha beta', { conf: 0.9 });
    p.text(72, 84.5, 'delta', { conf: 0.6 });
    p.text(102, 84.5, 'gamma', { conf: 0.6 });
    const doc = layoutDocument(input([p.build()]));
    expect(doc.pages[0].words).toHaveLength(4);
    expect(doc.pages[0].words[0]).toEqual({ text: 'alpha', box: p.words[0].box, confidence: 0.9 });
    const [el] = texts(doc);
    expect(el.text).toBe('alpha beta delta gamma');
    expect(el.confidence).toBeCloseTo(0.75, 3);
  });

  it('reads a right-to-left line right to left, gluing split runs but not a change of script', () => {
    const p = new PageBuilder();
    // left to right on the page: "." Python و R ن م كل — "من" arrives as two touching runs, and "Python"
    // touches "و" (bidi text often puts the space elsewhere)
    const at = (text: string, x0: number, x1: number, direction: 'rtl' | 'ltr') =>
      p.words.push({ text, box: p.box(x0, 100, x1, 110), fontSize: 10, confidence: 1, direction });
    at('.', 247.5, 252.5, 'ltr');
    at('Python', 252.5, 282.5, 'ltr');
    at('و', 282.5, 287.5, 'rtl');
    at('R', 290, 295, 'ltr');
    at('ن', 297.5, 302.5, 'rtl');
    at('م', 302.5, 307.5, 'rtl');
    at('كل', 310, 320, 'rtl');
    const doc = layoutDocument(input([p.build()]));
    expect(texts(doc).map((e) => e.text)).toEqual(['كل من R و Python.']);
  });

  it('emits a page that failed to read with its error and no elements', () => {
    const a = new PageBuilder(1), b = new PageBuilder(2);
    a.paragraph(72, 72, 460, `Fine ${prose(10)}`);
    b.text(72, 72, 'lost');
    b.error = { code: 'PROC_005', message: 'bad font' };
    const doc = layoutDocument(input([a.build(), b.build()]));
    expect(doc.pages[1]).toMatchObject({ number: 2, elements: [], words: [], error: { code: 'PROC_005', message: 'bad font' } });
    expect(doc.pages[0].elements).toHaveLength(1);
  });
});
