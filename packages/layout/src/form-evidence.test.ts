import type { RawPage, RawRect, RawWord } from '@quire/core';
import { formEvidence } from './form-evidence.js';

const rawPage = (over: Partial<RawPage>): RawPage => ({ number: 1, width: 612, height: 792, words: [], segments: [], rects: [], images: [], widgets: [], source: 'text-layer', ...over });
/** A box in points from the top-left, normalized. */
const box = (x: number, y: number, w: number, h: number) => ({ x0: x / 612, y0: y / 792, x1: (x + w) / 612, y1: (y + h) / 792 });
const stroked = (x: number, y: number, w: number, h: number, filled = false): RawRect => ({ box: box(x, y, w, h), stroked: true, filled });
const word = (text: string, x: number, y: number): RawWord => ({ text, box: box(x, y, 30, 10), fontSize: 10, confidence: 1 });

describe('formEvidence', () => {
  it('counts the widgets a user fills in, not push buttons', () => {
    const raw = rawPage({ widgets: [
      { fieldType: 'text', name: 'a', box: box(100, 100, 200, 20) }, { fieldType: 'checkbox', name: 'b', box: box(100, 140, 12, 12) },
      { fieldType: 'button', name: 'print', box: box(100, 180, 60, 20) },
    ] });
    expect(formEvidence(raw, []).fields).toBe(2);
  });
  it('counts drawn empty entry boxes, not boxes with printed words, filled cells, page frames or checkbox squares', () => {
    const rects = [stroked(100, 100, 200, 20), stroked(100, 140, 200, 20), stroked(100, 180, 200, 20), stroked(100, 220, 200, 20),
      stroked(100, 260, 200, 20, true), stroked(10, 10, 592, 772), stroked(100, 300, 12, 12)];
    const words = [word('Printed', 120, 225)];
    expect(formEvidence(rawPage({ rects }), words).boxes).toBe(3);
  });
});
