import type { Box, RawWord } from '@quire/core';
import { mostly, unionBox, checkInterrupt } from '@quire/core';
import { dominantSize, joinLines, joinWords } from './text.js';
import type { Frag, PageGeom } from './types.js';

/** A gap wider than this many ems ends a line fragment: column gutters are ≥ 1 em, justified word spaces < 0.9 em. */
const SPLIT_EM = 0.9;

const height = (b: Box) => b.y1 - b.y0;
const vOverlap = (a: Box, b: Box) => Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);

/** A line fragment from words in left-to-right order on the page (see `leftToRight` to merge fragments). */
export function makeFrag(words: RawWord[], geom: PageGeom, vertical = false): Frag {
  let rtl = 0;
  for (const w of words) if (w.direction === 'rtl') rtl++;
  const rightToLeft = rtl * 2 > words.length;
  const ordered = rightToLeft ? [...words].reverse() : words;
  return {
    words: ordered,
    box: unionBox(words.map((w) => w.box))!,
    fontSize: dominantSize(words),
    bold: mostly(words, 'bold'),
    italic: mostly(words, 'italic'),
    vertical: vertical || undefined,
    rtl: rightToLeft || undefined,
    text: joinWords(ordered, geom.width, rightToLeft),
  };
}

/** A fragment's words in left-to-right order on the page (its `words` are in reading order). */
export const leftToRight = (f: Frag): RawWord[] => (f.rtl ? [...f.words].reverse() : f.words);

/**
 * Groups words into line fragments with one sweep over words sorted by left edge: each word extends the
 * open line whose last word ends just before it and overlaps it vertically (chaining on the last word
 * follows slightly skewed OCR lines and keeps superscripts on their line). Lines are kept sorted by height
 * on the page so a word only compares with the few lines around its own height.
 * A selection mark lying between two words splits the line there (each option label stays separate).
 * Vertical runs are kept as one fragment per word, laid out separately.
 */
export function buildFragments(words: readonly RawWord[], geom: PageGeom, marks: readonly Box[] = []): Frag[] {
  const horiz: RawWord[] = [];
  const out: Frag[] = [];
  for (const w of words) {
    if (w.direction === 'ttb' || w.direction === 'btt') out.push(makeFrag([w], geom, true));
    else horiz.push(w);
  }
  horiz.sort((a, b) => a.box.x0 - b.box.x0);
  const hs = Float64Array.from(horiz, (w) => height(w.box)).sort();
  const medH = hs.length ? hs[hs.length >> 1] : 0;
  // lines kept sorted by the centre of their first word, so each word only looks at lines near its height
  const keys: number[] = [];
  const lines: RawWord[][] = [];
  for (const w of horiz) {
    checkInterrupt();
    const h = height(w.box);
    const cy = (w.box.y0 + w.box.y1) / 2;
    const win = 1.5 * Math.max(h, medH);
    let best = -1, bestScore = -Infinity;
    for (let i = lowerBound(keys, cy - win); i < keys.length && keys[i] <= cy + win; i++) {
      const line = lines[i];
      const last = line[line.length - 1];
      const gap = w.box.x0 - last.box.x1;
      if (gap > (SPLIT_EM * Math.max(w.fontSize, last.fontSize)) / geom.width) continue;
      const ov = vOverlap(w.box, last.box);
      const lh = height(last.box);
      // superscripts and subscripts sit half off the line: a smaller word needs less overlap
      const small = Math.min(w.fontSize, last.fontSize) < 0.8 * Math.max(w.fontSize, last.fontSize);
      if (ov < (small ? 0.25 : 0.5) * Math.min(h, lh)) continue;
      if (marks.length > 0 && markBetween(last.box, w.box, marks)) continue;
      const score = ov / Math.max(h, lh, 1e-9) - Math.max(0, gap) * 10;
      if (score > bestScore) { bestScore = score; best = i; }
    }
    if (best < 0) {
      const at = lowerBound(keys, cy);
      keys.splice(at, 0, cy);
      lines.splice(at, 0, [w]);
    } else {
      const line = lines[best];
      const last = line[line.length - 1];
      // text drawn twice with a small offset (fake bold) would read as doubled words
      if (last.text === w.text && Math.abs(last.box.x0 - w.box.x0) * geom.width < 1.5) continue;
      line.push(w);
    }
  }
  const frags = rejoinStretchedSpaces(lines.map((line) => makeFrag(line, geom)), geom, marks);
  for (const f of frags) out.push(f);
  if (marks.length > 0) attachMarks(out, marks, geom);
  return out;
}

/** Gaps wider than this many ems always separate fragments (form fields, table columns, gutters). */
export const ALWAYS_SPLIT_EM = 3;

/**
 * Justified narrow columns stretch some word spaces past a gutter's width (LaTeX: 1.4 em after a full stop),
 * so a wide gap only separates fragments when it is structural: the lines just above and below (within two
 * line heights) leave part of it blank too (≥ 0.5 em), as a column gutter or a table column boundary does.
 * A stretched space has the neighbouring lines' words running through it. An isolated line keeps gaps
 * over 2 em.
 */
