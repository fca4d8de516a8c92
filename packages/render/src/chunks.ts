import { boxToPolygon, unionBox, type Box, type TableElement, type TextElement } from '@quire/core';
import type { Chunk, ChunkBox, ChunkType } from './output-types.js';
import { headingLevel, type Block } from './blocks.js';
import { hasSpans, renderTableMarkdown, safeRowBoundaries, tableSlicer } from './table-render.js';
import { recursiveSpans } from './chunk-recursive.js';

/**
 * Chunk size when the request gives none. Chunks are always returned; 1000 characters is a common
 * retrieval size and sits inside the spec's 100..10000 range (validation is the gateway's).
 */
export const DEFAULT_CHUNK_SIZE = 1000;

/**
 * `continues`: a later part of a split table, which always starts a chunk of its own. `box`: where this
 * part of its element lies, when narrower than the element (the rows of a split table).
 */
interface Piece { md: string; block: Block; id?: string; page: number; kind: Block['kind']; continues?: boolean; box?: Box }

/** Sentences, then words, then a hard cut: a paragraph longer than the chunk size is split inside itself. */
function splitText(text: string, size: number): string[] {
  const out: string[] = [];
  let cur = '';
  const add = (u: string) => {
    if (cur && cur.length + 1 + u.length > size) { out.push(cur); cur = u; } else cur = cur ? `${cur} ${u}` : u;
  };
  const addSentence = (s: string) => {
    if (s.length <= size) { add(s); return; }
    for (const w of s.split(/\s+/)) {
      if (w.length <= size) add(w);
      else for (let i = 0; i < w.length; i += size) add(w.slice(i, i + size));
    }
  };
  // a sentence ends at whitespace after . ! ? ; or :
  const END = /[.!?;:]\s+/g;
  let start = 0;
  for (let m = END.exec(text); m; m = END.exec(text)) {
    addSentence(text.slice(start, m.index + 1));
    start = m.index + m[0].length;
  }
  addSentence(text.slice(start));
  if (cur) out.push(cur);
  return out;
}

/** Markdown length of each row (as GFM or HTML, whichever the table renders as), to decide where to cut. */
function rowCosts(t: TableElement): number[] {
  const html = hasSpans(t) || t.headerRows > 1;
  const cost = new Array<number>(t.rows).fill(html ? 9 : 2);
  for (const c of t.cells) {
    if (c.row >= t.rows) continue;
    cost[c.row] += c.text.trim().length + (html ? 9 + (c.rowSpan > 1 ? 12 : 0) + (c.colSpan > 1 ? 12 : 0) : 3);
  }
  return cost;
}

/**
 * The region of body rows [from, to) of a table, from its cells' boxes (undefined when its cells have no
 * geometry). Cells are grouped by row once, so cutting a long table stays linear in its cells.
 */
function rowsBoxer(table: TableElement): (from: number, to: number) => Box | undefined {
  const byRow: Box[][] = [];
  for (const c of table.cells) if (c.box) (byRow[c.row] ??= []).push(c.box);
  return (from, to) => unionBox(byRow.slice(from, to).flatMap((r) => r ?? [])) ?? undefined;
}

/** Splits a table between rows (never inside one, never across a row span), repeating the header rows. */
function splitTable(table: TableElement, size: number): { md: string; box?: Box }[] {
  // A GFM table shows its first row as the header even when none is marked: repeat that row too.
  const t = table.headerRows === 0 && !hasSpans(table) ? { ...table, headerRows: 1 } : table;
  const h = t.headerRows;
  const cost = rowCosts(t);
  const headerCost = cost.slice(0, h).reduce((a, b) => a + b, 0) + 10 * t.cols + 20;
  const safe = safeRowBoundaries(t);
  const slice = tableSlicer(t);
  const out: { md: string; box?: Box }[] = [];
  const rowsBox = rowsBoxer(table);
  const part = (from: number, to: number) => ({ md: renderTableMarkdown(slice(from, to)), box: rowsBox(from, to) });
  let start = h, acc = 0, sinceSafe = 0, lastSafe = h;
  for (let r = h; r < t.rows; r++) {
    acc += cost[r];
    sinceSafe += cost[r];
    const b = r + 1;
    if (b !== t.rows && !safe.has(b)) continue;
    if (headerCost + acc > size && lastSafe > start) {
      out.push(part(start, lastSafe));
      start = lastSafe;
      acc = sinceSafe;
    }
    lastSafe = b;
    sinceSafe = 0;
  }
  if (start < t.rows || out.length === 0) out.push(part(start, t.rows));
  return out;
}

