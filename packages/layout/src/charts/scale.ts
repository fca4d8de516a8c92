import type { RawWord } from '@quire/core';

/** Magnitude suffixes of tick labels ("10K", "1.5M", "2bn", "300 Mio"), by the letters after the number. */
const SUFFIX: Record<string, number> = { k: 1e3, m: 1e6, mn: 1e6, mio: 1e6, b: 1e9, bn: 1e9, mrd: 1e9, t: 1e12, tn: 1e12 };

/**
 * A tick label read as a number: "1,200", "−5", "(3)", "12%", "$4.5", and as tick labels are printed
 * outside English-language spreadsheets and reports: a decimal comma ("0,5", "1.250,75"; a comma
 * followed by exactly three digits stays a thousands separator, "1,000"), thin or non-breaking spaces
 * between thousands ("12 500"), a magnitude suffix ("10K", "1.5M", "2bn") and scientific notation
 * ("1.E+03", "2.5E-2").
 */
export function labelNumber(text: string): number | null {
  let t = text.trim().replace(/[−–]/g, '-').replace(/[$€£¥\s\u00a0\u202f]/g, '');
  let scale = 1;
  const suffix = /^(.*\d)(k|m|mn|mio|b|bn|mrd|t|tn)$/i.exec(t);
  if (suffix) { t = suffix[1]; scale = SUFFIX[suffix[2].toLowerCase()]; }
  const sci = /^(-?\d+(?:[.,]\d*)?)E([-+]?\d+)$/i.exec(t);
  if (sci) {
    const v = Number(`${sci[1].replace(',', '.')}e${sci[2]}`) * scale;
    return Number.isFinite(v) ? v : null;
  }
  // a decimal comma: "0,5", "12,75", "1.250,5" (dots then group thousands); "1,000" and "1,000,000" stay English
  const decimalComma = /^(\(?-?\+?)(\d{1,3}(?:\.\d{3})+|\d+),(\d{1,2}|\d{4,})(%?\)?)$/.exec(t);
  if (decimalComma) t = `${decimalComma[1]}${decimalComma[2].replace(/\./g, '')}.${decimalComma[3]}${decimalComma[4]}`;
  const m = /^(\(?)(-?\+?)(\d{1,3}(?:,\d{3})+|\d+)?(\.\d+)?(%?)(\)?)$/.exec(t);
  if (!m || (!m[3] && !m[4])) return null;
  const negative = (m[1] === '(' && m[6] === ')') || m[2].startsWith('-');
  if ((m[1] === '(') !== (m[6] === ')')) return null;
  if (scale !== 1 && m[5]) return null; // "10%k" is no label
  const v = Number(`${(m[3] ?? '0').replace(/,/g, '')}${m[4] ?? ''}`) * scale;
  return Number.isFinite(v) ? (negative ? -v : v) : null;
}

/** Decimal places a label prints ("2.50" → 2, "0,25" → 2; "1,000" → 0: a thousands comma). */
function decimalsOf(text: string): number {
  const last = /([.,])(\d+)\D*$/.exec(text.replace(/E[-+]?\d+$/i, ''));
  if (!last || (last[1] === ',' && last[2].length === 3)) return 0;
  return last[2].length;
}

/** A value axis: a map from one page coordinate (normalized x or y) to values, fitted through its tick labels. */
export interface ValueScale {
  kind: 'linear' | 'log';
  /** value (or log10 value) = slope * coordinate + intercept */
  slope: number;
  intercept: number;
  /** The labels' coordinates and values, in coordinate order. */
  ticks: { at: number; value: number; word: RawWord }[];
  /** Largest difference between a label's value and the fit, in value units. */
  residual: number;
  /** Decimal places the tick labels print (values are given to a finer step, see precision). */
  decimals: number;
  /** Smallest step between neighbouring tick values. */
  step: number;
}

export const valueAt = (s: ValueScale, at: number): number => (s.kind === 'log' ? 10 ** (s.slope * at + s.intercept) : s.slope * at + s.intercept);
export const coordinateOf = (s: ValueScale, value: number): number =>
  ((s.kind === 'log' ? Math.log10(value) : value) - s.intercept) / s.slope;

