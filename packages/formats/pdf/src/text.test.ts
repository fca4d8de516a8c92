import { buildWords, type TextItemLike, type WordContext } from './text.js';
import { normalizeText } from './normalize.js';

const ctx = (over: Partial<WordContext> = {}): WordContext => ({
  viewport: [1, 0, 0, -1, 0, 100], // 100×100 page, y flipped to top-left
  pageWidth: 100,
  pageHeight: 100,
  styles: { f: { ascent: 0.8, descent: -0.2 } },
  font: () => ({ name: 'Helvetica', bold: false, italic: false }),
  ...over,
});
const item = (str: string, over: Partial<TextItemLike> = {}): TextItemLike =>
  ({ str, dir: 'ltr', transform: [10, 0, 0, 10, 10, 50], width: 60, height: 10, fontName: 'f', ...over });

describe('buildWords', () => {
  test('splits by whitespace with boxes in proportion to glyph widths', () => {
    const ws = buildWords([item('ii MM')], ctx());
    expect(ws.map((w) => w.text)).toEqual(['ii', 'MM']);
    // widths: i=222, space=278, M=833 → "ii" gets 444/2388 of 60pt
    expect(ws[0].box.x0).toBeCloseTo(0.1, 5);
    expect((ws[0].box.x1 - ws[0].box.x0) * 100).toBeCloseTo((444 / 2388) * 60, 3);
    expect(ws[1].box.x1).toBeCloseTo(0.7, 5);
    expect(ws[0].box.y0).toBeCloseTo(0.42, 5); // baseline 50 from the top, ascent 8
    expect(ws[0].box.y1).toBeCloseTo(0.52, 5);
    expect(ws.map((w) => !!w.endOfRun)).toEqual([false, true]);
  });

  test('RTL runs (logical order from pdf.js) are measured from the right end', () => {
    const ws = buildWords([item('אב גד', { dir: 'rtl' })], ctx());
    expect(ws.map((w) => w.text)).toEqual(['אב', 'גד']);
    expect(ws[0].direction).toBe('rtl');
    expect(ws[0].box.x1).toBeCloseTo(0.7, 5);
    expect(ws[1].box.x0).toBeCloseTo(0.1, 5);
    expect(ws[0].box.x0).toBeGreaterThan(ws[1].box.x1);
  });

  test('normalizes ligatures and strips soft hyphens and zero-width characters, keeps other Unicode', () => {
    const ws = buildWords([item('\uFB01ne e\uFB03cient hy\u00ADphen zero\u200Bwidth Łódź')], ctx());
    expect(ws.map((w) => w.text)).toEqual(['fine', 'efficient', 'hyphen', 'zerowidth', 'Łódź']);
    expect(normalizeText('\uFB00\uFB02\uFB04\uFB06')).toBe('ffflfflst');
    // Arabic lam-alef ligatures expand in logical order (lam first), presentation forms become letters
    expect(normalizeText('ا\uFEF9نتاجية')).toBe('الإنتاجية');
    expect(normalizeText('\uFE8D\uFEDF\uFE92')).toBe('البـ'.replace('ـ', ''));
  });

  test('text rotated by its transform gets the rotated box and a vertical direction', () => {
    // rotated 90° counter-clockwise in user space: advances up the page (y grows upward in PDF)
    const ws = buildWords([item('Up', { transform: [0, 10, -10, 0, 50, 20], width: 20 })], ctx());
    expect(ws[0].direction).toBe('btt');
    expect(ws[0].box.y1).toBeCloseTo(0.8, 5); // starts at y=20 from the bottom
    expect(ws[0].box.y0).toBeCloseTo(0.6, 5);
    expect(ws[0].box.x0).toBeCloseTo(0.42, 5); // ascent extends to the left of x=50
    expect(ws[0].box.x1).toBeCloseTo(0.52, 5);
  });

  test('vertical-writing runs advance downwards and are marked ttb', () => {
    const ws = buildWords([item('縦書き', { dir: 'ttb', width: 10, height: 30, transform: [10, 0, 0, 10, 50, 80] })], ctx());
    expect(ws[0].direction).toBe('ttb');
    expect(ws[0].box.y0).toBeCloseTo(0.2, 5);
    expect(ws[0].box.y1).toBeCloseTo(0.5, 5);
    expect(ws[0].box.x0).toBeCloseTo(0.45, 5);
  });

  test('bold/italic and font name come from the font lookup; empty runs make no words', () => {
    const ws = buildWords([item('   '), item('Bold', { fontName: 'b' })], ctx({ font: (n) => (n === 'b' ? { name: 'Arial-BoldItalic', bold: true, italic: true } : undefined) }));
    expect(ws).toHaveLength(1);
    expect(ws[0]).toMatchObject({ text: 'Bold', fontName: 'Arial-BoldItalic', bold: true, italic: true, fontSize: 10, confidence: 1 });
  });
});
