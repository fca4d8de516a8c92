/**
 * PP-OCR's three models end to end on one grey page image, with our own pre/post-processing:
 * detection (tiled, at a scale chosen from the page's measured text height) → DB boxes → line crops
 * → direction classifier (lines it calls upside down are also read turned 180°) → batched recognition →
 * CTC decoding → words split at the recognized spaces and the line's ink gaps, with boxes from the
 * characters' positions shrunk to their ink, in the image's pixel coordinates, as a TessResult
 * (confidences 0..100, as tesseract reports them).
 */
import type * as Ort from 'onnxruntime-node';
import type { GreyImage } from '../analysis.js';
import { analysePage } from '../analysis.js';
import type { TessLine, TessResult, TessWord } from '../ocr-worker.js';
import { downscale, rescale } from '../preprocess.js';
import { ctcGreedy, pageWordGap, partingGapWidths, spaceProbabilities, splitWords, type DecodedChar, type LineGaps } from './ctc.js';
import { bounds, dbBoxes, readingOrder, type OrientedBox } from './db-boxes.js';

export interface PpocrModels {
  ort: typeof Ort;
  det: Ort.InferenceSession;
  rec: Ort.InferenceSession;
  cls: Ort.InferenceSession | null;
  charset: string[];
  /** The classes the page's languages can spell (allowedClasses); null: all of them. */
  allowed?: Uint8Array | null;
}

/**
 * The detector's input is scaled so a text row (ascender to descender) is about this tall: PP-OCR's
 * detector is trained on photos and screenshots resized to a ~960 px side, where body text rows are
 * 15–40 px; a 300 DPI page read whole at that side would shrink 10 pt text to ~5 px rows and lose it.
 */
export const DET_ROW_PX = 28;
/** Never enlarge the detector's input more than this, nor shrink it below this. */
const DET_SCALE_MAX = 2, DET_SCALE_MIN = 0.2;
/** Without a measured text height: the page's longer side in detector pixels at most. */
const DET_DEFAULT_SIDE = 1600;
/**
 * Detector tiles (multiples of 32, the network's stride) and their overlap, which covers a text row. 960 px
 * (PP-OCR's own input side) rather than 1280: on a 300 DPI A4 page the same time, ~130 MB less peak RSS.
 */
const TILE = 960, OVERLAP = 128;
/** The recognizer's input height; a line crop keeps its aspect ratio up to MAX_REC_RATIO. */
const REC_HEIGHT = 48, MAX_REC_RATIO = 100;
const REC_BATCH = 8;
const CLS_WIDTH = 192;
/** The classifier's "180°" must be this sure before a line is turned (PaddleOCR's cls_thresh). */
const CLS_FLIP_PROB = 0.9;
/**
 * A detected line the recognizer reads with a mean character probability below this is dropped, as
 * PaddleOCR's own pipeline does (its drop_score): the detector also fires on what is no print — a
 * signature or scribble, a smudge, a checkbox, a stamp's edge, the speckle of a fax — and the recognizer
 * reads such a crop as a few unsure letters. Print reads far above it: on the dev part's scanned forms,
 * 2 of the 18 tokens of lines under 0.5 were words of the form; lines of print read at 0.9 and more.
 * Only on a page that reads surely elsewhere (see readPage): dropping every line of a faint page emptied it.
 */
export const DROP_LINE_BELOW = 0.5;
/** The projection-profile band of a line is ~0.74 of the row height (see recognize-page.ts). */
const ROW_PER_BAND = 1.35;

export interface PpocrOptions {
  /** Run the direction classifier on each line (default true). */
  classify?: boolean;
}

/** The detector's scale when the page's text height is unknown: its longer side at most DET_DEFAULT_SIDE. */
const defaultDetectorScale = (img: GreyImage) => Math.max(DET_SCALE_MIN, Math.min(1, DET_DEFAULT_SIDE / Math.max(img.width, img.height)));

