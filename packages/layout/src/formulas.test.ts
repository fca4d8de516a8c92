import { layoutDocument } from '@quire/layout';
import type { TextElement } from '@quire/core';
import { input, PageBuilder, prose } from '../../../tests/fixtures/layout/builder.js';

describe('formulas', () => {
  it('keeps math-dominated lines as Formulas and prose mentioning math as Text', () => {
    const p = new PageBuilder();
    p.paragraph(72, 72, 460, `We define ${prose(20)}`);
    p.text(200, 110, 'E = m c ^ 2', { italic: true });
    p.paragraph(72, 140, 460, 'The value x = 5 is used throughout the remaining chapters of this report.');
    p.text(200, 170, '∑ x i ≤ √ n');
    p.text(200, 200, 'α + β = γ');
    const els = layoutDocument(input([p.build()])).pages[0].elements as TextElement[];
    expect(els.map((e) => [e.category, e.text])).toEqual([
      ['Text', `We define ${prose(20)}`], ['Formulas', 'E = m c ^ 2'],
      ['Text', 'The value x = 5 is used throughout the remaining chapters of this report.'],
      ['Formulas', '∑ x i ≤ √ n'], ['Formulas', 'α + β = γ'],
    ]);
  });
});
