import { flatCells } from './flat-detect.js';
import { buildPhrases, nearestLabel, type PtWord } from './labels.js';
import type { DetectedCell, PageGeometry } from './types.js';

// Synthetic page geometry in points on a Letter page (the shapes pdf.js or OCR would give).
const W = 612, H = 792;
type Seg = [number, number, number, number];
function page(words: [string, number, number, number?][], segs: Seg[] = [], squares: Seg[] = []): PageGeometry {
  const fs = 10;
  return {
    width: W, height: H,
    words: words.map(([text, x, y, size = fs]) => ({
      text, fontSize: size, confidence: 1,
      // a word's box: advance ≈ 0.5 em per character, baseline at y
      box: { x0: x / W, y0: (y - 0.9 * size) / H, x1: (x + 0.5 * size * text.length) / W, y1: (y + 0.22 * size) / H },
    })),
    segments: [...segs, ...squares.flatMap(([x0, y0, x1, y1]): Seg[] => [[x0, y0, x1, y0], [x0, y1, x1, y1], [x0, y0, x0, y1], [x1, y0, x1, y1]])]
      .map(([x0, y0, x1, y1]) => ({ x0: x0 / W, y0: y0 / H, x1: x1 / W, y1: y1 / H, width: 0.5 / H })),
    rects: [], marks: [],
  };
}
const box = (r: [number, number, number, number]) => r.map((v, i) => Math.round(v * (i % 2 ? H : W)));
const brief = (cells: DetectedCell[]) => cells.map((c) => ({ type: c.type, shape: c.source.kind === 'drawn' ? c.source.shape : '', label: c.label }));

describe('labels', () => {
  test('a label far left of its line (a column of labels) is still its label; the next cell on the row blocks it', () => {
    // "City:" ends ~85 pt before the line, as in a form whose lines all start at one x
    const g = page([['Full', 72, 100], ['name:', 95, 100], ['City:', 72, 130], ['Zip:', 420, 130]],
      [[180, 102, 400, 102], [180, 132, 400, 132], [440, 132, 540, 132]]);
    const cells = flatCells(1, g, 0).cells;
    expect(brief(cells)).toEqual([
      { type: 'text', shape: 'underline', label: 'Full name' },
      { type: 'text', shape: 'underline', label: 'City' },
      { type: 'text', shape: 'underline', label: 'Zip' },
    ]);
  });

  test('nearest text on the row to the left, then above; never across another cell', () => {
    const words: PtWord[] = [
      { text: 'Amount', fontSize: 10, box: { x0: 40, y0: 91, x1: 80, y1: 102 } },
      { text: 'Notes', fontSize: 10, box: { x0: 200, y0: 65, x1: 230, y1: 76 } },
    ];
    const phrases = buildPhrases(words);
    const cell = { x0: 200, y0: 90, x1: 300, y1: 104 };
    // a left label 120 pt away still wins over text a line above (a long gap weighs little more than a short one)
    expect(nearestLabel(cell, phrases)).toBe('Amount');
    // with another cell between them, the row's label belongs to that cell: the text above is next
    expect(nearestLabel(cell, phrases, { blockers: [{ x0: 90, y0: 90, x1: 180, y1: 104 }] })).toBe('Notes');
  });

  test('lines of a dense paragraph stay apart (a tall glyph does not chain them) and leader arrows end a label', () => {
    const w = (text: string, x0: number, y0: number, h = 8): PtWord => ({ text, fontSize: 7, box: { x0, y0, x1: x0 + 4 * text.length, y1: y0 + h } });
    const phrases = buildPhrases([w('Limited', 80, 184), w('liability', 112, 184), w('▶', 150, 183, 10), w('Note', 80, 194), w('check', 102, 194)]);
    expect(phrases.map((p) => p.text)).toEqual(['Limited liability ▶', 'Note check']);
    expect(nearestLabel({ x0: 170, y0: 182, x1: 260, y1: 192 }, phrases)).toBe('Limited liability');
  });
});

