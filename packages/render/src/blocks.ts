import type { Document, Element, FigureElement, TextElement } from '@quire/core';
import type { RenderOptions } from './output-types.js';
import { escapeHtml, escapeMarkdownHtml, renderTableHtml, renderTableMarkdown } from './table-render.js';
import { chartDataShown, chartGrid, chartGridHtml, chartGridMarkdown, type ChartGrid } from './chart-table.js';

/**
 * One renderable unit of the document body: an element with its clean markdown and its markdown with
 * ids. markdown, markdown_with_ids, chunks and html are all built from the same block list, so they
 * agree on what is in the body and in which order.
 */
export interface Block {
  element: Element;
  page: number;
  kind: 'heading' | 'list' | 'text' | 'table' | 'figure';
  md: string;
  mdIds: string;
  /** A chart's data table, when chart_data prints one under the chart (html shows it too). */
  chartGrid?: ChartGrid;
}

/**
 * Page furniture (running headers, page footers, page numbers) is kept in bounding_boxes but left out
 * of the markdown and chunks: it repeats on every page and breaks sentences at page boundaries.
 * Footnotes are Footer elements too, but they are content and stay (extra.footnote).
 */
export function isFurniture(el: TextElement): boolean {
  if (el.category === 'Page Number') return true;
  if (el.category === 'Footer') return !el.extra?.footnote;
  return el.category === 'Header' && el.extra?.running === true;
}

export const headingLevel = (el: TextElement) =>
  Math.min(6, Math.max(1, el.level ?? (el.category === 'Title' ? 1 : 2)));

/**
 * The markdown prefix of a text element: "## " for headings, indented "- " / "3. " for list items. Markdown
 * numbers a list only with decimals ("3." or "3)"); any other label the document shows ("1.2.", "b)", "iv.",
 * "(3)") is kept as the item's first words after a bullet ("- 1.2. "), so the reader still sees which item it is.
 */
