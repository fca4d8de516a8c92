// Reliability of stated confidences: does an answer given with confidence 0.8 turn out right 8 times in 10?

/** Bin edges of stated confidence: fifths of [0, 1] (the last bin includes 1). */
export const CONFIDENCE_BINS = [0, 0.2, 0.4, 0.6, 0.8, 1];

/**
 * `answers`: [{ confidence in [0, 1], correct: boolean }]. Per bin of stated confidence: how many answers
 * (n), their mean confidence and their observed accuracy (null for an empty bin); `ece`, the expected
 * calibration error, is the answer-weighted mean gap between confidence and accuracy over the bins (null
 * without answers).
 */
export function reliability(answers, edges = CONFIDENCE_BINS) {
  const bins = edges.slice(0, -1).map((lo, i) => {
    const hi = edges[i + 1];
    const last = i === edges.length - 2;
    const inBin = answers.filter((a) => a.confidence >= lo && (a.confidence < hi || (last && a.confidence <= hi)));
    const n = inBin.length;
    return { lo, hi, n, confidence: n ? inBin.reduce((s, a) => s + a.confidence, 0) / n : null, accuracy: n ? inBin.filter((a) => a.correct).length / n : null };
  });
  const total = answers.length;
  const ece = total ? bins.reduce((s, b) => s + (b.n ? (b.n / total) * Math.abs(b.accuracy - b.confidence) : 0), 0) : null;
  return { bins, ece };
}

/** The table as lines of text: one per bin, then the expected calibration error. */
export function reliabilityLines({ bins, ece }) {
  return [
    ...bins.map((b) => `[${b.lo.toFixed(1)}, ${b.hi.toFixed(1)}${b.hi === 1 ? ']' : ')'}  n=${String(b.n).padStart(3)}  confidence ${b.confidence?.toFixed(3) ?? '  -  '}  accuracy ${b.accuracy?.toFixed(3) ?? '  -  '}`),
    `expected calibration error ${ece?.toFixed(3) ?? 'n/a'}`,
  ];
}
