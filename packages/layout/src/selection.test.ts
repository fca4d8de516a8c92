import { layoutDocument } from '@quire/layout';
import type { TextElement } from '@quire/core';
import { input, PageBuilder } from '../../../tests/fixtures/layout/builder.js';

const run = (p: PageBuilder, detectSelections = true) => layoutDocument(input([p.build()]), { detectSelections }).pages[0];
const labels = (els: unknown[]) => (els as TextElement[]).map((e) => [e.text, e.selected]);

describe('selection marks', () => {
  it('reads checkbox glyphs as marks, labels next to them as separate selected/unselected elements', () => {
    const p = new PageBuilder();
    p.text(72, 72, 'Smoker?');
    p.text(72, 90, '☐ Yes ☒ No');
    p.text(72, 108, '☑Maybe');
    const page = run(p);
    expect(page.selectionMarks.map((m) => m.state)).toEqual(['unselected', 'selected', 'selected']);
    expect(labels(page.elements)).toEqual([['Smoker?', undefined], ['Yes', false], ['No', true], ['Maybe', true]]);
    expect(page.words.map((w) => w.text)).toContain('☐');
  });

  it('reads AcroForm checkbox widgets and small drawn squares, ticked or not', () => {
    const p = new PageBuilder();
    p.widget('checkbox', 72, 70, 10, 10, true);
    p.text(86, 70, 'Email me');
    p.rect(72, 100, 10, 10, { stroked: true });
    p.text(86, 100, 'Call me');
    p.rect(72, 130, 10, 10, { stroked: true });
    p.text(73, 130, '✓', { size: 9 });
    p.text(86, 130, 'Write me');
    p.widget('radio', 200, 160, 10, 10, false);
    p.text(214, 160, 'Never');
    const page = run(p);
    expect(page.selectionMarks.map((m) => m.state)).toEqual(['selected', 'unselected', 'unselected', 'selected']);
    expect(page.selectionMarks[0].confidence).toBeGreaterThan(0.95);
    expect(labels(page.elements)).toEqual([['Email me', true], ['Call me', false], ['Write me', true], ['Never', false]]);
  });

  it('treats filled and hollow circles as a radio group only when both appear; a lone ● is a bullet', () => {
    const radio = new PageBuilder();
    radio.text(72, 72, '● Daily ○ Weekly');
    expect(labels(run(radio).elements)).toEqual([['Daily', true], ['Weekly', false]]);
    const bullets = new PageBuilder();
    bullets.text(72, 72, '● Apples');
    bullets.text(72, 84.5, '● Pears');
    const page = run(bullets);
    expect(page.selectionMarks).toHaveLength(0);
    expect((page.elements as TextElement[]).map((e) => [e.category, e.text])).toEqual([['List Items', 'Apples'], ['List Items', 'Pears']]);
  });

  it('leaves marks and selected out unless asked, but never leaves glyphs in the text', () => {
    const p = new PageBuilder();
    p.text(72, 72, '☐ Yes ☒ No');
    const page = run(p, false);
    expect(page.selectionMarks).toEqual([]);
    expect(labels(page.elements)).toEqual([['Yes', undefined], ['No', undefined]]);
  });
});