/** The scale at which the detector first sees this page, from its measured text row height. */
export async function detectorScale(img: GreyImage): Promise<number> {
  const { image, factor } = await downscale(img, 1000);
  const a = analysePage(image);
  const rowPx = a.lineHeight === null ? null : (a.lineHeight / factor) * ROW_PER_BAND;
  // a "row" a quarter of the page high is shading or a picture the profile took for lines
  if (!rowPx || rowPx > img.height / 4) return defaultDetectorScale(img);
  return Math.max(DET_SCALE_MIN, Math.min(DET_SCALE_MAX, DET_ROW_PX / rowPx));
}

/** Median height of the detected rows, in the detector's pixels (boxes are ~1.1 rows high). */
function medianRow(boxes: OrientedBox[]): number {
  const h = boxes.map((b) => b.height / ROW_HEIGHT_PER_BOX).sort((a, b) => a - b);
  return h[h.length >> 1];
}

/**
 * Text boxes of the page in its own pixels. The first pass runs at the scale the page analysis suggests;
 * when the detector's own rows come out far from DET_ROW_PX (the analysis was fooled, or found nothing),
 * or it found nothing at all, a second pass runs at the scale its rows ask for (or the default scale).
 */
async function detect(m: PpocrModels, img: GreyImage): Promise<OrientedBox[]> {
  const at = async (scale: number) => {
    const detImg = await rescale(img, scale);
    const sx = img.width / detImg.width, sy = img.height / detImg.height;
    const boxes = dbBoxes(await probabilityMap(m, detImg), detImg.width, detImg.height);
    return { scale, boxes, onPage: boxes.map((b) => ({ ...b, cx: b.cx * sx, cy: b.cy * sy, length: b.length * Math.hypot(b.ux * sx, b.uy * sy), height: b.height * Math.hypot(b.uy * sx, b.ux * sy) })) };
  };
  const first = await at(await detectorScale(img));
  let retry: number | null = null;
  if (first.boxes.length === 0) retry = defaultDetectorScale(img);
  else {
    const row = medianRow(first.boxes);
    if (row < DET_ROW_PX / 2 || row > DET_ROW_PX * 2) retry = Math.max(DET_SCALE_MIN, Math.min(DET_SCALE_MAX, (first.scale * DET_ROW_PX) / row));
  }
  if (retry === null || Math.abs(retry / first.scale - 1) < 0.25) return first.onPage;
  const second = await at(retry);
  return second.boxes.length >= first.boxes.length * 0.5 ? second.onPage : first.onPage;
}

const DET_MEAN = [0.485, 0.456, 0.406], DET_STD = [0.229, 0.224, 0.225];
/** The detector's normalized input of each grey level, per channel: a lookup instead of two divisions a pixel and channel. */
const DET_LEVELS = DET_MEAN.map((mean, c) => Float32Array.from({ length: 256 }, (_, v) => (v / 255 - mean) / DET_STD[c]));

/**
 * The detector's probability map over the whole (scaled) page, run in overlapping tiles. Each tile gives
 * the map up to the middle of its overlap with the next one: a line cut by a tile's edge is whole in the
 * neighbouring tile there (the overlap is several rows high), and the cut halves never reach the map.
 */
async function probabilityMap(m: PpocrModels, img: GreyImage): Promise<Float32Array> {
  const { width, height } = img;
  const map = new Float32Array(width * height);
  const starts = (size: number) => {
    if (size <= TILE) return [0];
    const out: number[] = [];
    for (let s = 0; ; s += TILE - OVERLAP) {
      if (s + TILE >= size) { out.push(size - TILE); break; }
      out.push(s);
    }
    return out;
  };
  /** The part [from, to) of each tile that is kept along one axis. */
  const kept = (ss: number[], size: number) => ss.map((s, i) => ({
    s,
    from: i === 0 ? 0 : Math.floor((ss[i - 1] + TILE + s) / 2),
    to: i === ss.length - 1 ? size : Math.floor((s + TILE + ss[i + 1]) / 2),
  }));
  for (const ky of kept(starts(height), height)) {
    for (const kx of kept(starts(width), width)) {
      const tx = kx.s, ty = ky.s;
      const tw = Math.min(TILE, width - tx), th = Math.min(TILE, height - ty);
      if (blankTile(img, tx, ty, tw, th)) continue; // margins and white space: no text to find, the map stays 0
      const pw = Math.ceil(tw / 32) * 32, ph = Math.ceil(th / 32) * 32;
      const input = new Float32Array(3 * pw * ph);
      // padding is white paper, normalized like the image
      const [l0, l1, l2] = DET_LEVELS, plane = pw * ph;
      for (let c = 0; c < 3; c++) input.fill(DET_LEVELS[c][255], c * plane, (c + 1) * plane);
      for (let y = 0; y < th; y++) {
        const srcRow = (ty + y) * width + tx;
        for (let x = 0; x < tw; x++) {
          const v = img.data[srcRow + x];
          const o = y * pw + x;
          input[o] = l0[v];
          input[plane + o] = l1[v];
          input[2 * plane + o] = l2[v];
        }
      }
      const out = await m.det.run({ [m.det.inputNames[0]]: new m.ort.Tensor('float32', input, [1, 3, ph, pw]) });
      const prob = out[m.det.outputNames[0]].data as Float32Array;
      for (let y = ky.from; y < ky.to; y++) {
        const dst = y * width, src = (y - ty) * pw - tx;
        for (let x = kx.from; x < kx.to; x++) map[dst + x] = prob[src + x];
      }
    }
  }
  return map;
}

