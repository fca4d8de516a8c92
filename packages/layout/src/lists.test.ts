import { layoutDocument } from '@quire/layout';
import type { TextElement } from '@quire/core';
import { input, PageBuilder, prose } from '../../../tests/fixtures/layout/builder.js';

const items = (p: PageBuilder) => (layoutDocument(input([p.build()])).pages[0].elements as TextElement[]);

describe('lists', () => {
  it('detects bullets, nests them by indentation and joins continuation lines into the item', () => {
    const p = new PageBuilder();
    p.paragraph(72, 60, 460, 'Things to know before starting:');
    p.text(72, 80, '• First item that wraps onto');
    p.text(82, 92.5, 'a second line');
    p.text(90, 105, '◦ Nested item');
    p.text(90, 117.5, '◦ Another nested');
    p.text(72, 130, '• Back to top');
    p.paragraph(72, 160, 460, prose(30));
    const els = items(p);
    expect(els.map((e) => e.category)).toEqual(['Text', 'List Items', 'List Items', 'List Items', 'List Items', 'Text']);
    expect(els.slice(1, 5).map((e) => [e.listDepth, e.listMarker, e.ordered, e.text])).toEqual([
      [0, '•', false, 'First item that wraps onto a second line'], [1, '◦', false, 'Nested item'],
      [1, '◦', false, 'Another nested'], [0, '•', false, 'Back to top'],
    ]);
  });

  it('detects ordered markers of several styles with nesting', () => {
    const p = new PageBuilder();
    const rows: [number, string][] = [[72, '1. Prepare the data'], [90, 'a) clean it'], [90, 'b) check it'], [72, '2) Run the model'],
      [90, '(i) first pass'], [90, 'ii. second pass'], [72, '(3) Report']];
    rows.forEach(([x, t], i) => p.text(x, 72 + i * 12.5, t));
    const els = items(p);
    expect(els.map((e) => [e.category, e.listDepth, e.listMarker, e.ordered, e.text])).toEqual([
      ['List Items', 0, '1.', true, 'Prepare the data'], ['List Items', 1, 'a)', true, 'clean it'], ['List Items', 1, 'b)', true, 'check it'],
      ['List Items', 0, '2)', true, 'Run the model'], ['List Items', 1, '(i)', true, 'first pass'], ['List Items', 1, 'ii.', true, 'second pass'],
      ['List Items', 0, '(3)', true, 'Report'],
    ]);
  });

  it('glues a bullet set apart by a tab to its text and handles dashes and asterisks', () => {
    const p = new PageBuilder();
    p.text(72, 72, '•');
    p.text(90, 72, 'Tabbed bullet item');
    p.text(72, 84.5, '•');
    p.text(90, 84.5, 'Second tabbed item');
    p.text(72, 97, '•');
    p.text(90, 97, 'Third tabbed item');
    p.text(72, 130, '- dash item');
    p.text(72, 142.5, '* star item');
    const els = items(p);
    expect(els.map((e) => [e.category, e.listMarker, e.text])).toEqual([
      ['List Items', '•', 'Tabbed bullet item'], ['List Items', '•', 'Second tabbed item'], ['List Items', '•', 'Third tabbed item'],
      ['List Items', '-', 'dash item'], ['List Items', '*', 'star item'],
    ]);
    expect(layoutDocument(input([p.build()])).pages[0].elements.some((e) => e.kind === 'table')).toBe(false);
  });

  it('reads private-use bullet glyphs (Symbol / Wingdings without Unicode) as markers, and a bold lead-in item is no heading', () => {
    const p = new PageBuilder();
    p.paragraph(72, 60, 460, 'Why customers choose the service:');
    p.text(72, 80, '\uF0B7');
    p.text(90, 80, 'Speed', { bold: true });
    p.text(72, 92.5, '\uF0B7');
    p.text(90, 92.5, 'Price', { bold: true });
    p.text(72, 105, '\uF0A7');
    p.text(130, 105, 'Support across a wide hanging indent');
    p.text(72, 117.5, '\uF0B7Glued to its word');
    p.paragraph(72, 150, 460, prose(30));
    const els = items(p);
    expect(els.map((e) => [e.category, e.listMarker ?? null, e.text])).toEqual([
      ['Text', null, 'Why customers choose the service:'],
      ['List Items', '•', 'Speed'], ['List Items', '•', 'Price'], ['List Items', '▪', 'Support across a wide hanging indent'],
      ['List Items', '•', 'Glued to its word'],
      ['Text', null, expect.any(String)],
    ]);
  });
});