function rejoinStretchedSpaces(frags: Frag[], geom: PageGeom, marks: readonly Box[]): Frag[] {
  const bands = bandsOf(frags.filter((f) => !f.vertical));
  if (bands.length === 0) return frags;
  const out: Frag[] = frags.filter((f) => f.vertical);
  bands.forEach((band, i) => {
    let cur = band[0];
    for (let k = 1; k < band.length; k++) {
      const next = band[k];
      const emX = Math.max(cur.fontSize, next.fontSize) / geom.width;
      const gap = next.box.x0 - cur.box.x1;
      const keep = gap > ALWAYS_SPLIT_EM * emX || (marks.length > 0 && markBetween(cur.box, next.box, marks)) ||
        structuralGap(bands, i, cur.box.x1, next.box.x0, emX, geom, cur.box.x0, next.box.x1);
      if (keep) { out.push(cur); cur = next; }
      else cur = makeFrag([...leftToRight(cur), ...leftToRight(next)], geom);
    }
    out.push(cur);
  });
  return out;
}

/**
 * The neighbouring lines that decide are the nearest band above and the nearest below, within reach, that
 * print something over the two fragments' span (`sx0`..`sx1`): on a page of columns whose baselines do not
 * line up, the adjacent band may hold only another column's line, which says nothing about this gap.
 */
function structuralGap(bands: Frag[][], i: number, gx0: number, gx1: number, emX: number, geom: PageGeom, sx0: number, sx1: number): boolean {
  const band = bands[i];
  const top = Math.min(...band.map((f) => f.box.y0)), bottom = Math.max(...band.map((f) => f.box.y1));
  const reach = 2 * (bottom - top);
  const need = Math.min(0.5 * emX, 0.5 * (gx1 - gx0));
  const over = (nb: Frag[]) => nb.some((f) => f.box.x1 > sx0 && f.box.x0 < sx1);
  let neighbours = 0;
  for (const step of [-1, 1]) {
    for (let j = i + step; j >= 0 && j < bands.length; j += step) {
      const nb = bands[j];
      const nTop = Math.min(...nb.map((f) => f.box.y0)), nBottom = Math.max(...nb.map((f) => f.box.y1));
      if (nTop - bottom > reach || top - nBottom > reach) break;
      if (!over(nb)) continue;
      neighbours++;
      if (freeRun(nb, gx0, gx1) < need) return false;
      break;
    }
  }
  return neighbours > 0 || (gx1 - gx0) * geom.width > 2 * emX * geom.width;
}

/** Longest stretch of [a, b] that no fragment of the band covers. */
function freeRun(band: readonly Frag[], a: number, b: number): number {
  let best = 0, at = a;
  for (const f of band) {
    if (f.box.x1 <= at) continue;
    if (f.box.x0 >= b) break;
    best = Math.max(best, f.box.x0 - at);
    at = Math.max(at, f.box.x1);
  }
  return Math.max(best, b - at);
}

function markBetween(left: Box, right: Box, marks: readonly Box[]): boolean {
  for (const m of marks) {
    const cx = (m.x0 + m.x1) / 2;
    if (cx >= left.x1 - 1e-4 && cx <= right.x0 + 1e-4 && vOverlap(m, right) > 0) return true;
  }
  return false;
}

/** Each mark labels the nearest fragment to its right on the same line (within 5 em), else the nearest to its left (3 em). */
function attachMarks(frags: Frag[], marks: readonly Box[], geom: PageGeom): void {
  const dist = new Map<Frag, number>();
  marks.forEach((m, i) => {
    let best: Frag | undefined, bestD = Infinity;
    for (const f of frags) {
      if (f.vertical || vOverlap(m, f.box) < 0.3 * Math.min(height(m), height(f.box))) continue;
      const em = f.fontSize / geom.width;
      const right = f.box.x0 - m.x1, left = m.x0 - f.box.x1;
      const d = right >= -em * 0.3 && right <= 5 * em ? right : left >= -em * 0.3 && left <= 3 * em ? left + 5 * em : Infinity;
      if (d < bestD) { bestD = d; best = f; }
    }
    if (best && bestD < (dist.get(best) ?? Infinity)) {
      best.mark = i;
      dist.set(best, bestD);
    }
  });
}

/** Groups fragments into rows of text (same baseline band), top to bottom; fragments in a row sorted left to right. */
export function bandsOf(frags: readonly Frag[]): Frag[][] {
  const sorted = [...frags].sort((a, b) => a.box.y0 + a.box.y1 - b.box.y0 - b.box.y1);
  const bands: Frag[][] = [];
  let core: Box | undefined;
  let cur: Frag[] = [];
  // A fragment joins the band when it overlaps the band's first fragment, or the band's median extent (a
  // word without ascenders, "magna.", sits lower than the line's first word: OCR boxes follow the ink)
  const joins = (f: Frag) => {
    const h = height(f.box);
    if (vOverlap(core!, f.box) >= 0.5 * Math.min(height(core!), h)) return true;
    const mid = { x0: 0, x1: 0, y0: median(cur.map((m) => m.box.y0)), y1: median(cur.map((m) => m.box.y1)) };
    return vOverlap(mid, f.box) >= 0.5 * Math.min(height(mid), h);
  };
  for (const f of sorted) {
    if (core && joins(f)) cur.push(f);
    else {
      if (cur.length) bands.push(cur);
      cur = [f];
      core = f.box;
    }
  }
  if (cur.length) bands.push(cur);
  for (const b of bands) b.sort((p, q) => p.box.x0 - q.box.x0);
  return bands;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

function lowerBound(xs: readonly number[], v: number): number {
  let lo = 0, hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Text of some words (a table cell, a figure's labels): their lines, wrapped lines joined with hyphenation repaired. */
export function textOfWords(words: readonly RawWord[], geom: PageGeom): string {
  if (words.length === 0) return '';
  const bands = bandsOf(buildFragments(words, geom));
  return joinLines(bands.map((b) => b.map((f) => f.text).join(' ')));
}
