import { rotateBoxQuarter, inverseQuarterTurn, type RawPage, type RawWord } from '@quire/core';
import { sidewaysRegions, sidewaysTurn } from './orientation.js';
import { PDFDocument, StandardFonts, degrees } from 'pdf-lib';
import { extractDocument, layoutPages } from './pipeline.js';

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
  it('turns a page whose text mostly runs down (270°) or up (90°) the page, or upside down (180°)', () => {
    expect(sidewaysTurn(page(['ttb', 'ttb', 'ttb', 'ltr']))).toBe(270);
    expect(sidewaysTurn(page(['btt', 'btt', 'btt', 'ltr']))).toBe(90);
    expect(sidewaysTurn(page(['inverted', 'inverted', 'inverted', 'ltr']))).toBe(180);
  });
  it('leaves an upright page with a few turned labels (a chart axis title) and OCR pages alone', () => {
    expect(sidewaysTurn(page(['ltr', 'ltr', 'ltr', 'btt']))).toBeUndefined();
    expect(sidewaysTurn({ ...page(['ttb', 'ttb']), source: 'ocr' })).toBeUndefined();
  });
});

describe('blocks of sideways text on an upright page', () => {
  const W = 612, H = 792;
  /** A word running up (btt) or down (ttb) the page: 11 pt wide across, 6 pt per character along. */
  const side = (text: string, x: number, y: number, direction: 'ttb' | 'btt'): RawWord =>
    ({ text, box: { x0: x, y0: y, x1: x + 11 / W, y1: y + (text.length * 6) / H }, fontSize: 11, confidence: 1, direction });
  /** Lines of sideways words side by side (one line per x), each line three words along the page from y. */
  const block = (xs: number[], y: number, direction: 'ttb' | 'btt') =>
    xs.flatMap((x, i) => ['cell', `row${i}`, '1,234'].map((t, k) => side(t, x, y + (k * 60) / H, direction)));
  const upright = (text: string, y: number): RawWord => ({ ...word(text, 0.1, y), direction: 'ltr' });
  const pageOf = (words: RawWord[], segments: RawPage['segments'] = []): RawPage =>
    ({ number: 1, width: W, height: H, words, segments, rects: [], images: [], widgets: [], source: 'text-layer' });
  const lines = [0.4, 0.44, 0.48];

  it.each(['ttb', 'btt'] as const)('a block apart from the upright text is a region turned upright (%s)', (dir) => {
    const table = block(lines, 0.3, dir);
    const p = pageOf([upright('Heading', 0.1), ...table, upright('After', 0.8)], [{ x0: 0.38, y0: 0.29, x1: 0.38, y1: 0.5, width: 0.001 }]);
    const { rest, regions } = sidewaysRegions(p);
    expect(regions).toHaveLength(1);
    expect(regions[0].turn).toBe(dir === 'ttb' ? 270 : 90);
    expect(rest.words.map((w) => w.text)).toEqual(['Heading', 'After']);
    expect(rest.segments).toHaveLength(0);
    // in the region's frame the words read left to right, and its boxes map back onto the page
    expect(regions[0].raw.words.every((w) => w.direction === 'ltr')).toBe(true);
    expect(regions[0].raw.segments).toHaveLength(1);
    const b = regions[0].toPage(regions[0].raw.words[0].box);
    for (const k of ['x0', 'y0', 'x1', 'y1'] as const) expect(b[k]).toBeCloseTo(table[0].box[k], 6);
  });

  it('leaves sideways column headers sitting on an upright table body alone', () => {
    const headers = block(lines, 0.3, 'btt');
    const bottom = Math.max(...headers.map((w) => w.box.y1));
    const body = [0, 1, 2].map((i) => upright(`${i}00`, bottom + (2 + i * 14) / H)).map((w, i) => ({ ...w, box: { ...w.box, x0: lines[i], x1: lines[i] + 0.03 } }));
    expect(sidewaysRegions(pageOf([upright('Heading', 0.1), ...headers, ...body])).regions).toEqual([]);
  });

  it('leaves a single sideways line (an axis title), mostly upright boxes and grids running on outside alone', () => {
    expect(sidewaysRegions(pageOf([upright('Heading', 0.1), ...block([0.4], 0.3, 'ttb')])).regions).toEqual([]);
    const crossing = { x0: 0.3, y0: 0.35, x1: 0.7, y1: 0.35, width: 0.001 };
    expect(sidewaysRegions(pageOf(block(lines, 0.3, 'ttb'), [crossing])).regions).toEqual([]);
    const inside = Array.from({ length: 12 }, (_, i) => ({ ...word('upright', 0.41, 0.31 + i * 0.01), direction: 'ltr' as const }));
    expect(sidewaysRegions(pageOf([...block(lines, 0.3, 'ttb'), ...inside])).regions).toEqual([]);
    expect(sidewaysRegions({ ...pageOf(block(lines, 0.3, 'ttb')), source: 'ocr' }).regions).toEqual([]);
  });
});

describe('upside-down text-layer pages', () => {
  const LINES = ['First line of the page', 'Second line follows here', 'Third and last line'];
  /** The three lines upside down: the page turned by /Rotate 180, or each line drawn with a half-turned matrix. */
  async function upsideDown(how: 'rotate' | 'matrix'): Promise<Uint8Array> {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([612, 792]);
    if (how === 'rotate') {
      page.setRotation(degrees(180));
      LINES.forEach((l, i) => page.drawText(l, { x: 72, y: 700 - i * 20, size: 12, font }));
    } else {
      LINES.forEach((l, i) => page.drawText(l, { x: 540, y: 92 + i * 20, size: 12, font, rotate: degrees(180) }));
    }
    return new Uint8Array(await doc.save());
  }

  it.each(['rotate', 'matrix'] as const)('reads lines and words in order (%s), with boxes on the page as displayed', async (how) => {
    const doc = await extractDocument(await upsideDown(how), 'pdf');
    const text = doc.pages[0].elements.map((e) => (e.kind === 'text' ? e.text : '')).join('\n');
    expect(text.replace(/\s+/g, ' ')).toBe(LINES.join(' '));
    expect(doc.pages[0].extra?.text_rotation_corrected).toBe(180);
    // the first line is drawn upside down near the bottom of the displayed page, its first word at the right
    const first = doc.pages[0].words.find((w) => w.text === 'First')!;
    expect(first.box.y0).toBeGreaterThan(0.8);
    expect(first.box.x0).toBeGreaterThan(0.75);
  });
});