function toPieces(blocks: readonly Block[], size: number): Piece[] {
  return blocks.flatMap((b): Piece[] => {
    const base = { block: b, id: b.element.id, page: b.page, kind: b.kind };
    if (b.md.length <= size) return [{ ...base, md: b.md }];
    if (b.element.kind === 'table') return splitTable(b.element, size).map((p, i) => ({ ...base, md: p.md, continues: i > 0, ...(p.box ? { box: p.box } : {}) }));
    if (b.kind === 'text') return splitText(b.md, size).map((md) => ({ ...base, md }));
    return [{ ...base, md: b.md }];
  });
}

class Builder {
  pieces: Piece[] = [];
  len = 0;
  add(p: Piece) {
    this.len += (this.pieces.length > 0 ? 2 : 0) + p.md.length;
    this.pieces.push(p);
  }
  get hasBody() { return this.pieces.some((p) => p.kind !== 'heading'); }
}

/** What a chunk holds: blocks, each with the region of it the chunk covers when that is narrower than the element. */
interface Part { block: Block; box?: Box }

/** The boxes of the parts' elements that have geometry, once per element. */
function chunkBoxes(parts: readonly Part[]): ChunkBox[] {
  const out: ChunkBox[] = [];
  const seen = new Set<string>();
  for (const { block: { element: el, page }, box } of parts) {
    const b = box ?? el.box;
    if (!el.id || !b || el.spreadsheet || seen.has(el.id)) continue;
    seen.add(el.id);
    out.push({ element_id: el.id, page_number: page, bounding_box: boxToPolygon(b) });
  }
  return out;
}

/** A chunk before it is numbered and tagged. */
type Draft = Omit<Chunk, 'chunk_id'>;

function draftOf(content: string, parts: readonly Part[]): Draft {
  const blocks = parts.map((p) => p.block);
  const ids = [...new Set(blocks.map((b) => b.element.id).filter((id): id is string => !!id))];
  const pages = [...new Set(blocks.map((b) => b.page))].sort((a, b) => a - b);
  return { content, element_ids: ids, page_numbers: pages, boxes: chunkBoxes(parts) };
}

function piecesDraft(pieces: Piece[]): Draft {
  let content = '';
  pieces.forEach((p, i) => {
    if (i > 0) content += p.kind === 'list' && pieces[i - 1].kind === 'list' ? '\n' : '\n\n';
    content += p.md;
  });
  return draftOf(content, pieces);
}

/**
 * Chunks follow element boundaries: a heading opens a new chunk once the current one has body
 * content, a chunk closes before it would pass `size`, and headings at the end of a closing chunk move
 * on with the content they introduce. Only an element larger than `size` is split, a table between rows.
 */
function semanticDrafts(blocks: readonly Block[], size: number): Draft[] {
  const drafts: Draft[] = [];
  let cur = new Builder();
  const flush = (carryHeadings: boolean) => {
    const carried: Piece[] = [];
    if (carryHeadings) while (cur.pieces.length > 1 && cur.pieces[cur.pieces.length - 1].kind === 'heading') carried.unshift(cur.pieces.pop()!);
    if (cur.pieces.length > 0) drafts.push(piecesDraft(cur.pieces));
    cur = new Builder();
    carried.forEach((p) => cur.add(p));
  };
  for (const p of toPieces(blocks, size)) {
    if ((p.kind === 'heading' && cur.hasBody) || p.continues) flush(false);
    else if (cur.pieces.length > 0 && cur.len + 2 + p.md.length > size) flush(true);
    cur.add(p);
  }
  flush(false);
  return drafts;
}

