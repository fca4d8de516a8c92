import { inflateSync, constants as zlibConstants } from 'node:zlib';
import { QuireError } from '@quire/core';
import { END, Lexer, OP_BI, OP_RESTORE, OP_SAVE, OPERATOR } from './content-stream.js';
import { emptyPasswordDecryptor } from './stream-decrypt.js';

/*
 * Bounds on page content, checked on the file's bytes before pdf.js or PDFium read a page: both hold a
 * page's decoded content streams whole, and pdf.js's reading time grows with graphics-state nesting
 * squared, so a small file can otherwise take gigabytes or minutes (a 2 MB file whose content inflates
 * to 2 GiB peaked at 6.4 GB RSS; 200,000 nested q held a core for minutes).
 */

/**
 * The deepest graphics-state nesting (q … Q) a PDF may have. pdf.js clones its evaluator state per q
 * with Object.create, so each save lengthens a prototype chain that every later lookup walks: reading
 * a page costs time quadratic in its nesting. Real producers stay far below this (PDF 32000-1 Annex C
 * quotes 28 for one well-known reader).
 */
export const MAX_SAVE_DEPTH = 1_000;
/**
 * Saves left open by all streams together: pdf.js reads a page's array of content streams as one
 * stream, so nesting can be split over many small streams. Sloppy producers leave one or two saves
 * open per page, hence the margin over MAX_SAVE_DEPTH.
 */
export const MAX_OPEN_SAVES = 10 * MAX_SAVE_DEPTH;

const STREAM = Buffer.from('stream', 'latin1');
const ENDSTREAM = Buffer.from('endstream', 'latin1');
const CONTENTS = Buffer.from('/Contents', 'latin1');
const NOT_CONTENT_RE = /\/Subtype\s*\/Image|\/Length[123]\b|\/Subtype\s*\/(Type1C|CIDFontType0C|OpenType)\b/;
const OBJECT_STREAM_RE = /\/Type\s*\/ObjStm\b/;
const OBJ_HEADER_RE = /(\d+)\s+(\d+)\s+obj\b/g;
const REF_RE = /(\d+)\s+\d+\s+R\b/g;

export interface ContentMeasure {
  /** The deepest q nesting inside one stream. */
  deepest: number;
  /** Saves left open at the ends of all streams, added up. */
  leftOpen: number;
  /** The most decoded bytes one page's content streams hold together (a stream past the limit counts as limit + 1). */
  largestPageContent: number;
}

/**
 * Measures, over every stream of the file that may be content (unfiltered or Flate; images, font
 * programs and streams this does not inflate are skipped): q nesting, read with the content-stream
 * lexer so that a "q" inside a string or inline image does not count; and decoded sizes, added up per
 * page over the streams its /Contents names (found in the file's bytes and inside object streams), so
 * that one stream named many times counts as often as pdf.js would read it. Inflation stops at
 * `maxPageContentBytes`. Encrypted files are measured when they open with the empty user password under
 * the standard security handler (RC4, AES-128 and AES-256: stream-decrypt.ts), the way every reader opens
 * them; other encryption, which pdf.js then refuses for its password, is not measured.
 */
