/** A single-channel 8-bit image, row-major. */
export interface GreyImage {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface PageAnalysis {
  /** No ink worth reading: OCR can be skipped. */
  blank: boolean;
  /**
   * Direction of the text lines in image coordinates (degrees, y down, clockwise positive), in
   * [-10, 10] for horizontal lines or [80, 100] for vertical ones (rotated scans).
   */
  lineAngle: number;
  /** How much better the chosen line axis explains the ink than the perpendicular one (≥ 1). */
  axisMargin: number;
  /** Median height of a text line in this image's pixels, or null when no line structure was found. */
  lineHeight: number | null;
  /** The same with rows that are one solid run (ruling lines) left out; absent on a blank page. */
  textLineHeight?: number | null;
  /** Centre of the ink, normalized 0..1 (where a probe crop should look). */
  inkCentre: [number, number];
}

const MAX_POINTS = 60_000;

/**
 * Otsu's threshold over the grey histogram: the split that best separates ink from paper. Levels at or
 * below it are ink (the lower class includes the threshold: a two-level image, such as a 1-bit scan,
 * splits at its dark level).
 */
export function otsuThreshold(img: GreyImage): number {
  const hist = new Float64Array(256);
  for (let i = 0; i < img.data.length; i++) hist[img.data[i]]++;
  const total = img.data.length;
  let sumAll = 0;
  for (let t = 0; t < 256; t++) sumAll += t * hist[t];
  let wB = 0, sumB = 0, best = 0, bestT = 127;
  for (let t = 0; t < 256; t++) {
    wB += hist[t];
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * hist[t];
    const mB = sumB / wB, mF = (sumAll - sumB) / wF;
    const between = wB * wF * (mB - mF) ** 2;
    if (between > best) { best = between; bestT = t; }
  }
  return bestT;
}

/** Ink pixel coordinates (at or below the threshold), evenly subsampled to at most MAX_POINTS. */
function inkPoints(img: GreyImage, threshold: number): { xs: Float64Array; ys: Float64Array; fraction: number } {
  let count = 0;
  for (let i = 0; i < img.data.length; i++) if (img.data[i] <= threshold) count++;
  const step = Math.max(1, Math.ceil(count / MAX_POINTS));
  const n = Math.ceil(count / step);
  const xs = new Float64Array(n), ys = new Float64Array(n);
  let seen = 0, k = 0;
  for (let y = 0; y < img.height; y++) {
    const row = y * img.width;
    for (let x = 0; x < img.width; x++) {
      if (img.data[row + x] > threshold) continue;
      if (seen++ % step === 0 && k < n) { xs[k] = x; ys[k] = y; k++; }
    }
  }
  return { xs: xs.subarray(0, k), ys: ys.subarray(0, k), fraction: count / img.data.length };
}

/** Histogram of the points projected on the normal of direction `deg` (1-pixel bins). */
function projection(xs: Float64Array, ys: Float64Array, deg: number): Float64Array {
  const a = (deg * Math.PI) / 180, s = Math.sin(a), c = Math.cos(a);
  let min = Infinity, max = -Infinity;
  const p = new Float64Array(xs.length);
  for (let i = 0; i < xs.length; i++) {
    const v = -xs[i] * s + ys[i] * c;
    p[i] = v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const hist = new Float64Array(Math.floor(max - min) + 1);
  for (let i = 0; i < p.length; i++) hist[Math.floor(p[i] - min)]++;
  return hist;
}

/**
 * The projection along `deg` with ruling lines taken out: a row whose ink is one solid run (a table's
 * rule, a separator) fills its extent almost completely, where a row of text is letters and gaps. A
 * table's rules would otherwise be most of the thin bands and pass for the line height.
 */
function projectionWithoutRules(xs: Float64Array, ys: Float64Array, deg: number): Float64Array {
  const a = (deg * Math.PI) / 180, s = Math.sin(a), c = Math.cos(a);
  let min = Infinity;
  for (let i = 0; i < xs.length; i++) min = Math.min(min, -xs[i] * s + ys[i] * c);
  const hist = projection(xs, ys, deg);
  const lo = new Float64Array(hist.length).fill(Infinity), hi = new Float64Array(hist.length).fill(-Infinity);
  for (let i = 0; i < xs.length; i++) {
    const bin = Math.floor(-xs[i] * s + ys[i] * c - min);
    const along = xs[i] * c + ys[i] * s;
    if (along < lo[bin]) lo[bin] = along;
    if (along > hi[bin]) hi[bin] = along;
  }
  for (let i = 0; i < hist.length; i++) {
    const extent = hi[i] - lo[i] + 1;
    if (extent >= 40 && hist[i] >= 0.8 * extent) hist[i] = 0;
  }
  return hist;
}

/**
 * Squared coefficient of variation of the projection: text lines parallel to `deg` give sharp
 * peaks and empty gaps (high), any other direction smears them (low). Scale-free, so the two axes compare fairly.
 */
function profileScore(hist: Float64Array, n: number): number {
  let sq = 0;
  for (let i = 0; i < hist.length; i++) sq += hist[i] * hist[i];
  return (sq * hist.length) / (n * n) - 1;
}

function bestAngle(xs: Float64Array, ys: Float64Array, centre: number): { angle: number; score: number } {
  let best = { angle: centre, score: -Infinity };
  const consider = (deg: number) => {
    const score = profileScore(projection(xs, ys, deg), xs.length);
    if (score > best.score) best = { angle: deg, score };
  };
  for (let d = -10; d <= 10; d += 0.5) consider(centre + d);
  const coarse = best.angle;
  for (let d = -0.4; d <= 0.41; d += 0.1) consider(coarse + d);
  return best;
}

function mean(v: Float64Array): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i];
  return v.length > 0 ? s / v.length : 0;
}

/** Median height of the ink bands in a projection (the text line height). */
function medianBand(hist: Float64Array): number | null {
  let peak = 0;
  for (const v of hist) if (v > peak) peak = v;
  const floor = peak * 0.05;
  const bands: number[] = [];
  let run = 0;
  for (let i = 0; i <= hist.length; i++) {
    if (i < hist.length && hist[i] > floor) run++;
    else if (run > 0) { bands.push(run); run = 0; }
  }
  const real = bands.filter((b) => b >= 3).sort((a, b) => a - b);
  return real.length === 0 ? null : real[Math.floor(real.length / 2)];
}

/**
 * Finds the text-line direction (0/90° family plus skew within ±10°) by projection-profile variance
 * on a binarized, downscaled page, and the line height for choosing an OCR scale.
 */
export function analysePage(img: GreyImage): PageAnalysis {
  const threshold = otsuThreshold(img);
  const { xs, ys, fraction } = inkPoints(img, threshold);
  if (xs.length < 50 || fraction < 0.0005) return { blank: true, lineAngle: 0, axisMargin: 1, lineHeight: null, inkCentre: [0.5, 0.5] };
  const horizontal = bestAngle(xs, ys, 0);
  const vertical = bestAngle(xs, ys, 90);
  const winner = vertical.score > horizontal.score ? vertical : horizontal;
  const loser = winner === vertical ? horizontal : vertical;
  return {
    blank: false,
    lineAngle: Math.round(winner.angle * 10) / 10,
    axisMargin: loser.score > 0 ? winner.score / loser.score : Infinity,
    lineHeight: medianBand(projection(xs, ys, winner.angle)),
    textLineHeight: medianBand(projectionWithoutRules(xs, ys, winner.angle)),
    inkCentre: [mean(xs) / img.width, mean(ys) / img.height],
  };
}
