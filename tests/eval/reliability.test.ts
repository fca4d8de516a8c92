// @ts-expect-error -- plain ESM script helper without type declarations
import { reliability } from '../../scripts/lib/reliability.mjs';

describe('reliability table', () => {
  it('bins answers by stated confidence and weighs the gap to observed accuracy', () => {
    const answers = [
      { confidence: 0.9, correct: true }, { confidence: 0.95, correct: true }, { confidence: 1, correct: false }, { confidence: 0.85, correct: true },
      { confidence: 0.3, correct: false }, { confidence: 0.25, correct: true },
    ];
    const { bins, ece } = reliability(answers);
    expect(bins.map((b: { n: number }) => b.n)).toEqual([0, 2, 0, 0, 4]);
    expect(bins[4].accuracy).toBeCloseTo(0.75);
    expect(bins[4].confidence).toBeCloseTo(0.925);
    expect(bins[1].accuracy).toBeCloseTo(0.5);
    // (4/6)·|0.75 − 0.925| + (2/6)·|0.5 − 0.275|
    expect(ece).toBeCloseTo((4 / 6) * 0.175 + (2 / 6) * 0.225);
  });
  it('a confident wrong answer is a large error; no answers, no figure', () => {
    expect(reliability([{ confidence: 0.7, correct: false }]).ece).toBeCloseTo(0.7);
    expect(reliability([]).ece).toBeNull();
  });
});