/** Whether a tile holds no ink at all (its grey levels span less than a faint print's contrast). */
function blankTile(img: GreyImage, tx: number, ty: number, tw: number, th: number): boolean {
  let lo = 255, hi = 0;
  for (let y = ty; y < ty + th; y++) {
    const row = y * img.width;
    for (let x = tx; x < tx + tw; x++) { const v = img.data[row + x]; if (v < lo) lo = v; if (v > hi) hi = v; }
    if (hi - lo >= BLANK_TILE_RANGE) return false;
  }
  return true;
}
/**
 * Grey-level range under which a tile is blank paper: decodeGrey stretches the page so its 1st and 99th
 * percentiles become black and white, so print spans far more; paper grain and JPEG noise span less.
 */
const BLANK_TILE_RANGE = 24;

/** A line box in source pixels, sampled into a grey crop `REC_HEIGHT` high (area-averaged when shrinking). */
export function cropLine(img: GreyImage, b: OrientedBox): { data: Uint8Array; width: number } {
  const ratio = Math.min(MAX_REC_RATIO, Math.max(0.25, b.length / b.height));
  const width = Math.max(8, Math.round(REC_HEIGHT * ratio));
  const data = new Uint8Array(width * REC_HEIGHT);
  const su = b.length / width, sv = b.height / REC_HEIGHT;
  const ss = Math.max(1, Math.min(4, Math.ceil(Math.max(su, sv))));
  const nx = -b.uy, ny = b.ux;
  const ox = b.cx - (b.ux * b.length) / 2 - (nx * b.height) / 2, oy = b.cy - (b.uy * b.length) / 2 - (ny * b.height) / 2;
  const { width: W, height: H, data: px } = img;
  const sample = (x: number, y: number) => {
    x = Math.min(W - 1, Math.max(0, x - 0.5)); y = Math.min(H - 1, Math.max(0, y - 0.5));
    const x0 = Math.floor(x), y0 = Math.floor(y), x1 = Math.min(W - 1, x0 + 1), y1 = Math.min(H - 1, y0 + 1);
    const fx = x - x0, fy = y - y0;
    const top = px[y0 * W + x0] * (1 - fx) + px[y0 * W + x1] * fx, bot = px[y1 * W + x0] * (1 - fx) + px[y1 * W + x1] * fx;
    return top * (1 - fy) + bot * fy;
  };
  for (let v = 0; v < REC_HEIGHT; v++) {
    for (let u = 0; u < width; u++) {
      let acc = 0;
      for (let j = 0; j < ss; j++) {
        const bv = (v + (j + 0.5) / ss) * sv;
        for (let i = 0; i < ss; i++) {
          const au = (u + (i + 0.5) / ss) * su;
          acc += sample(ox + au * b.ux + bv * nx, oy + au * b.uy + bv * ny);
        }
      }
      data[v * width + u] = Math.round(acc / (ss * ss));
    }
  }
  return { data, width };
}

