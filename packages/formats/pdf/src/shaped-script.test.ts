import { readPdf } from './index.js';
import { normalizeText } from './normalize.js';
import { makeShapedScriptPdf } from '../../../../tests/fixtures/pdf/shaped-script.js';

describe('shaped scripts from a font whose ToUnicode has empty entries (Chrome/Skia PDFs)', () => {
  let lines: string[][];
  beforeAll(async () => {
    const { pages } = await readPdf(await makeShapedScriptPdf());
    const byLine = new Map<number, string[]>();
    for (const w of pages[0].words) {
      const key = Math.round(w.box.y0 * 100);
      byLine.set(key, [...(byLine.get(key) ?? []), w.text]);
    }
    lines = [...byLine.entries()].sort((a, b) => a[0] - b[0]).map(([, ws]) => ws);
  }, 60_000);

  it('reads an explicitly empty mapping as no text, not as the glyph code turned into a letter', () => {
    // drawn left to right as ب, (empty), ت, ا: read right to left
    expect(lines[0]).toEqual(['اتب']);
    expect(lines[1]).toEqual([normalizeText('किल')]);
    expect(lines.flat().join(' ')).not.toMatch(/[DG]/);
  });

  it('parts words at a space inside a glyph\'s mapping', () => {
    expect(lines[2]).toEqual(['xof', 'thex']);
  });
});
