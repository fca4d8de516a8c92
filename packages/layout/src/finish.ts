import type { Document, FigureElement, FootnoteReference, TableElement, TextElement } from '@quire/core';
import { assignIds, checkInterrupt } from '@quire/core';
import { decideHeadings, headingCandidate, outlineIndex, type HeadingCandidate } from './headings.js';
import { detectRunning } from './running.js';
import { isBlock, type BlockSummary, type PageAnalysis } from './types.js';
import type { LayoutInput, LayoutOptions } from './layout-document.js';

/** Most characters set in this size (over the whole document) is the body size. */
export function bodySize(analyses: readonly PageAnalysis[]): number {
  const total = new Map<number, number>();
  for (const a of analyses) for (const [k, n] of a.fontHistogram) total.set(k, (total.get(k) ?? 0) + n);
  let best = 10, bestN = 0;
  for (const [k, n] of total) if (n > bestN) { best = k; bestN = n; }
  return best;
}

/**
 * The cross-page pass: page furniture by repetition, footnote texts, heading levels and the Title,
 * categories, list nesting, ids, caption links, footnote references and selection states.
 */
export function finishDocument(analyses: readonly PageAnalysis[], input: Omit<LayoutInput, 'pages'>, options: LayoutOptions = {}): Document {
  const body = bodySize(analyses);
  const running = detectRunning(analyses);
  const outline = outlineIndex(input.outline);
  const footnotes = findFootnotes(analyses, body);
  const cands: HeadingCandidate[] = [];
  analyses.forEach((a, pageIndex) => {
    let textBefore = 0;
    for (const item of a.items) {
      if (!isBlock(item) || running.has(item) || footnotes.has(item)) continue;
      const c = headingCandidate(item, body, outline);
      if (c) cands.push({ block: item, page: a.page.number, pageIndex, textBefore, ...c });
      else textBefore += item.text.length;
    }
  });
  const headings = decideHeadings(cands, body);
  const texts = new Map<BlockSummary, TextElement>();
  const pages = analyses.map((a) => {
    checkInterrupt();
    a.page.elements = a.items.map((item) => {
      if (!isBlock(item)) return item;
      const el = textElement(item, a.page.number, running, footnotes, headings.levels, headings.title);
      texts.set(item, el);
      return el;
    });
    setListDepths(a.page.elements);
    if (options.detectSelections) {
      for (const item of a.items) if (isBlock(item) && item.mark !== undefined) texts.get(item)!.selected = a.page.selectionMarks[item.mark]?.state === 'selected';
    } else a.page.selectionMarks = [];
    return a.page;
  });
  const doc: Document = { format: input.format, pageCount: input.pageCount, pages, warnings: [...(input.warnings ?? [])] };
  const title = input.title ?? (headings.title ? headings.title.text : undefined);
  if (title) doc.title = title;
  assignIds(doc);
  for (const [block, el] of texts) {
    if (el.category !== 'caption' || !block.captionOf) continue;
    el.captionFor = block.captionOf.id;
    if (block.captionOf.kind === 'figure' && !block.captionOf.caption) block.captionOf.caption = el.text;
  }
  if (options.footnoteReferences) doc.footnotes = footnoteReferences(analyses, footnotes, texts);
  return doc;
}

function textElement(b: BlockSummary, page: number, running: ReturnType<typeof detectRunning>, footnotes: Map<BlockSummary, string>,
  levels: Map<BlockSummary, number>, title: BlockSummary | undefined): TextElement {
  const el: TextElement = { kind: 'text', category: 'Text', text: b.text, box: b.box, page, confidence: b.confidence };
  const run = running.get(b);
  if (run === 'running-header') {
    el.category = 'Header';
    el.extra = { running: true };
  } else if (run) el.category = run;
  else if (footnotes.has(b)) {
    el.category = 'Footer';
    el.extra = { footnote: true, symbol: footnotes.get(b) };
  } else if (b.captionOf) el.category = 'caption';
  else if (b.formula) el.category = 'Formulas';
  else if (levels.has(b)) {
    el.category = b === title ? 'Title' : 'Header';
    el.level = levels.get(b);
  } else if (b.list) {
    el.category = 'List Items';
    el.text = b.listText ?? b.text;
    el.listMarker = b.list.marker;
    el.ordered = b.list.ordered;
    el.listDepth = 0;
    el.extra = { markerX: b.list.x0 };
  }
  return el;
}

/** Nesting by marker indentation within each run of consecutive list items (a run ends at other content or a column jump). */
function setListDepths(elements: readonly (TextElement | TableElement | FigureElement)[]): void {
  let run: TextElement[] = [];
  const flush = () => {
    const xs = [...new Set(run.map((e) => e.extra!.markerX as number))].sort((a, b) => a - b);
    const levels: number[] = [];
    for (const x of xs) if (levels.length === 0 || x - levels[levels.length - 1] > 0.012) levels.push(x);
    for (const e of run) {
      const x = e.extra!.markerX as number;
      let d = 0;
      while (d + 1 < levels.length && x >= levels[d + 1] - 0.006) d++;
      e.listDepth = d;
      delete e.extra!.markerX;
      if (Object.keys(e.extra!).length === 0) delete e.extra;
    }
    run = [];
  };
  for (const e of elements) {
    const prev = run[run.length - 1];
    if (e.kind === 'text' && e.category === 'List Items') {
      if (prev && e.box && prev.box && e.box.y0 < prev.box.y0) flush();
      run.push(e);
    } else if (!(e.kind === 'text' && e.category === 'Text' && prev && continuesItem(e, prev))) flush();
  }
  flush();
}

/** A paragraph indented under a list item (a second paragraph of the item) does not end the list. */
const continuesItem = (e: TextElement, prev: TextElement) =>
  !!e.box && !!prev.box && e.box.x0 > (prev.extra!.markerX as number) + 0.01 && e.box.y0 - prev.box.y1 < 0.03;

/** Footnote texts: small-font blocks in the lower half that start with a symbol referenced (superscript) on the same page or the one before. */
function findFootnotes(analyses: readonly PageAnalysis[], body: number): Map<BlockSummary, string> {
  const out = new Map<BlockSummary, string>();
  let prevRefs = new Set<string>();
  for (const a of analyses) {
    const refs = new Set<string>();
    for (const item of a.items) if (isBlock(item)) for (const r of item.refs ?? []) refs.add(r);
    for (const item of a.items) {
      if (!isBlock(item) || !item.leadSymbol || item.box.y0 < 0.5 || item.fontSize > 0.92 * body) continue;
      if (refs.has(item.leadSymbol) || prevRefs.has(item.leadSymbol)) out.set(item, item.leadSymbol);
    }
    prevRefs = refs;
  }
  return out;
}

function footnoteReferences(analyses: readonly PageAnalysis[], footnotes: Map<BlockSummary, string>, texts: Map<BlockSummary, TextElement>): FootnoteReference[] {
  const out: FootnoteReference[] = [];
  analyses.forEach((a, i) => {
    for (const item of a.items) {
      const symbol = isBlock(item) ? footnotes.get(item) : undefined;
      if (!symbol) continue;
      const refIds: string[] = [];
      for (const src of [a, analyses[i - 1]]) {
        for (const other of src?.items ?? []) {
          if (isBlock(other) && !footnotes.has(other) && other.refs?.includes(symbol)) refIds.push(texts.get(other)!.id!);
        }
        if (refIds.length) break;
      }
      if (refIds.length) out.push({ symbol, footnoteTextId: texts.get(item as BlockSummary)!.id!, referenceTextIds: refIds });
    }
  });
  return out;
}
