import { layoutDocument } from '@quire/layout';
import type { TextElement } from '@quire/core';
import { input, PageBuilder, prose } from '../../../tests/fixtures/layout/builder.js';

function page() {
  const p = new PageBuilder();
  let x = p.text(72, 72, 'Layout is hard');
  p.text(x + 1, 72, '1', { size: 6, rise: 3 });
  p.text(x + 6, 72, 'and then some more words follow here.');
  p.paragraph(72, 100, 460, prose(60, 3));
  x = p.text(72, 200, 'Ordering matters');
  p.text(x + 1, 200, '2', { size: 6, rise: 3 });
  p.text(x + 6, 200, 'as well.');
  p.paragraph(72, 240, 460, prose(60, 5));
  p.text(72, 700, '1 Hard in the sense of many heuristics.', { size: 8 });
  p.text(72, 712, '2 Reading order, that is.', { size: 8 });
  return p.build();
}

describe('footnotes', () => {
  it('ties superscript references to the small-font footnote lines that start with their symbol', () => {
    const doc = layoutDocument(input([page()]), { footnoteReferences: true });
    const els = doc.pages[0].elements as TextElement[];
    const byStart = (s: string) => els.find((e) => e.text.startsWith(s))!;
    expect(doc.footnotes).toEqual([
      { symbol: '1', footnoteTextId: byStart('1 Hard').id, referenceTextIds: [byStart('Layout is hard').id] },
      { symbol: '2', footnoteTextId: byStart('2 Reading').id, referenceTextIds: [byStart('Ordering').id] },
    ]);
    expect(byStart('1 Hard')).toMatchObject({ category: 'Footer', extra: { footnote: true, symbol: '1' } });
    expect(byStart('Layout is hard').category).toBe('Text');
  });

  it('leaves doc.footnotes out unless asked', () => {
    expect(layoutDocument(input([page()])).footnotes).toBeUndefined();
  });
});