const headingText = (b: Block) => b.md.replace(/^#{1,6}\s+/, '');

/**
 * One section per heading: the heading and what follows it up to the next heading, carrying the path
 * of headings above it (a level-3 heading sits under the last level-1 and level-2 ones, all under the
 * last Title). A section
 * longer than `size` is cut like semantic chunks, each part keeping the path.
 */
function headerDrafts(blocks: readonly Block[], size: number): Draft[] {
  const sections: { path: string[]; blocks: Block[] }[] = [];
  const open: { level: number; text: string }[] = [];
  let cur: { path: string[]; blocks: Block[] } = { path: [], blocks: [] };
  for (const b of blocks) {
    if (b.kind === 'heading') {
      // A Title is the document's (or slide's) own name: it sits above every section heading, whatever level it was given.
      const el = b.element as TextElement;
      const level = el.category === 'Title' ? 0 : headingLevel(el);
      while (open.length > 0 && open[open.length - 1].level >= level) open.pop();
      open.push({ level, text: headingText(b) });
      // A heading with nothing under it but another heading (a title over its first section) goes into
      // the next section's chunk; it is in that section's path too, and keeps its id in a chunk.
      const headingsOnly = cur.blocks.every((x) => x.kind === 'heading');
      if (cur.blocks.length > 0 && !headingsOnly) sections.push(cur);
      cur = { path: open.map((h) => h.text), blocks: headingsOnly ? cur.blocks : [] };
    }
    cur.blocks.push(b);
  }
  if (cur.blocks.length > 0) sections.push(cur);
  return sections.flatMap((s) => semanticDrafts(s.blocks, size).map((d) => ({ ...d, heading_path: s.path })));
}

/** One chunk per page with content, whatever its length: the unit a page citation names. */
function pageDrafts(blocks: readonly Block[]): Draft[] {
  const byPage = new Map<number, Block[]>();
  for (const b of blocks) {
    const list = byPage.get(b.page);
    if (list) list.push(b); else byPage.set(b.page, [b]);
  }
  return [...byPage.values()].map((pageBlocks) => piecesDraft(toPieces(pageBlocks, Infinity)));
}

/** The document's markdown split at paragraphs, then lines, sentences, words (chunk-recursive.ts); elements by overlap. */
function recursiveDrafts(blocks: readonly Block[], size: number): Draft[] {
  let text = '';
  const ranges = blocks.map((b, i) => {
    if (i > 0) text += b.kind === 'list' && blocks[i - 1].kind === 'list' ? '\n' : '\n\n';
    const start = text.length;
    text += b.md;
    return { block: b, start, end: text.length };
  });
  // spans and ranges both run in text order: one pass over the ranges serves all spans
  let first = 0;
  return recursiveSpans(text, size).map(({ start, end }) => {
    while (first < ranges.length && ranges[first].end <= start) first++;
    const overlapping = [];
    for (let i = first; i < ranges.length && ranges[i].start < end; i++) overlapping.push(ranges[i]);
    return draftOf(text.slice(start, end), overlapping);
  });
}

const STRATEGIES: Record<ChunkType, (blocks: readonly Block[], size: number) => Draft[]> = {
  semantic: semanticDrafts, header: headerDrafts, page: pageDrafts, recursive: recursiveDrafts,
};

export interface ChunkingOptions {
  size?: number;
  /** Strategies to run, in order; each chunk is tagged with its own. Absent: semantic chunks, untagged. */
  types?: readonly ChunkType[];
}

/** The document's chunks, numbered chunk-1… across all requested strategies. */
export function buildChunks(blocks: readonly Block[], options: ChunkingOptions = {}): Chunk[] {
  const size = options.size ?? DEFAULT_CHUNK_SIZE;
  const drafts = options.types?.length
    ? options.types.flatMap((type) => STRATEGIES[type](blocks, size).map((d) => ({ ...d, chunk_type: type })))
    : semanticDrafts(blocks, size);
  return drafts.map((d, i) => ({ chunk_id: `chunk-${i + 1}`, ...d }));
}
