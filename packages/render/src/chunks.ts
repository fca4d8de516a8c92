import type { TableElement } from '@quire/core';
import type { Chunk } from './output-types.js';
import type { Block } from './blocks.js';
import { hasSpans, renderTableMarkdown, safeRowBoundaries, tableSlicer } from './table-render.js';

/**
 * Chunk size when the request gives none. Chunks are always returned; 1000 characters is a common
 * retrieval size and sits inside the spec's 100..10000 range (validation is the gateway's).
 */
export const DEFAULT_CHUNK_SIZE = 1000;

/** `continues`: a later part of a split table, which always starts a chunk of its own. */
interface Piece { md: string; id?: string; page: number; kind: Block['kind']; continues?: boolean }

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

/** Splits a table between rows (never inside one, never across a row span), repeating the header rows. */
function splitTable(table: TableElement, size: number): string[] {
  // A GFM table shows its first row as the header even when none is marked: repeat that row too.
  const t = table.headerRows === 0 && !hasSpans(table) ? { ...table, headerRows: 1 } : table;
  const h = t.headerRows;
  const cost = rowCosts(t);
  const headerCost = cost.slice(0, h).reduce((a, b) => a + b, 0) + 10 * t.cols + 20;
  const safe = safeRowBoundaries(t);
  const slice = tableSlicer(t);
  const out: string[] = [];
  let start = h, acc = 0, sinceSafe = 0, lastSafe = h;
  for (let r = h; r < t.rows; r++) {
    acc += cost[r];
    sinceSafe += cost[r];
    const b = r + 1;
    if (b !== t.rows && !safe.has(b)) continue;
    if (headerCost + acc > size && lastSafe > start) {
      out.push(renderTableMarkdown(slice(start, lastSafe)));
      start = lastSafe;
      acc = sinceSafe;
    }
    lastSafe = b;
    sinceSafe = 0;
  }
  if (start < t.rows || out.length === 0) out.push(renderTableMarkdown(slice(start, t.rows)));
  return out;
}

function toPieces(blocks: readonly Block[], size: number): Piece[] {
  return blocks.flatMap((b): Piece[] => {
    const base = { id: b.element.id, page: b.page, kind: b.kind };
    if (b.md.length <= size) return [{ ...base, md: b.md }];
    if (b.element.kind === 'table') return splitTable(b.element, size).map((md, i) => ({ ...base, md, continues: i > 0 }));
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

function toChunk(pieces: Piece[], n: number): Chunk {
  let content = '';
  pieces.forEach((p, i) => {
    if (i > 0) content += p.kind === 'list' && pieces[i - 1].kind === 'list' ? '\n' : '\n\n';
    content += p.md;
  });
  const ids = [...new Set(pieces.map((p) => p.id).filter((id): id is string => !!id))];
  const pages = [...new Set(pieces.map((p) => p.page))].sort((a, b) => a - b);
  return { chunk_id: `chunk-${n}`, content, element_ids: ids, page_numbers: pages };
}

/**
 * Chunks follow element boundaries: a heading opens a new chunk once the current one has body
 * content, a chunk closes before it would pass `size`, and headings at the end of a closing chunk move
 * on with the content they introduce. Only an element larger than `size` is split, a table between rows.
 */
export function buildChunks(blocks: readonly Block[], size = DEFAULT_CHUNK_SIZE): Chunk[] {
  const chunks: Chunk[] = [];
  let cur = new Builder();
  const flush = (carryHeadings: boolean) => {
    const carried: Piece[] = [];
    if (carryHeadings) while (cur.pieces.length > 1 && cur.pieces[cur.pieces.length - 1].kind === 'heading') carried.unshift(cur.pieces.pop()!);
    if (cur.pieces.length > 0) chunks.push(toChunk(cur.pieces, chunks.length + 1));
    cur = new Builder();
    carried.forEach((p) => cur.add(p));
  };
  for (const p of toPieces(blocks, size)) {
    if ((p.kind === 'heading' && cur.hasBody) || p.continues) flush(false);
    else if (cur.pieces.length > 0 && cur.len + 2 + p.md.length > size) flush(true);
    cur.add(p);
  }
  flush(false);
  return chunks;
}