function leastSquares(xs: number[], ys: number[]): { slope: number; intercept: number } {
  const n = xs.length, mx = xs.reduce((a, b) => a + b, 0) / n, my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0, sxx = 0;
  for (let i = 0; i < n; i++) { sxy += (xs[i] - mx) * (ys[i] - my); sxx += (xs[i] - mx) ** 2; }
  const slope = sxx > 0 ? sxy / sxx : 0;
  return { slope, intercept: my - slope * mx };
}

/**
 * Fits a scale through tick labels (coordinate, value) when they lie on one: evenly spaced values on
 * evenly spaced ticks (linear), or a constant ratio per tick (log, e.g. 1, 10, 100). `increasing`: the
 * value must grow with the coordinate (x to the right) or shrink (y downwards on the page). Returns null
 * for a run of numbers that is no axis (a table column, a list of years in text).
 */
export function fitScale(ticks: { at: number; value: number; word: RawWord }[], increasing: boolean): ValueScale | null {
  if (ticks.length < 3) return null;
  const sorted = [...ticks].sort((a, b) => a.at - b.at);
  const values = sorted.map((t) => t.value);
  const range = Math.max(...values) - Math.min(...values);
  if (range <= 0 || new Set(values).size !== values.length) return null;
  const decimals = Math.max(...sorted.map((t) => decimalsOf(t.word.text)));
  const steps = values.slice(1).map((v, i) => Math.abs(v - values[i]));
  const step = Math.min(...steps);
  const linear = leastSquares(sorted.map((t) => t.at), values);
  const residual = Math.max(...sorted.map((t) => Math.abs(linear.slope * t.at + linear.intercept - t.value)));
  const goodDirection = (slope: number) => (increasing ? slope > 0 : slope < 0);
  if (residual <= 0.004 * range && goodDirection(linear.slope)) {
    return { kind: 'linear', ...linear, ticks: sorted, residual, decimals, step };
  }
  if (values.every((v) => v > 0)) {
    const logs = values.map(Math.log10);
    const fit = leastSquares(sorted.map((t) => t.at), logs);
    const logResidual = Math.max(...sorted.map((t, i) => Math.abs(fit.slope * t.at + fit.intercept - logs[i])));
    const logRange = Math.max(...logs) - Math.min(...logs);
    if (logResidual <= 0.004 * logRange && goodDirection(fit.slope)) {
      const res = Math.max(...sorted.map((t) => Math.abs(10 ** (fit.slope * t.at + fit.intercept) - t.value) / t.value)) * Math.max(...values);
      return { kind: 'log', ...fit, ticks: sorted, residual: res, decimals, step: Math.min(...values) };
    }
  }
  return null;
}

/**
 * The finest step a value read off this scale can be trusted to: a thousandth of the tick step, or
 * coarser when the drawing's coordinates are coarser (the fit through the tick marks then leaves a
 * residual: a renderer that writes two decimals of a point).
 */
export function quantumOf(s: ValueScale, v: number): number {
  const ref = s.kind === 'log' ? Math.max(Math.abs(v), 1e-12) : s.step;
  const fine = 10 ** Math.floor(Math.log10(ref / 1000));
  const noise = s.kind === 'log' ? (s.residual / Math.max(...s.ticks.map((t) => t.value))) * Math.abs(v) : s.residual;
  return noise > 0 ? Math.max(fine, 10 ** Math.ceil(Math.log10(2 * noise))) : fine;
}

/**
 * A value read off a scale, rounded to what the drawing can resolve: a thousandth of the tick step
 * (see quantumOf), and whether it falls between ticks.
 */
export function readValue(s: ValueScale, at: number): { value: number; interpolated: boolean } {
  const raw = valueAt(s, at);
  const quantum = quantumOf(s, raw);
  const value = roundTo(raw, quantum);
  const interpolated = !s.ticks.some((t) => Math.abs(t.value - value) <= quantum);
  return { value, interpolated };
}

export function roundTo(v: number, quantum: number): number {
  const digits = Math.max(0, Math.min(12, -Math.floor(Math.log10(quantum))));
  const r = Number((Math.round(v / quantum) * quantum).toFixed(digits));
  return Object.is(r, -0) ? 0 : r;
}
