import type { Document, FigureElement } from '@quire/core';
import { describeFigures } from './figure-descriptions.js';

const fig = (over: Partial<FigureElement>): FigureElement => ({ kind: 'figure', page: 1, box: { x0: 0.1, y0: 0.1, x1: 0.5, y1: 0.5 }, visualType: 'image', text: '', ...over });
const doc = (els: FigureElement[]): Document => ({ format: 'pdf', pageCount: 1, pages: [{ number: 1, width: 612, height: 792, elements: els, words: [], selectionMarks: [] }], warnings: [] } as unknown as Document);
const png = { bytes: new Uint8Array([137, 80, 78, 71]), mime: 'image/png' as const, ext: 'png' as const };

describe('describeFigures', () => {
  it('without a model: caption and inner text, saying where the description comes from', async () => {
    const a = fig({ caption: 'Figure 3. Water use by month', text: 'Jan Feb Mar 10 20 30' });
    const none = fig({});
    await describeFigures(doc([a, none]));
    expect(a.extra?.description).toMatch(/^Described from the extracted caption and text \(no image model configured\)\./);
    expect(a.extra?.description).toContain('Caption: Figure 3. Water use by month');
    expect(a.extra?.description).toContain('Text in the image: Jan Feb Mar 10 20 30');
    expect(a.extra?.description_error).toBeUndefined();
    expect(none.extra?.description).toBeUndefined();
    expect(none.extra?.description_error).toMatch(/no image model is configured/);
  });

  it('office charts are described from their data', async () => {
    const c = fig({ visualType: 'chart', box: null, chart: { chartType: 'column', title: 'Ducks', sourceRanges: [], series: [
      { name: 'Fresh', categories: ['2019', '2020', '2021'], values: [1, 2, 3] }, { name: 'Salt', categories: ['2019', '2020', '2021'], values: [3, 2, 1] }] } });
    await describeFigures(doc([c]));
    expect(c.extra?.description).toContain('A column chart titled "Ducks" with 2 series (Fresh, Salt) over 3 categories (2019 to 2021).');
  });

  it('with a vision model: its answer; on failure the text description and description_error', async () => {
    const ok = fig({ caption: 'Figure 1' }), bad = fig({ caption: 'Figure 2' });
    const images = new Map([[ok, png], [bad, png]]);
    const seen: unknown[] = [];
    await describeFigures(doc([ok, bad]), {
      images,
      describe: async (req) => { seen.push(req.caption); if (req.caption === 'Figure 2') throw new Error('timeout'); return 'A bar chart of water use.'; },
    });
    expect(seen).toEqual(['Figure 1', 'Figure 2']);
    expect(ok.extra?.description).toBe('A bar chart of water use.');
    expect(bad.extra?.description).toMatch(/the image model gave none.*Caption: Figure 2/);
    expect(bad.extra?.description_error).toBe('The model could not describe the figure: timeout');
  });
});
