import type { RawWord } from '@quire/core';
import { fitScale, labelNumber } from './scale.js';

describe('labelNumber: tick labels as they are printed', () => {
  it.each([
    ['1,200', 1200], ['−5', -5], ['(3)', -3], ['12%', 12], ['$4.5', 4.5], ['1,000,000', 1e6],
    // decimal commas (European spreadsheets and reports); a comma before exactly three digits stays English
    ['0,5', 0.5], ['12,75', 12.75], ['1.250,5', 1250.5], ['-2,25', -2.25], ['12,5%', 12.5],
    // thousands grouped by (non-breaking, thin) spaces
    ['12\u00a0500', 12500], ['1\u202f000', 1000],
    // magnitude suffixes
    ['10K', 10_000], ['1.5M', 1_500_000], ['2bn', 2e9], ['€3,5 Mrd', 3.5e9], ['0k', 0],
    // scientific notation (a spreadsheet's "0.E+00" format)
    ['1.E+03', 1000], ['2.5E-2', 0.025], ['0.0E+00', 0],
  ])('%s → %d', (text, value) => {
    expect(labelNumber(text)).toBeCloseTo(value, 9);
  });

  it.each(['Q1', 'abc', '10%k', '1,2,3', '(5', 'E+03', ''])('%s is no number', (text) => {
    expect(labelNumber(text)).toBeNull();
  });
});

describe('fitScale over such labels', () => {
  const word = (text: string): RawWord => ({ text, box: { x0: 0, y0: 0, x1: 0.01, y1: 0.01 }, fontSize: 8, confidence: 1 });
  const axis = (texts: string[]) => fitScale(texts.map((t, i) => ({ at: 0.8 - i * 0.1, value: labelNumber(t)!, word: word(t) })), false);

  it('decimal-comma ticks make a linear scale that prints their decimals', () => {
    const s = axis(['0,0', '0,5', '1,0', '1,5', '2,0'])!;
    expect(s).toMatchObject({ kind: 'linear', decimals: 1, step: 0.5 });
  });

  it('suffixed ticks make a scale in full units', () => {
    const s = axis(['0', '10K', '20K', '30K'])!;
    expect(s).toMatchObject({ kind: 'linear', step: 10_000, decimals: 0 });
  });

  it('scientific ticks fit a log scale', () => {
    expect(axis(['1.E+00', '1.E+01', '1.E+02', '1.E+03'])).toMatchObject({ kind: 'log' });
  });
});