const REC_LEVELS = Float32Array.from({ length: 256 }, (_, v) => v / 127.5 - 1);
/** PP-OCR's recognizer/classifier normalization: (x/255 − 0.5)/0.5, grey in all three channels; padding is 0. */
function recTensor(m: PpocrModels, crops: { data: Uint8Array; width: number }[], width: number, fit?: number): Ort.Tensor {
  const plane = REC_HEIGHT * width;
  const input = new Float32Array(crops.length * 3 * plane);
  crops.forEach((c, n) => {
    const w = fit ? Math.min(fit, c.width) : c.width;
    const base = n * 3 * plane;
    for (let y = 0; y < REC_HEIGHT; y++) {
      for (let x = 0; x < w; x++) {
        const sx = fit ? Math.min(c.width - 1, Math.floor(((x + 0.5) * c.width) / w)) : x;
        const v = REC_LEVELS[c.data[y * c.width + sx]];
        const o = y * width + x;
        input[base + o] = v; input[base + plane + o] = v; input[base + 2 * plane + o] = v;
      }
    }
  });
  return new m.ort.Tensor('float32', input, [crops.length, 3, REC_HEIGHT, width]);
}

/**
 * Gaps narrower than this share of the letter height are never between words (letters within a word stand
 * 0.02–0.15 em apart); which wider ones are is splitWords' choice, from the recognizer's space probability.
 */
const MIN_WORD_GAP_PER_HEIGHT = 0.2;
/**
 * A horizontal run of ink this long (crop pixels, 1.5 crop heights) is no letter's: the widest strokes
 * (a bold dash, an M's or a T's bar) stay under one em, ~45 px in the 48 px crop. It is a rule.
 */
const RULE_RUN = Math.round(1.5 * REC_HEIGHT);

/**
 * Which columns of a line crop hold ink of the line's own band (rows with a fair share of the busiest row's
 * ink: the box's margins can hold the descenders of the line above and the ascenders of the one below,
 * which would fill the gaps between words), and how wide a gap between words is at least; null when the crop
 * has no contrast to tell ink from paper.
 */
export function inkColumns(crop: { data: Uint8Array; width: number }): { inked: Uint8Array; minGap: number; letterHeight: number } | null {
  const { data, width } = crop;
  // the 5th and 95th percentile grey levels, from a histogram (the crop sorted, without sorting it)
  const hist = new Uint32Array(256);
  for (let i = 0; i < data.length; i++) hist[data[i]]++;
  const level = (rank: number) => { let acc = 0, v = 0; for (; v < 255; v++) { acc += hist[v]; if (acc > rank) break; } return v; };
  const lo = level(Math.floor(data.length * 0.05)), hi = level(Math.floor(data.length * 0.95));
  if (hi - lo < 40) return null;
  const ink = (lo + hi) / 2;
  // ink that belongs to letters: a horizontal run of ink longer than RULE_RUN letters could make is a rule
  // (an underline, a form's fill line or box edge inside the crop); it would fill every gap it runs under
  const letterInk = new Uint8Array(data.length);
  const rowInk = new Uint32Array(REC_HEIGHT);
  for (let y = 0; y < REC_HEIGHT; y++) {
    const row = y * width;
    for (let x = 0; x < width;) {
      if (data[row + x] >= ink) { x++; continue; }
      const start = x;
      while (x < width && data[row + x] < ink) x++;
      if (x - start >= RULE_RUN) continue;
      letterInk.fill(1, row + start, row + x);
      rowInk[y] += x - start;
    }
  }
  const peak = Math.max(...rowInk);
  if (peak === 0) return null;
  // the line's band: the rows around the busiest one with a fair share of its ink, contiguous with it (a
  // neighbouring line's descenders at the crop's top edge, parted from the band by blank rows, stay out)
  let top = rowInk.indexOf(peak), bottom = top;
  while (top > 0 && rowInk[top - 1] >= 0.15 * peak) top--;
  while (bottom < REC_HEIGHT - 1 && rowInk[bottom + 1] >= 0.15 * peak) bottom++;
  const inked = new Uint8Array(width);
  for (let y = top; y <= bottom; y++) for (let x = 0; x < width; x++) if (letterInk[y * width + x]) inked[x] = 1;
  // the gap is measured against the letters' whole height: the band grown by the ascender and descender rows
  // next to it (thin, but touching it), where the band alone may be just the x-height
  let up = top, down = bottom;
  while (up > 0 && rowInk[up - 1] >= 0.03 * peak) up--;
  while (down < REC_HEIGHT - 1 && rowInk[down + 1] >= 0.03 * peak) down++;
  return { inked, minGap: MIN_WORD_GAP_PER_HEIGHT * (down - up + 1), letterHeight: down - up + 1 };
}

