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
  return searchAngle(centre, (deg) => profileScore(projection(xs, ys, deg), xs.length));
}

/** The angle within ±10° of `centre` that scores best: half-degree steps, then tenths around the best. */
function searchAngle(centre: number, score: (deg: number) => number): { angle: number; score: number } {
  let best = { angle: centre, score: -Infinity };
  const consider = (deg: number) => {
    const v = score(deg);
    if (v > best.score) best = { angle: deg, score: v };
  };
  for (let d = -10; d <= 10; d += 0.5) consider(centre + d);
  const coarse = best.angle;
  for (let d = -0.4; d <= 0.41; d += 0.1) consider(coarse + d);
  return best;
}

/** Strips the page is cut into, across its lines, to measure the skew. */
const SKEW_STRIPS = 6;

/**
 * The lines' direction near `centre` (0: horizontal lines, 90: vertical), measured in strips across the lines
 * (SKEW_STRIPS bands of the ink's extent along them), each strip's profile scored apart and the scores
 * weighed by the strip's ink. A whole-page profile can be fooled by columns whose baselines do not line up:
 * turned by the angle that lifts one column's lines by half a line against the next column's, the lines of
 * both columns fall into one set of bands. Within a strip narrower than a column that cannot happen.
 */
function stripedAngle(used: Strip[], centre: number, whole: number): number {
  if (used.length < 2) return whole;
  const score = (deg: number) => used.reduce((sum, st) => sum + st.xs.length * profileScore(projection(st.xs, st.ys, deg), st.xs.length), 0);
  const best = searchAngle(centre, score);
  // a strip's lines are short, so its profile pins the angle less sharply than the whole page's: the whole
  // page's angle stands unless the strips disagree by more than the strips' own imprecision and read clearly
  // better at their angle (the page's angle smeared them). Offset columns move the page's angle by the turn
  // that lifts a column by half a line over the column pitch: 6 pt over 300 pt or less, 1.1° or more.
  if (Math.abs(best.angle - whole) < STRIPS_DISAGREE_DEG) return whole;
  return best.score > STRIPS_CLEARLY_BETTER * score(whole) ? best.angle : whole;
}

/** The strips overrule the whole page's angle only when they disagree by this much (degrees) ... */
const STRIPS_DISAGREE_DEG = 0.6;
/** ... and score this much better at their own angle than at the page's. */
const STRIPS_CLEARLY_BETTER = 1.05;

type Strip = { xs: Float64Array; ys: Float64Array };

/** The ink points in SKEW_STRIPS strips across the lines (by x for horizontal lines), strips with little ink left out. */
function stripsOf(xs: Float64Array, ys: Float64Array, centre: number): Strip[] {
  const key = centre === 90 ? ys : xs;
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < key.length; i++) { if (key[i] < lo) lo = key[i]; if (key[i] > hi) hi = key[i]; }
  const width = (hi - lo) / SKEW_STRIPS || 1;
  const strips = Array.from({ length: SKEW_STRIPS }, () => ({ xs: [] as number[], ys: [] as number[] }));
  for (let i = 0; i < key.length; i++) {
    const k = Math.min(SKEW_STRIPS - 1, Math.floor((key[i] - lo) / width));
    strips[k].xs.push(xs[i]); strips[k].ys.push(ys[i]);
  }
  return strips.filter((st) => st.xs.length >= Math.max(20, 0.05 * xs.length)).map((st) => ({ xs: Float64Array.from(st.xs), ys: Float64Array.from(st.ys) }));
}

/**
 * The line height (median ink band of the projection along `angle`), measured strip by strip like the skew:
 * across a whole page, one column's lines fill the gaps between the next column's when their baselines do not
 * line up, and the bands found would be whole paragraphs. The median of the strips' values.
 */
function stripedBand(xs: Float64Array, ys: Float64Array, used: Strip[], angle: number, profile: (xs: Float64Array, ys: Float64Array, deg: number) => Float64Array): number | null {
  const whole = medianBand(profile(xs, ys, angle));
  if (used.length < 2 || whole === null) return whole;
  const bands = used.map((st) => medianBand(profile(st.xs, st.ys, angle))).filter((b): b is number => b !== null).sort((a, b) => a - b);
  const striped = bands.length ? bands[bands.length >> 1] : null;
  // the whole page's bands stand unless the strips' are far thinner (the page's were paragraphs, not lines)
  return striped !== null && striped < 0.5 * whole ? striped : whole;
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
  // the whole page's angle, unless strips across the lines clearly read another (see stripedAngle)
  const axis = winner === vertical ? 90 : 0;
  const strips = stripsOf(xs, ys, axis);
  const angle = stripedAngle(strips, axis, winner.angle);
  return {
    blank: false,
    lineAngle: Math.round(angle * 10) / 10,
    axisMargin: loser.score > 0 ? winner.score / loser.score : Infinity,
    lineHeight: stripedBand(xs, ys, strips, angle, projection),
    textLineHeight: stripedBand(xs, ys, strips, angle, projectionWithoutRules),
    inkCentre: [mean(xs) / img.width, mean(ys) / img.height],
  };
}
