import { teds, tableFromSlots, tableFromTexts } from '../../scripts/lib/teds.mjs';

const grid = (rows: string[][]) => tableFromTexts(rows);

describe('TEDS', () => {
  it('is 1 for identical tables and ignores dash and whitespace differences in cell text', () => {
    const t = grid([['Year', 'Value'], ['2020', '1–2'], ['2021', 'a  b']]);
    expect(teds(t, t)).toBe(1);
    expect(teds(grid([['Year', 'Value'], ['2020', '1-2'], ['2021', 'a b']]), t)).toBe(1);
  });

  it('charges a missing row by its nodes: one tr and its cells over the larger tree', () => {
    const truth = grid([['a', 'b'], ['c', 'd'], ['e', 'f']]); // 1 + 3 tr + 6 td = 10 nodes
    const predicted = grid([['a', 'b'], ['c', 'd']]);
    expect(teds(predicted, truth)).toBeCloseTo(1 - 3 / 10, 10);
  });

  it('charges a wrong span fully and a wrong text by its normalized edit distance; structure-only ignores text', () => {
    const truth = [[{ text: 'Group', colSpan: 2 }], [{ text: 'x' }, { text: 'abcd' }]]; // 1 + 2 + 3 = 6 nodes
    const lostSpan = [[{ text: 'Group' }, { text: '' }], [{ text: 'x' }, { text: 'abcd' }]]; // 7 nodes
    // best script: relabel the header cell (span differs, 1) and insert the empty cell (1), over 7 nodes
    expect(teds(lostSpan, truth)).toBeCloseTo(1 - 2 / 7, 10);
    const typo = [[{ text: 'Group', colSpan: 2 }], [{ text: 'x' }, { text: 'abxd' }]];
    expect(teds(typo, truth)).toBeCloseTo(1 - 0.25 / 6, 10);
    expect(teds(typo, truth, { withText: false })).toBe(1);
  });

  it('turns a slot grid into HTML rows: a spanning cell once, at its top-left slot', () => {
    const slots = [[1, 1, 2], [3, 4, 2], [null, 5, 5]];
    const text = new Map([[1, 'h'], [2, 'tall'], [3, 'a'], [4, 'b'], [5, 'wide']]);
    expect(tableFromSlots(slots, (id) => text.get(id)!)).toEqual([
      [{ text: 'h', colSpan: 2, rowSpan: 1 }, { text: 'tall', colSpan: 1, rowSpan: 2 }],
      [{ text: 'a', colSpan: 1, rowSpan: 1 }, { text: 'b', colSpan: 1, rowSpan: 1 }],
      [{ text: '' }, { text: 'wide', colSpan: 2, rowSpan: 1 }],
    ]);
  });
});