export function textPrefix(el: TextElement): string {
  if (el.category === 'Title' || el.category === 'Header') {
    if (isFurniture(el)) return '';
    return `${'#'.repeat(headingLevel(el))} `;
  }
  if (el.category === 'List Items') {
    const indent = '  '.repeat(Math.max(0, el.listDepth ?? 0));
    const item = listItemLabel(el);
    if (item.number !== undefined) return `${indent}${item.number}. `;
    return `${indent}- ${item.label ? `${item.label.replace(/[\\`*_[\]<>]/g, '\\$&')} ` : ''}`;
  }
  return '';
}

/** A list item as markdown and html can number it (a decimal), or the label it shows in its text (bullets: none). */
export function listItemLabel(el: TextElement): { number?: number; label?: string } {
  if (!el.ordered) return {};
  const label = (el.listMarker ?? '').trim();
  const num = /^(\d{1,9})[.)]?$/.exec(label);
  if (num || !label) return { number: num ? Number(num[1]) : 1 };
  return { label };
}

const oneLine = (s: string) => s.replace(/\s*\r?\n\s*/g, ' ').trim();

/** Keeps a plain paragraph from being read as a heading, list, quote or rule. */
const escapeLineStart = (s: string) =>
  s.replace(/^(\s*)(#{1,6}(?=\s|$)|>|[+*-](?=\s|$)|\d{1,9}(?=[.)](?:\s|$)))/gm,
    (_m, sp: string, c: string) => (/^\d/.test(c) ? `${sp}${c}\\` : `${sp}\\${c}`));

function textBlock(el: TextElement, page: number): Block {
  const prefix = textPrefix(el);
  const idAttr = `data-bb-text-id="${escapeHtml(el.id ?? '')}"`;
  if (el.category === 'Title' || el.category === 'Header') {
    const t = oneLine(el.text);
    return { element: el, page, kind: 'heading', md: prefix + escapeMarkdownHtml(t), mdIds: `${prefix}<span ${idAttr}>${escapeHtml(t)}</span>` };
  }
  if (el.category === 'List Items') {
    const t = oneLine(el.text);
    return { element: el, page, kind: 'list', md: prefix + escapeMarkdownHtml(t), mdIds: `${prefix}<span ${idAttr}>${escapeHtml(t)}</span>` };
  }
  if (el.extra?.code === true) {
    // Preformatted text (code listings) keeps its lines and is never read as markdown or HTML.
    const fence = el.text.includes('```') ? '~~~~' : '```';
    const md = `${fence}\n${el.text.replace(/\s+$/, '')}\n${fence}`;
    return { element: el, page, kind: 'text', md, mdIds: `<div data-bb-text-id="${escapeHtml(el.id ?? '')}">\n\n${md}\n\n</div>` };
  }
  if (el.category === 'Formulas' && el.extra?.latex === true) {
    // A displayed formula whose text is LaTeX (HTML MathML, TeX annotations): markdown display math.
    const md = `$$\n${el.text.trim()}\n$$`;
    return { element: el, page, kind: 'text', md, mdIds: `<div ${idAttr}>\n\n${md}\n\n</div>` };
  }
  const t = el.text.replace(/\n\s*\n+/g, '\n').trim();
  return { element: el, page, kind: 'text', md: escapeLineStart(escapeMarkdownHtml(t)), mdIds: `<span ${idAttr}>${escapeHtml(t)}</span>` };
}

const FIGURE_WORD = { chart: 'Chart', image: 'Image' } as const;

function figureBlock(fig: FigureElement, page: number, opts: RenderOptions, captioned: Set<string>, renderedSheets: ReadonlySet<string>): Block {
  const url = opts.imageUrl?.(fig);
  const label = oneLine(fig.caption ?? fig.chart?.title ?? '');
  // A caption element tied to this figure is already in the body: do not print its text twice.
  const shown = captioned.has(fig.id ?? '') ? '' : label;
  const md = url
    ? `![${label.replace(/[[\]]/g, '')}](${url.replace(/[()\s]/g, encodeURIComponent)})`
    : `[${FIGURE_WORD[fig.visualType]}${shown ? `: ${escapeMarkdownHtml(shown)}` : ''}]`;
  const mdIds = `<span data-bb-image-id="${escapeHtml(fig.id ?? '')}">${md}</span>`;
  // A chart whose file kept its data (office charts) shows that data under it: the placeholder alone says nothing.
  const grid = opts.chartData && fig.chart && !chartDataShown(fig.chart, renderedSheets) ? chartGrid(fig.chart) : null;
  if (!grid) return { element: fig, page, kind: 'figure', md, mdIds };
  return {
    element: fig, page, kind: 'figure', chartGrid: grid,
    md: `${md}\n\n${chartGridMarkdown(grid)}`,
    mdIds: `${mdIds}\n\n${chartGridHtml(grid, fig.id ?? '')}`,
  };
}

export function buildBlocks(doc: Document, opts: RenderOptions): Block[] {
  const captioned = new Set<string>();
  const renderedSheets = new Set<string>();
  for (const p of doc.pages) {
    for (const el of p.elements) {
      if (el.kind === 'text' && el.captionFor) captioned.add(el.captionFor);
      if (el.kind === 'table' && el.spreadsheet && el.rows > 0) renderedSheets.add(el.spreadsheet.sheetName);
    }
  }
  const blocks: Block[] = [];
  for (const page of doc.pages) {
    for (const el of page.elements) {
      if (el.kind === 'text') {
        if (isFurniture(el) || el.text.trim() === '') continue;
        blocks.push(textBlock(el, page.number));
      } else if (el.kind === 'table') {
        if (el.rows === 0 || el.cols === 0) continue;
        blocks.push({ element: el, page: page.number, kind: 'table', md: renderTableMarkdown(el), mdIds: renderTableHtml(el, { withIds: true }) });
      } else {
        blocks.push(figureBlock(el, page.number, opts, captioned, renderedSheets));
      }
    }
  }
  return blocks;
}

/** Joins blocks: blank lines between blocks, single newlines inside a run of list items (a tight list). */
export function joinBlocks(blocks: readonly Block[], pick: (b: Block) => string): string {
  let out = '';
  blocks.forEach((b, i) => {
    if (i > 0) out += blockSeparator(blocks, i);
    out += pick(b);
  });
  return out;
}

/** joinBlocks, with where each block sits in the joined text ([start, end) offsets of a JavaScript string). */
export function joinBlocksWithSpans(blocks: readonly Block[], pick: (b: Block) => string): { text: string; spans: [number, number][] } {
  let text = '';
  const spans: [number, number][] = [];
  blocks.forEach((b, i) => {
    if (i > 0) text += blockSeparator(blocks, i);
    const start = text.length;
    text += pick(b);
    spans.push([start, text.length]);
  });
  return { text, spans };
}

/** Items of one list sit on consecutive lines; every other block is a paragraph of its own. */
const blockSeparator = (blocks: readonly Block[], i: number): string => (blocks[i].kind === 'list' && blocks[i - 1].kind === 'list' ? '\n' : '\n\n');
