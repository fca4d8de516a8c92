import type { OutlineEntry } from '@quire/core';
import { numberingDepth, startsWithBullet } from './markers.js';
import type { BlockSummary } from './types.js';

export interface HeadingCandidate {
  block: BlockSummary;
  page: number;
  /** Position of the page among the processed pages. */
  pageIndex: number;
  /** Characters of non-heading text before it on its page (a Title comes before the body). */
  textBefore: number;
  depth?: number;
  outlineLevel?: number;
}

export interface HeadingDecision {
  title?: BlockSummary;
  levels: Map<BlockSummary, number>;
}

const norm = (s: string) => s.toLowerCase().replace(/^[\dIVXivx]+(\.\d+)*\.?\s+/, '').replace(/[^\p{L}\p{N}]+/gu, '');

/** Outline titles normalized (numbering, case, punctuation dropped) → level, with the top outline level as 1. */
export function outlineIndex(outline: readonly OutlineEntry[] | undefined): Map<string, number> {
  const map = new Map<string, number>();
  if (!outline?.length) return map;
  const min = Math.min(...outline.map((e) => e.level));
  for (const e of outline) {
    const k = norm(e.title);
    if (k && !map.has(k)) map.set(k, e.level - min + 1);
  }
  return map;
}

/**
 * Whether a block reads as a heading: short (≤ 3 lines, ≤ 200 characters), with letters, not a bullet
 * item, caption or formula, and set apart from body text — ≥ 15% larger, or bold at body size on ≤ 2
 * lines without closing punctuation, or a short all-caps line — or named in the PDF outline.
 */
export function headingCandidate(b: BlockSummary, body: number, outline: Map<string, number>): { depth?: number; outlineLevel?: number } | undefined {
  // a bullet item is never a heading, also when its marker was not taken as one (a bold lead-in: "• Speed: …")
  if (b.lineCount > 3 || b.text.length > 200 || b.formula || b.captionOf || (b.list && !b.list.ordered) || startsWithBullet(b.text)) return undefined;
  if (!/\p{L}/u.test(b.text)) return undefined;
  const outlineLevel = outline.get(norm(b.text));
  const r = b.fontSize / body;
  const closing = /[.:,;]$/.test(b.text);
  const caps = b.lineCount === 1 && b.text.length <= 60 && b.text === b.text.toUpperCase() && /\p{Lu}{3}/u.test(b.text);
  const styled = (r >= 1.15 && !(closing && b.text.length > 80)) ||
    (b.bold && r >= 0.9 && b.lineCount <= 2 && b.text.length <= 120 && !closing) || (caps && r >= 0.95 && !closing);
  if (!styled && outlineLevel === undefined) return undefined;
  return { depth: numberingDepth(b.text), outlineLevel };
}

const styleKey = (b: BlockSummary) => `${Math.round(b.fontSize * 2) / 2}|${b.bold ? 1 : 0}`;

/**
 * Levels: the outline's level where the title matches an outline entry; else the depth of the heading's
 * numbering ("2.3.1" → 3); else by style: heading styles (size, then bold first) ranked from the largest,
 * a style used by numbered headings taking their usual depth and the next style one level deeper.
 * The Title is the one heading set in the document's largest heading size when it is on page 1, before
 * any body text, unnumbered and ≥ 1.2× body (several headings in the top size are chapters, not a title); it takes level 1 and its style is left out of the ranking unless other headings share it.
 */
export function decideHeadings(cands: readonly HeadingCandidate[], body: number): HeadingDecision {
  const levels = new Map<BlockSummary, number>();
  if (cands.length === 0) return { levels };
  const maxSize = Math.max(...cands.map((c) => c.block.fontSize));
  const top = cands.filter((c) => c.block.fontSize >= maxSize - 0.25);
  const title = top.length === 1 && top[0].page === 1 && top[0].depth === undefined && top[0].textBefore < 100 &&
    top[0].block.fontSize >= 1.2 * body ? top[0].block : undefined;
  const rest = cands.filter((c) => c.block !== title && !(title && byline(c, title, body)));
  const byStyle = new Map<string, { size: number; bold: boolean; depths: number[] }>();
  for (const c of rest) {
    const k = styleKey(c.block);
    let s = byStyle.get(k);
    if (!s) byStyle.set(k, (s = { size: Math.round(c.block.fontSize * 2) / 2, bold: c.block.bold, depths: [] }));
    if (c.depth !== undefined) s.depths.push(c.depth);
  }
  const styles = [...byStyle.entries()].sort((a, b) => b[1].size - a[1].size || Number(b[1].bold) - Number(a[1].bold));
  const styleLevel = new Map<string, number>();
  let prev = 0;
  for (const [k, s] of styles) {
    const lvl = s.depths.length ? mode(s.depths) : prev + 1;
    styleLevel.set(k, Math.min(6, Math.max(1, lvl)));
    prev = styleLevel.get(k)!;
  }
  for (const c of rest) levels.set(c.block, Math.min(6, c.outlineLevel ?? c.depth ?? styleLevel.get(styleKey(c.block))!));
  if (title) levels.set(title, 1);
  return { title, levels };
}

/** Author, affiliation and date lines centred under the Title, before the body: larger than body text but not headings. */
function byline(c: HeadingCandidate, title: BlockSummary, body: number): boolean {
  const b = c.block;
  return c.page === 1 && c.textBefore < 100 && b.box.y0 > title.box.y0 && !b.bold && b.fontSize < title.fontSize &&
    b.fontSize < 1.5 * body && Math.abs((b.box.x0 + b.box.x1) / 2 - 0.5) < 0.06 && c.outlineLevel === undefined;
}

function mode(xs: readonly number[]): number {
  const counts = new Map<number, number>();
  let best = xs[0], bestN = 0;
  for (const x of xs) {
    const n = (counts.get(x) ?? 0) + 1;
    counts.set(x, n);
    if (n > bestN || (n === bestN && x < best)) { best = x; bestN = n; }
  }
  return best;
}
