import { inflateSync, constants as zlibConstants } from 'node:zlib';
import { QuireError } from '@quire/core';
import { END, Lexer, OP_BI, OP_RESTORE, OP_SAVE, OPERATOR } from './content-stream.js';

/**
 * The deepest graphics-state nesting (q … Q) a PDF may have. pdf.js clones its evaluator state per q
 * with Object.create, so each save lengthens a prototype chain that every later lookup walks: reading
 * a page costs time quadratic in its nesting (200,000 nested q held a core for minutes). Real
 * producers stay far below this (PDF 32000-1 Annex C quotes 28 for one well-known reader).
 */
export const MAX_SAVE_DEPTH = 1_000;
/**
 * Saves left open by all streams together: pdf.js reads a page's array of content streams as one
 * stream, so nesting can be split over many small streams. Sloppy producers leave one or two saves
 * open per page, hence the margin over MAX_SAVE_DEPTH.
 */
export const MAX_OPEN_SAVES = 10 * MAX_SAVE_DEPTH;
/** A stream inflating past this is not measured here (bounding inflation is the reader's business). */
const MAX_SCANNED_STREAM = 64 * 1024 * 1024;

const STREAM = Buffer.from('stream', 'latin1');
const ENDSTREAM = Buffer.from('endstream', 'latin1');
const NOT_CONTENT_RE = /\/Subtype\s*\/Image|\/Length[123]\b|\/Subtype\s*\/(Type1C|CIDFontType0C|OpenType)\b/;

export interface SaveNesting {
  /** The deepest q nesting inside one stream. */
  deepest: number;
  /** Saves left open at the ends of all streams, added up. */
  leftOpen: number;
}

/**
 * Measures q nesting in every stream of the file that may be content (unfiltered or Flate; images,
 * font programs and streams this does not inflate are skipped), with the content-stream lexer so
 * that a "q" inside a string or inline image does not count. Encrypted files are not measured.
 */
export function measureSaveNesting(bytes: Uint8Array): SaveNesting {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: SaveNesting = { deepest: 0, leftOpen: 0 };
  if (buf.includes('/Encrypt', 0, 'latin1')) return out;
  let at = 0;
  for (;;) {
    const k = buf.indexOf(STREAM, at);
    if (k < 0) return out;
    at = k + STREAM.length;
    if (k >= 3 && buf[k - 1] === 0x64 && buf[k - 2] === 0x6e && buf[k - 3] === 0x65) continue; // "endstream"
    let start = at;
    if (buf[start] === 0x0d) start++;
    if (buf[start] !== 0x0a && buf[at] !== 0x0d) continue;
    if (buf[start] === 0x0a) start++;
    const end = buf.indexOf(ENDSTREAM, start);
    if (end < 0) return out;
    at = end + ENDSTREAM.length;
    const from = Math.max(0, k - 4096);
    const dict = buf.toString('latin1', from + Math.max(0, buf.subarray(from, k).lastIndexOf('obj', undefined, 'latin1')), k);
    if (NOT_CONTENT_RE.test(dict)) continue;
    let data: Uint8Array = buf.subarray(start, end);
    if (/\/Filter\b/.test(dict)) {
      const filters = dict.match(/\/Filter\s*(\[[^\]]*\]|\/\w+)/)?.[1] ?? '';
      if (!/^(\/(FlateDecode|Fl)|\[\s*\/(FlateDecode|Fl)\s*\])$/.test(filters)) continue;
      try {
        data = inflateSync(data, { finishFlush: zlibConstants.Z_SYNC_FLUSH, maxOutputLength: MAX_SCANNED_STREAM });
      } catch {
        continue;
      }
    }
    const { deepest, open } = streamNesting(data);
    out.deepest = Math.max(out.deepest, deepest);
    out.leftOpen += open;
  }
}

function streamNesting(data: Uint8Array): { deepest: number; open: number } {
  const lx = new Lexer(data);
  let depth = 0, deepest = 0;
  for (;;) {
    const tok = lx.top();
    if (tok === END) return { deepest, open: depth };
    if (tok !== OPERATOR) continue;
    if (lx.op === OP_SAVE) { if (++depth > deepest) deepest = depth; }
    else if (lx.op === OP_RESTORE) { if (depth > 0) depth--; }
    else if (lx.op === OP_BI) lx.skipInlineImage();
  }
}

/** Refuses (FILE_003) a PDF whose content nests graphics states beyond what can be read in bounded time. */
export function assertBoundedNesting(bytes: Uint8Array): void {
  const { deepest, leftOpen } = measureSaveNesting(bytes);
  if (deepest > MAX_SAVE_DEPTH) {
    throw new QuireError('FILE_003', `The PDF could not be read: its content nests graphics states (q) ${deepest} deep, over the limit of ${MAX_SAVE_DEPTH}`, { reason: 'nesting', depth: deepest, maxDepth: MAX_SAVE_DEPTH });
  }
  if (leftOpen > MAX_OPEN_SAVES) {
    throw new QuireError('FILE_003', `The PDF could not be read: its content streams leave ${leftOpen} graphics states (q) open, over the limit of ${MAX_OPEN_SAVES}`, { reason: 'nesting', openSaves: leftOpen, maxOpenSaves: MAX_OPEN_SAVES });
  }
}
