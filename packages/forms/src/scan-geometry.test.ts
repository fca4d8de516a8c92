import type { RawPage } from '@quire/core';
import { wordsBesideSquares } from './scan-geometry.js';

// A checkbox square at x 100..110 (pt) and words OCR read over its right edge.
const square = { box: { x0: 100, y0: 200, x1: 110, y1: 210 }, stroked: true } as unknown as RawPage['rects'][number];
const word = (text: string, x0: number, x1: number) =>
  ({ text, box: { x0, y0: 199, x1, y1: 211 }, confidence: 0.3 }) as unknown as RawPage['words'][number];

describe('wordsBesideSquares', () => {
  test.each([
    ['[No', 'No'],
    ['JPhone', 'Phone'],
    ['ONo', 'No'],
    ['DYes', 'Yes'],
  ])('the square read into the word (%s) is cut off: %s', (read, option) => {
    const [w] = wordsBesideSquares([word(read, 101, 130)], [square]);
    expect(w!.text).toBe(option);
    expect(w!.box.x0).toBeGreaterThanOrEqual(110);
    expect(w!.confidence).toBeGreaterThanOrEqual(0.6);
  });

  test('a word that starts beside the square, or a tick inside it, is left as read', () => {
    const beside = word('Options', 112, 140);
    const tick = word('X', 102, 108);
    expect(wordsBesideSquares([beside, tick], [square])).toEqual([beside, tick]);
  });

  test('a lower-case continuation is not an edge glyph ("Options" read from the square edge)', () => {
    const [w] = wordsBesideSquares([word('Options', 101, 140)], [square]);
    expect(w!.text).toBe('Options');
  });
});
