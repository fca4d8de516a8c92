import { mergeReadings } from './merge-readings.js';
import type { TessLine, TessResult } from './ocr-worker.js';
import { readability } from './words.js';

/** A tesseract line at row `y` (30 px tall), its words laid left to right from `x` with confidences. */
function line(y: number, x: number, words: [string, number][]): TessLine {
  let cx = x;
  const ws = words.map(([text, confidence]) => {
    const w = { text, confidence, bbox: { x0: cx, y0: y, x1: cx + text.length * 12, y1: y + 30 } };
    cx = w.bbox.x1 + 12;
    return w;
  });
  return { bbox: { x0: x, y0: y, x1: cx - 12, y1: y + 30 }, words: ws };
}

const reading = (...lines: TessLine[]): TessResult => ({ blocks: [{ paragraphs: [{ lines }] }], confidence: 0, text: '' });
const texts = (r: TessResult) => r.text.split('\n');

describe('mergeReadings', () => {
  it('takes each printed line from the reading that read it better, and keeps lines only one reading found', () => {
    const first = reading(
      line(0, 10, [['SUNRISE', 90], ['TRADING', 91]]),
      line(50, 10, [['Total', 88], ['Amount:', 85], ['EY', 20], ['1', 25]]), // the amount read as noise
      line(100, 10, [['Cash', 92], ['101.00', 90]]),
    );
    const second = reading(
      line(0, 10, [['SUNR1SE', 60], ['TRAD', 55]]),
      line(50, 10, [['Total', 87], ['Amount:', 86], ['31.00', 88]]),
      line(150, 10, [['Change', 80], ['70.00', 82]]), // only this reading has it
    );
    const merged = mergeReadings(first, second);
    expect(texts(merged)).toEqual(['SUNRISE TRADING', 'Total Amount: 31.00', 'Cash 101.00', 'Change 70.00']);
    // it is a reading like any other: the orientation and word code read it the same way
    expect(readability(merged).letters).toBeGreaterThan(readability(first).letters);
  });

  it('replaces a line one reading split in two by the other reading\'s whole line, or keeps both halves', () => {
    const split = reading(line(0, 10, [['Total', 80], ['Sales', 80]]), line(2, 400, [['54.50', 40]]));
    const whole = reading(line(0, 10, [['Total', 85], ['Sales', 85], ['(Inclusive', 85], ['of', 85], ['GST)', 85], ['54.50', 90]]));
    expect(texts(mergeReadings(split, whole))).toEqual(['Total Sales (Inclusive of GST) 54.50']);
    const weak = reading(line(0, 10, [['Tota1', 35], ['Sa1es', 35], ['(lnclusive', 35], ['of', 35], ['GST)', 35], ['64.60', 35]]));
    expect(texts(mergeReadings(split, weak))).toEqual(['Total Sales', '54.50']);
  });

  it('prefers the first reading on a tie and returns an empty reading for two empty ones', () => {
    const a = reading(line(0, 10, [['Invoice', 90]])), b = reading(line(0, 10, [['lnvoice', 90]]));
    expect(texts(mergeReadings(a, b))).toEqual(['Invoice']);
    expect(mergeReadings(reading(), reading())).toEqual({ blocks: [{ paragraphs: [{ lines: [] }] }], confidence: 0, text: '' });
  });
});