describe('drawn cells', () => {
  test('rows open at the margin (two rules ending together, a wall on one side only) are boxes with their printed label', () => {
    // IRS style: a left rule, horizontal rules to the margin, no right wall; labels in the top-left corners
    const g = page([['1', 62, 95, 7], ['Name', 70, 95, 7], ['2', 62, 119, 7], ['Business', 70, 119, 7], ['name', 105, 119, 7]],
      [[57, 84, 576, 84], [57, 108, 576, 108], [57, 132, 576, 132], [57, 84, 57, 132]]);
    const cells = flatCells(1, g, 0).cells;
    expect(brief(cells)).toEqual([{ type: 'text', shape: 'box', label: '1 Name' }, { type: 'text', shape: 'box', label: '2 Business name' }]);
    // the value area is below the label, to the margin
    expect(box(cells[0].bounding_box)).toEqual([57, 97, 576, 108]);
  });

  test('a rule-less space after an arrow leader is a cell, up to the next text or rule', () => {
    const g = page([['Other', 80, 236, 7], ['(see', 100, 236, 7], ['instructions)', 116, 236, 7], ['▶', 162, 236, 7]], [[454, 200, 454, 250]]);
    const cells = flatCells(1, g, 0).cells;
    expect(brief(cells)).toEqual([{ type: 'text', shape: 'leader', label: 'Other (see instructions)' }]);
    // from just after the arrow (its box ends at 165.5) to just before the rule
    const [x0, , x1] = box(cells[0].bounding_box);
    expect([x0, x1]).toEqual([167, 452]);
  });

  test('comb boxes split by a dash are separate parts of one value, sharing the label', () => {
    const comb = (x: number, n: number): Seg[] => [[x, 336, x + 14 * n, 336], [x, 360, x + 14 * n, 360], ...Array.from({ length: n + 1 }, (_, k): Seg => [x + 14 * k, 336, x + 14 * k, 360])];
    const g = page([['Social', 418, 332, 7], ['security', 442, 332, 7], ['number', 475, 332, 7], ['–', 464, 350]], [...comb(418, 3), ...comb(474, 2)]);
    const cells = flatCells(1, g, 0).cells;
    expect(cells.map((c) => [c.label, c.maxLength])).toEqual([['Social security number (part 1 of 2)', 3], ['Social security number (part 2 of 2)', 2]]);
  });

  test('a panel around other cells and a caption box with no room for a value are not fields', () => {
    const g = page([['4', 458, 142, 7], ['Exemptions', 464, 142, 7], ['Exempt', 458, 178, 7], ['code', 484, 178, 7], ['Sign', 40, 550], ['Here', 40, 560]],
      [[454, 132, 576, 132], [454, 240, 576, 240], [454, 132, 454, 240], [576, 132, 576, 240], [510, 180, 570, 180],
        [36, 540, 72, 540], [36, 564, 72, 564], [36, 540, 36, 564], [72, 540, 72, 564]]);
    expect(brief(flatCells(1, g, 0).cells)).toEqual([{ type: 'text', shape: 'underline', label: 'Exempt code' }]);
  });

  test('a stroked square drawn as one rectangle (a scan square that lost an edge) is a checkbox; a letter counter is not', () => {
    const g = page([['Renewal?', 72, 400], ['No', 214, 400], ['Application', 200, 100, 16]]);
    g.rects.push(
      { box: { x0: 200 / W, y0: 391 / H, x1: 210 / W, y1: 401 / H }, filled: false, stroked: true },
      // inside "Application" (x 200..288): a closed loop of a letter that the raster found
      { box: { x0: 250 / W, y0: 90 / H, x1: 257 / W, y1: 97 / H }, filled: false, stroked: true },
    );
    expect(brief(flatCells(1, g, 0).cells)).toEqual([{ type: 'checkbox', shape: 'square', label: 'No' }]);
  });
});