export function measureContent(bytes: Uint8Array, maxPageContentBytes: number): ContentMeasure {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: ContentMeasure = { deepest: 0, leftOpen: 0, largestPageContent: 0 };
  const decrypt = buf.includes('/Encrypt', 0, 'latin1') ? emptyPasswordDecryptor(buf) : undefined;
  if (decrypt === null) return out; // encrypted in a way this does not read: not measured
  const over = maxPageContentBytes + 1;
  const streamSize = new Map<number, number>();
  const contentLists: number[][] = [];
  let at = 0;
  for (;;) {
    const k = buf.indexOf(STREAM, at);
    if (k < 0) break;
    at = k + STREAM.length;
    if (k >= 3 && buf[k - 1] === 0x64 && buf[k - 2] === 0x6e && buf[k - 3] === 0x65) continue; // "endstream"
    let start = at;
    if (buf[start] === 0x0d) start++;
    if (buf[start] !== 0x0a && buf[at] !== 0x0d) continue;
    if (buf[start] === 0x0a) start++;
    const end = buf.indexOf(ENDSTREAM, start);
    if (end < 0) break;
    at = end + ENDSTREAM.length;
    const from = Math.max(0, k - 4096);
    const head = buf.toString('latin1', from, k);
    const header = lastMatch(OBJ_HEADER_RE, head);
    const dict = header ? head.slice(header.index) : head;
    if (NOT_CONTENT_RE.test(dict)) continue;
    let data: Uint8Array = buf.subarray(start, end);
    if (decrypt && header) data = decrypt(Number(header[1]), Number(header[2]), data);
    if (/\/Filter\b/.test(dict)) {
      const filters = dict.match(/\/Filter\s*(\[[^\]]*\]|\/\w+)/)?.[1] ?? '';
      if (!/^(\/(FlateDecode|Fl)|\[\s*\/(FlateDecode|Fl)\s*\])$/.test(filters)) continue;
      try {
        data = inflateSync(data, { finishFlush: zlibConstants.Z_SYNC_FLUSH, maxOutputLength: over });
      } catch (e) {
        if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
          // past the limit: as large as the check needs to know, whichever page names it
          if (header) streamSize.set(Number(header[1]), over);
          out.largestPageContent = Math.max(out.largestPageContent, over);
        }
        continue; // a damaged stream: pdf.js reads what it can
      }
    }
    if (header) streamSize.set(Number(header[1]), data.length);
    if (OBJECT_STREAM_RE.test(dict)) {
      collectContentLists(Buffer.from(data.buffer, data.byteOffset, data.byteLength), contentLists);
      continue;
    }
    const { deepest, open } = streamNesting(data);
    out.deepest = Math.max(out.deepest, deepest);
    out.leftOpen += open;
  }
  collectContentLists(buf, contentLists);
  for (const refs of contentLists) {
    let total = 0;
    for (const r of refs) total += streamSize.get(r) ?? 0;
    out.largestPageContent = Math.max(out.largestPageContent, Math.min(total, over));
  }
  return out;
}

/** Every `/Contents [n 0 R …]` or `/Contents n 0 R` in `text`, as lists of object numbers. */
function collectContentLists(text: Buffer, into: number[][]): void {
  for (let i = text.indexOf(CONTENTS); i >= 0; i = text.indexOf(CONTENTS, i + CONTENTS.length)) {
    const after = text.toString('latin1', i + CONTENTS.length, Math.min(text.length, i + CONTENTS.length + 64 * 1024));
    const m = /^\s*(\[[^\]]*\]|\d+\s+\d+\s+R\b)/.exec(after);
    if (m) into.push([...m[1].matchAll(REF_RE)].map((r) => Number(r[1])));
  }
}

function lastMatch(re: RegExp, text: string): RegExpExecArray | undefined {
  let last: RegExpExecArray | undefined;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) last = m;
  return last;
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

/**
 * Refuses (FILE_003) a PDF whose page content nests graphics states beyond what can be read in
 * bounded time, or decodes to more than `maxPageContentBytes` for one page.
 */
export function assertBoundedContent(bytes: Uint8Array, maxPageContentBytes: number): void {
  const { deepest, leftOpen, largestPageContent } = measureContent(bytes, maxPageContentBytes);
  if (largestPageContent > maxPageContentBytes) {
    const mb = Math.round(maxPageContentBytes / (1024 * 1024));
    throw new QuireError('FILE_003', `The PDF could not be read: a page's content streams decode to more than ${mb} MB, the limit (QUIRE_LIMIT_PAGE_CONTENT_MB)`, { reason: 'content_size_limit', maxPageContentBytes });
  }
  if (deepest > MAX_SAVE_DEPTH) {
    throw new QuireError('FILE_003', `The PDF could not be read: its content nests graphics states (q) ${deepest} deep, over the limit of ${MAX_SAVE_DEPTH}`, { reason: 'nesting', depth: deepest, maxDepth: MAX_SAVE_DEPTH });
  }
  if (leftOpen > MAX_OPEN_SAVES) {
    throw new QuireError('FILE_003', `The PDF could not be read: its content streams leave ${leftOpen} graphics states (q) open, over the limit of ${MAX_OPEN_SAVES}`, { reason: 'nesting', openSaves: leftOpen, maxOpenSaves: MAX_OPEN_SAVES });
  }
}