/** Column ranges [from, to) of a line crop with no ink, wide enough to part two words perhaps (not its margins). */
export function inkGaps(crop: { data: Uint8Array; width: number }, ink = inkColumns(crop)): [number, number][] {
  if (!ink) return [];
  const { inked, minGap } = ink;
  const out: [number, number][] = [];
  const first = inked.indexOf(1), last = inked.lastIndexOf(1);
  for (let x = first; x >= 0 && x <= last; x++) {
    if (inked[x]) continue;
    const start = x;
    while (x <= last && !inked[x]) x++;
    if (x - start >= minGap) out.push([start, x]);
  }
  return out;
}

/**
 * A word's extent (in recognizer columns) shrunk to the ink inside it: the extent from the characters'
 * columns runs half a pitch past the outer letters, and boxes of neighbouring words that touch would be
 * joined into one word by the layout.
 */
function tightened(w: { start: number; end: number }, inked: Uint8Array | undefined, stride: number): { start: number; end: number } {
  if (!inked) return w;
  let a = Math.max(0, Math.floor(w.start * stride)), b = Math.min(inked.length - 1, Math.ceil(w.end * stride) - 1);
  while (a <= b && !inked[a]) a++;
  while (b >= a && !inked[b]) b--;
  return a <= b ? { start: a / stride, end: (b + 1) / stride } : w;
}

/** A row-major image reversed is the image turned by 180°. */
function turned180(c: { data: Uint8Array; width: number }): { data: Uint8Array; width: number } {
  return { data: c.data.slice().reverse(), width: c.width };
}

