import { rotateBoxQuarter, inverseQuarterTurn, type RawPage, type RawWord } from '@quire/core';
import { sidewaysTurn } from './orientation.js';
import { layoutPages } from './pipeline.js';

const word = (text: string, x0: number, y0: number): RawWord => ({ text, box: { x0, y0, x1: x0 + text.length * 0.009, y1: y0 + 0.014 }, fontSize: 11, confidence: 0.9 });

/** Two upright lines of body text on a portrait page. */
function uprightPage(): RawPage {
  const words: RawWord[] = [];
  ['alpha beta gamma delta', 'epsilon zeta eta theta'].forEach((line, li) => {
    let x = 0.1;
    for (const w of line.split(' ')) { words.push(word(w, x, 0.2 + li * 0.018)); x += w.length * 0.009 + 0.005; }
  });
  return { number: 1, width: 612, height: 792, words, segments: [], rects: [], images: [], widgets: [], source: 'ocr' };
}

const texts = (doc: ReturnType<typeof layoutPages>) => doc.pages[0].elements.map((e) => (e.kind === 'text' ? e.text : '')).join(' ');

describe('OCR-rotated pages', () => {
  it.each([90, 180, 270] as const)('a scan turned so OCR corrected it by %i° reads like the upright page, with boxes on the page as sent', (turn) => {
    const upright = layoutPages({ format: 'png', pageCount: 1, pages: [uprightPage()] }, {});
    // The page as the user sent it: the upright page turned back by the correction.
    const sent = uprightPage();
    const undo = inverseQuarterTurn(turn);
    sent.words = sent.words.map((w) => ({ ...w, box: rotateBoxQuarter(w.box, undo) }));
    if (turn !== 180) [sent.width, sent.height] = [sent.height, sent.width];
    sent.correctedRotation = turn;
    const doc = layoutPages({ format: 'png', pageCount: 1, pages: [sent] }, {});
    expect(texts(doc)).toBe(texts(upright));
    expect(texts(doc)).toContain('alpha beta gamma delta');
    const box = doc.pages[0].elements[0].box!;
    const expected = rotateBoxQuarter(upright.pages[0].elements[0].box!, undo);
    for (const k of ['x0', 'y0', 'x1', 'y1'] as const) expect(box[k]).toBeCloseTo(expected[k], 5);
    expect([doc.pages[0].width, doc.pages[0].height]).toEqual([sent.width, sent.height]);
    expect(doc.pages[0].words[0].box.x0).toBeCloseTo(sent.words[0].box.x0, 5);
  });
});

describe('text-layer pages set sideways', () => {
  const page = (dirs: RawWord['direction'][]): RawPage => ({
    number: 1, width: 612, height: 792, segments: [], rects: [], images: [], widgets: [], source: 'text-layer',
    words: dirs.map((direction, i) => ({ ...word(`word${i}`, 0.1, 0.1 + i * 0.02), direction })),
  });
  it('turns a page whose text mostly runs down (270°) or up (90°) the page', () => {
    expect(sidewaysTurn(page(['ttb', 'ttb', 'ttb', 'ltr']))).toBe(270);
    expect(sidewaysTurn(page(['btt', 'btt', 'btt', 'ltr']))).toBe(90);
  });
  it('leaves an upright page with a few turned labels (a chart axis title) and OCR pages alone', () => {
    expect(sidewaysTurn(page(['ltr', 'ltr', 'ltr', 'btt']))).toBeUndefined();
    expect(sidewaysTurn({ ...page(['ttb', 'ttb']), source: 'ocr' })).toBeUndefined();
  });
});
