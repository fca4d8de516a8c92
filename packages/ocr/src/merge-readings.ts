import type { TessBbox, TessLine, TessResult } from './ocr-worker.js';
import { linesOf } from './words.js';

/**
 * Two readings of the same image (same pixels, another binarisation) merged line by line. Where a
 * photo is unevenly lit or faintly printed, each binarisation loses different lines — one turns a
 * grey band into a black bar, the other drops a pale amount — so neither reading is best
 * everywhere. Lines of the two readings that overlap on the page form a group (a line one reading
 * split in two faces both halves in the other); each group is taken whole from the reading that
 * read it better: more letters and digits at a confidence above the floor, the measure the
 * orientation choice uses. A line only one reading found is kept.
 */
export function mergeReadings(first: TessResult, second: TessResult): TessResult {
  const a = linesOf(first).filter(hasText), b = linesOf(second).filter(hasText);
  const groups = overlapGroups(a, b);
  const kept: TessLine[] = [];
  for (const g of groups) kept.push(...(lineScore(g.second) > lineScore(g.first) ? g.second : g.first));
  kept.sort((x, y) => x.bbox.y0 - y.bbox.y0 || x.bbox.x0 - y.bbox.x0);
  const words = kept.flatMap((l) => l.words);
  const confidence = words.length ? words.reduce((s, w) => s + w.confidence, 0) / words.length : 0;
  return {
    blocks: [{ paragraphs: [{ lines: kept }] }],
    confidence,
    text: kept.map((l) => l.words.map((w) => w.text).join(' ')).join('\n'),
  };
}

const hasText = (l: TessLine) => l.words.some((w) => w.text.trim() !== '');

/** Letters and digits weighted by how far their confidence is above 30 (as in `readability`). */
function lineScore(lines: TessLine[]): number {
  let score = 0;
  for (const l of lines) {
    for (const w of l.words) score += ((w.text.match(/[\p{L}\p{N}]/gu) ?? []).length * Math.max(0, w.confidence - 30)) / 70;
  }
  return score;
}

/** Lines on the same row (half the smaller height in common) that share some width. */
function overlaps(p: TessBbox, q: TessBbox): boolean {
  const v = Math.min(p.y1, q.y1) - Math.max(p.y0, q.y0);
  const h = Math.min(p.x1, q.x1) - Math.max(p.x0, q.x0);
  return v > 0.5 * Math.min(p.y1 - p.y0, q.y1 - q.y0) && h > 0;
}

/** Connected groups of the overlap graph between the two readings' lines. */
function overlapGroups(a: TessLine[], b: TessLine[]): { first: TessLine[]; second: TessLine[] }[] {
  const parent = Array.from({ length: a.length + b.length }, (_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) if (overlaps(a[i].bbox, b[j].bbox)) parent[find(i)] = find(a.length + j);
  }
  const groups = new Map<number, { first: TessLine[]; second: TessLine[] }>();
  const group = (i: number) => {
    const r = find(i);
    if (!groups.has(r)) groups.set(r, { first: [], second: [] });
    return groups.get(r)!;
  };
  a.forEach((l, i) => group(i).first.push(l));
  b.forEach((l, j) => group(a.length + j).second.push(l));
  return [...groups.values()];
}
