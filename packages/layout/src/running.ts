import { isPageNumber } from './markers.js';
import { isBlock, type BlockSummary, type PageAnalysis } from './types.js';

/** Top and bottom bands of the page where running headers, footers and page numbers live. */
const TOP_BAND = 0.12;
const BOTTOM_BAND = 0.85;

export type RunningKind = 'Page Number' | 'Footer' | 'running-header';

const bandOf = (b: BlockSummary): 'top' | 'bottom' | undefined =>
  b.box.y1 <= TOP_BAND ? 'top' : b.box.y0 >= BOTTOM_BAND ? 'bottom' : undefined;
/** Same text modulo numbers ("Page 3" ~ "Page 4", "Report 2023 — 7" ~ "Report 2023 — 8"). */
const keyOf = (b: BlockSummary, band: string) => `${band}|${b.text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim()}`;

/**
 * Page furniture. A short block in the top or bottom band that reads as a page number ("3", "Page 3 of
 * 10", "- 3 -", "iv") is a Page Number on any page. Other short blocks in a band whose text repeats
 * (modulo digits) on ≥ 3 pages, or on ≥ 2 pages that are at least half of the document, are running
 * text: Footer at the bottom; at the top a running header (emitted as category Header with
 * extra.running = true and no level, so that it is never mistaken for a section heading).
 * Furniture is left out of the markdown, so a repeated line is never furniture on a page where it is
 * all there is to read (a slide deck's title-only pages, a form's section divider): on a page with no
 * other block, table or figure, repeated lines stay content.
 */
export function detectRunning(analyses: readonly PageAnalysis[]): Map<BlockSummary, RunningKind> {
  const out = new Map<BlockSummary, RunningKind>();
  const pages = new Map<string, Set<number>>();
  const candidates: [BlockSummary, string, 'top' | 'bottom'][] = [];
  let n = 0;
  for (const a of analyses) {
    if (a.page.error) continue;
    n++;
    for (const item of a.items) {
      if (!isBlock(item) || item.lineCount > 2 || item.text.length > 150) continue;
      const band = bandOf(item);
      if (!band) continue;
      if (isPageNumber(item.text)) { out.set(item, 'Page Number'); continue; }
      const key = keyOf(item, band);
      let set = pages.get(key);
      if (!set) pages.set(key, (set = new Set()));
      set.add(a.page.number);
      candidates.push([item, key, band]);
    }
  }
  for (const [block, key, band] of candidates) {
    const count = pages.get(key)!.size;
    if (count >= 3 || (count >= 2 && count >= 0.5 * n)) out.set(block, band === 'bottom' ? 'Footer' : 'running-header');
  }
  for (const a of analyses) {
    const repeated = a.items.filter((item): item is BlockSummary => isBlock(item) && (out.get(item) === 'Footer' || out.get(item) === 'running-header'));
    const content = a.items.filter((item) => !isBlock(item) || !out.has(item));
    if (repeated.length && !content.length) for (const b of repeated) out.delete(b);
  }
  return out;
}