/** Reads one page image (grey, any size) into a TessResult in the image's pixel coordinates. */
export async function readPage(m: PpocrModels, img: GreyImage, opts: PpocrOptions = {}): Promise<TessResult> {
  const boxes = readingOrder(await detect(m, img));
  const crops = boxes.map((b) => cropLine(img, b));
  // Lines the classifier calls upside down are read both ways, and the surer reading is kept: the
  // mobile classifier also flags some upright lines (digits, short lines), and a wrong turn reads as noise.
  const jobs: { line: number; flipped: boolean; crop: { data: Uint8Array; width: number } }[] = crops.map((crop, line) => ({ line, flipped: false, crop }));
  if (m.cls && opts.classify !== false) {
    for (let i = 0; i < crops.length; i += REC_BATCH * 4) {
      const batch = crops.slice(i, i + REC_BATCH * 4);
      const out = await m.cls.run({ [m.cls.inputNames[0]]: recTensor(m, batch, CLS_WIDTH, CLS_WIDTH) });
      const p = out[m.cls.outputNames[0]].data as Float32Array;
      batch.forEach((c, j) => { if (p[j * 2 + 1] > CLS_FLIP_PROB) jobs.push({ line: i + j, flipped: true, crop: turned180(c) }); });
    }
  }
  // batches of similar widths waste little padding
  const order = jobs.map((_, i) => i).sort((a, b) => jobs[a].crop.width - jobs[b].crop.width);
  type LineReading = { line: TessLine; confidence: number; chars: number; flipped: boolean; boxHeight: number; letterHeight?: number };
  const readings: { upright?: LineReading; best?: LineReading }[] = crops.map(() => ({}));
  // each job's decoded characters and ink gaps; its words are split once the page's word spaces are known
  const decoded: { chars: DecodedChar[]; lineSteps: number; stride: number; ink: ReturnType<typeof inkColumns>; gaps: LineGaps }[] = new Array(jobs.length);
  for (let k = 0; k < order.length; k += REC_BATCH) {
    const idx = order.slice(k, k + REC_BATCH);
    const width = Math.ceil(Math.max(...idx.map((i) => jobs[i].crop.width)) / 8) * 8;
    const out = await m.rec.run({ [m.rec.inputNames[0]]: recTensor(m, idx.map((i) => jobs[i].crop), width) });
    const t = out[m.rec.outputNames[0]];
    const [, steps, classes] = t.dims as number[];
    const probs = t.data as Float32Array;
    const stride = width / steps;
    idx.forEach((i, n) => {
      const { crop } = jobs[i];
      const lineSteps = Math.min(steps, Math.ceil(crop.width / stride));
      const chars = ctcGreedy(probs, n * steps * classes, lineSteps, classes, m.charset, m.allowed ?? null);
      const ink = inkColumns(crop);
      const gaps = inkGaps(crop, ink).map(([a, b]): [number, number] => [a / stride, b / stride]);
      decoded[i] = { chars, lineSteps, stride, ink, gaps: { gaps, spaceProb: spaceProbabilities(probs, n * steps * classes, lineSteps, classes) } };
    });
  }
  // how wide this page's word spaces are (in letter heights), from the gaps its lines part words at on the
  // recognizer's own evidence: a gap as wide, where the recognizer hesitated only a little, is a space too
  const ratios = decoded.flatMap((d) => (d.ink ? partingGapWidths(d.chars, d.gaps).map((w) => (w * d.stride) / d.ink!.letterHeight) : []));
  const wordGap = pageWordGap(ratios);
  decoded.forEach((d, i) => {
    const { line, flipped, crop } = jobs[i];
    const { chars, lineSteps, stride, ink } = d;
    const confidence = chars.length ? chars.reduce((s, c) => s + c.prob, 0) / chars.length : 0;
    const gaps = wordGap !== null && ink ? { ...d.gaps, wideGap: (wordGap * ink.letterHeight) / stride } : d.gaps;
    const words = splitWords(chars, lineSteps, gaps).map((w) => ({ ...w, ...tightened(w, ink?.inked, stride) }));
    const reading: LineReading = {
      line: toLine(boxes[line], words, crop.width / stride, flipped, img), confidence, chars: chars.length, flipped,
      boxHeight: boxes[line].height, ...(ink ? { letterHeight: ink.letterHeight } : {}),
    };
    if (!flipped) readings[line].upright = reading;
    const best = readings[line].best;
    if (!best || reading.confidence > best.confidence) readings[line].best = reading;
  });
  // A page whose lines mostly read better turned is upside down as a whole: that is the caller's
  // orientation search to find (recognizePage tries 180° when a reading is poor, and reports the turn), so
  // its lines are read as they are. A few turned lines on an upright page (a stamp, a label) stay turned.
  const turnedChars = readings.reduce((s, r) => s + (r.best?.flipped ? r.best.chars : 0), 0);
  const allChars = readings.reduce((s, r) => s + (r.best?.chars ?? 0), 0);
  const pageTurned = turnedChars > allChars / 2;
  const chosen = withoutUnsureLines(readings.map((r) => (pageTurned ? r.upright : r.best)).filter((r): r is LineReading => !!r && r.line.words.length > 0));
  const perBox = boxPerRow(chosen);
  for (const r of chosen) r.line.rowAttributes = { rowHeight: Math.round((ROW_PER_INK_BAND * r.boxHeight) / perBox) };
  const kept = chosen.map((r) => r.line);
  const all = kept.flatMap((l) => l.words);
  return {
    blocks: kept.length ? [{ paragraphs: [{ lines: kept }] }] : [],
    confidence: all.length ? all.reduce((s, w) => s + w.confidence, 0) / all.length : 0,
    text: kept.map((l) => l.words.map((w) => w.text).join(' ')).join('\n') + (kept.length ? '\n' : ''),
  };
}

/** One detected line with its words placed along the box (columns → pixels), clipped to the image. */
function toLine(b: OrientedBox, words: ReturnType<typeof splitWords>, columns: number, flipped: boolean, img: GreyImage): TessLine {
  const clip = (r: { x0: number; y0: number; x1: number; y1: number }) => ({
    x0: Math.max(0, Math.floor(r.x0)), y0: Math.max(0, Math.floor(r.y0)),
    x1: Math.min(img.width, Math.ceil(r.x1)), y1: Math.min(img.height, Math.ceil(r.y1)),
  });
  const lineBox = clip(bounds(b));
  const out: TessWord[] = words.map((w) => {
    // columns count from the crop's left edge, which is the box's right end when the line was turned
    let a0 = (w.start / columns) * b.length, a1 = (w.end / columns) * b.length;
    if (flipped) [a0, a1] = [b.length - a1, b.length - a0];
    const mid = (a0 + a1) / 2 - b.length / 2;
    const sub: OrientedBox = { ...b, cx: b.cx + mid * b.ux, cy: b.cy + mid * b.uy, length: a1 - a0 };
    return { text: w.text, confidence: Math.round(w.confidence * 1000) / 10, bbox: clip(bounds(sub)) };
  });
  return { bbox: lineBox, words: out, rowAttributes: { rowHeight: Math.round(b.height / ROW_HEIGHT_PER_BOX) } };
}

/**
 * A page's lines without those read under DROP_LINE_BELOW — when the page reads surely elsewhere (most of
 * its characters in lines at or above the bar): unsure lines are then marks, not print. A faint page (a
 * thermal receipt read poorly throughout) keeps every line; the caller judges such a reading as a whole (a
 * second engine, another orientation) rather than find the page empty.
 */
export function withoutUnsureLines<T extends { confidence: number; chars: number }>(lines: T[]): T[] {
  const all = lines.reduce((s, r) => s + r.chars, 0);
  const sure = lines.reduce((s, r) => s + (r.confidence >= DROP_LINE_BELOW ? r.chars : 0), 0);
  return sure >= 0.5 * all ? lines.filter((r) => r.confidence >= DROP_LINE_BELOW) : lines;
}

/**
 * How many times taller a detected box is than its line's letters (ascender top to descender bottom, the
 * row height tesseract reports and the font size is derived from), measured on this page: the median over
 * lines long enough to hold ascenders and descenders of the crop's height over the letters' height in it.
 * DB's unclipping pads a box by a share of its size that grows as the text gets smaller in pixels (a 150 DPI
 * JPEG's boxes are a sixth taller for their letters than a 300 DPI scan's), so a fixed ratio misjudges the
 * em, and with it which gaps part words and which part columns. `ROW_HEIGHT_PER_BOX` when under three lines tell.
 */
function boxPerRow(lines: { chars: number; letterHeight?: number }[]): number {
  const ratios = lines.filter((l) => l.chars >= LINE_CHARS_FOR_ROW && l.letterHeight && l.letterHeight >= 0.3 * REC_HEIGHT)
    .map((l) => REC_HEIGHT / l.letterHeight!).sort((a, b) => a - b);
  if (ratios.length < 3) return ROW_HEIGHT_PER_BOX * ROW_PER_INK_BAND;
  return Math.min(BOX_PER_ROW_MAX, Math.max(BOX_PER_ROW_MIN, ratios[ratios.length >> 1]));
}

/**
 * tesseract's row height over the ink band `inkColumns` measures (rows with 3 % of the busiest row's ink miss
 * the thin tops of ascenders and the tails of descenders): 1.12, measured on 10 pt serif text rendered at 150
 * and 300 DPI, where it puts PP-OCR's font sizes within 7 % of tesseract's on the same page (a fixed box ratio
 * was 7 % over at 300 DPI and 27 % over at 150 DPI).
 */
const ROW_PER_INK_BAND = 1.12;
/** Lines of at least this many characters measure the page's box-to-row ratio (shorter ones may lack ascenders). */
const LINE_CHARS_FOR_ROW = 8;
/** The measured box-to-row ratio is kept within these (a box is never shorter than its letters, nor twice their height). */
const BOX_PER_ROW_MIN = 1, BOX_PER_ROW_MAX = 1.8;

/**
 * DB's unclipped box is a little taller than tesseract's row height (ascender to descender), which the
 * font size is derived from (words.ts): 11 pt text at 300 DPI (a 46 px em, tesseract's row ~44 px)
 * gives boxes 47–51 px high.
 */
const ROW_HEIGHT_PER_BOX = 1.1;
