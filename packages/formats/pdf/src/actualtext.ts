import { constants as zlibConstants, inflateSync } from 'node:zlib';
import type { PDFDict, PDFDocument, PDFRawStream, PDFRef } from 'pdf-lib';
import { L, decodeStream, loadPdfLib } from './pdf-lib-objects.js';
import { END, Lexer, OPERATOR, OP_BDC, OP_BI, OP_BMC, OP_DO, type Operand, isName } from './content-stream.js';
import type { OperatorListLike } from './painting.js';

/*
 * Marked-content replacement text (/ActualText on a BDC span, PDF 32000-1 §14.9.4).
 *
 * pdf.js's operator list keeps only a span's tag and MCID (beginMarkedContentProps [tag, mcid]), not its
 * properties dictionary, so the replacement text is read from the content streams themselves with
 * pdf-lib: the page's content stream(s) and, in drawing order, the form XObjects it paints (pdf.js
 * inlines their operators between paintFormXObjectBegin/End). The n-th marked-content begin (BDC or
 * BMC) found this way is the n-th begin in pdf.js's list, leaving out the optional-content ones on both
 * sides: pdf.js adds "OC" begins of its own around images and forms that carry /OC, and ActualText never
 * sits on an optional-content span. The tags are compared one by one; if the two sequences differ (a
 * broken stream pdf.js recovered from differently, an XObject it skipped), the page keeps its glyphs as
 * drawn rather than put replacement text in the wrong place.
 *
 * Limits: ActualText on structure elements (the StructTreeRoot's /ActualText, not on a BDC) is not read;
 * encrypted documents are skipped (pdf-lib does not decrypt streams); content in annotation appearances,
 * Type 3 glyph procedures and patterns is not in the page's operator list and is not looked at.
 */

/** One marked-content begin of a content stream, in drawing order. */
export interface MarkedSpan { tag: string; actualText?: string }

const MAX_FORM_DEPTH = 16;


/**
 * The marked-content spans of a document's pages, read with pdf-lib. pdf-lib parses every object of the
 * file up front (tens of milliseconds for a few thousand objects), and most tagged documents have no
 * replacement text at all, so the file is first searched for the name ActualText (mayHaveActualText,
 * a native byte search and inflate); only a file that has it is parsed, once, on the first page that asks.
 */
export class MarkedContentReader {
  private doc?: Promise<PDFDocument | undefined>;
  private maybe?: boolean;

  constructor(private readonly bytes: Uint8Array) {}

  /** Whether the file was parsed with pdf-lib (for tests and measurements). */
  get parsed(): boolean { return this.doc !== undefined; }

  /**
   * The document as pdf-lib parses it (once, shared with the span reading), for other readers of its
   * objects (embedded-cmap.ts); undefined when pdf-lib cannot read it (encrypted, damaged).
   */
  document(): Promise<PDFDocument | undefined> {
    return (this.doc ??= loadDoc(this.bytes));
  }

  /**
   * The page's spans (1-indexed page); undefined when the document has no replacement text anywhere or
   * cannot be read this way (encrypted, damaged beyond pdf-lib).
   */
  async spans(pageNumber: number): Promise<MarkedSpan[] | undefined> {
    this.maybe ??= mayHaveActualText(this.bytes);
    if (!this.maybe) return undefined;
    this.doc ??= loadDoc(this.bytes);
    const doc = await this.doc;
    if (!doc || pageNumber < 1 || pageNumber > doc.getPageCount()) return undefined;
    const node = doc.getPage(pageNumber - 1).node;
    const contents = node.Contents();
    const parts: Uint8Array[] = [];
    if (contents instanceof L.PDFArray) {
      for (let i = 0; i < contents.size(); i++) {
        const s = contents.lookup(i);
        if (s instanceof L.PDFRawStream) parts.push(decodeStream(s));
      }
    } else if (contents instanceof L.PDFRawStream) parts.push(decodeStream(contents));
    // pdf.js reads an array of content streams as one stream, with a separator between the parts
    const out: MarkedSpan[] = [];
    scanContent(joinParts(parts), node.Resources(), out, new Set(), 0);
    return out;
  }
}

const ACTUAL_TEXT = Buffer.from('ActualText', 'latin1');
const STREAM = Buffer.from('stream', 'latin1');
const ENDSTREAM = Buffer.from('endstream', 'latin1');
/** Streams that never hold marked content or property lists: images and embedded font programs. */
const NOT_CONTENT_RE = /\/Subtype\s*\/Image|\/Length[123]\b|\/Subtype\s*\/(Type1C|CIDFontType0C|OpenType)\b/;
const OTHER_FILTER_RE = /\/(ASCIIHexDecode|ASCII85Decode|LZWDecode|RunLengthDecode|AHx|A85|LZW|RL|Crypt)\b/;

/**
 * Whether the file may have replacement text: the name ActualText in its bytes as stored or in one of
 * its Flate streams once inflated (content streams and object streams, where property lists and
 * inline span dictionaries live; images and font programs are not inflated). A stream with a filter
 * this does not inflate answers yes, and so does the byte search failing to find its way (a stream that
 * does not inflate). Encrypted files answer no: their streams cannot be read this way at all.
 */
export function mayHaveActualText(bytes: Uint8Array): boolean {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.includes(ACTUAL_TEXT)) return true;
  if (buf.includes('/Encrypt', 0, 'latin1')) return false;
  let at = 0;
  for (;;) {
    const k = buf.indexOf(STREAM, at);
    if (k < 0) return false;
    at = k + STREAM.length;
    // the keyword "stream" (not the end of "endstream") followed by an end of line
    if (k >= 3 && buf[k - 1] === 0x64 && buf[k - 2] === 0x6e && buf[k - 3] === 0x65) continue;
    let start = at;
    if (buf[start] === 0x0d) start++;
    if (buf[start] !== 0x0a && buf[at] !== 0x0d) continue;
    if (buf[start] === 0x0a) start++;
    // the stream's dictionary: back to its "obj" keyword, within 4 KB (a damaged file without one costs no more)
    const from = Math.max(0, k - 4096);
    const dict = buf.toString('latin1', from + Math.max(0, buf.subarray(from, k).lastIndexOf('obj', undefined, 'latin1')), k);
    const end = buf.indexOf(ENDSTREAM, start);
    if (end < 0) return true;
    at = end + ENDSTREAM.length;
    if (!/\/Filter\b/.test(dict) || NOT_CONTENT_RE.test(dict)) continue;
    if (OTHER_FILTER_RE.test(dict) || !/\/(FlateDecode|Fl)\b/.test(dict)) {
      if (/\/(DCTDecode|JPXDecode|JBIG2Decode|CCITTFaxDecode|DCT|CCF)\b/.test(dict)) continue; // image data
      return true;
    }
    try {
      const data = inflateSync(buf.subarray(start, end), { finishFlush: zlibConstants.Z_SYNC_FLUSH });
      if (data.includes(ACTUAL_TEXT)) return true;
    } catch {
      return true;
    }
  }
}

async function loadDoc(bytes: Uint8Array): Promise<PDFDocument | undefined> {
  try {
    await loadPdfLib();
    const doc = await L.PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: false, parseSpeed: 1500 });
    return doc.isEncrypted ? undefined : doc;
  } catch {
    return undefined;
  }
}

function joinParts(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length + 1, 0));
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; out[o++] = 0x0a; }
  return out;
}

/**
 * Whether pdf.js's operator list has a span that could carry replacement text: a BDC other than optional
 * content. Untagged pages have none, so their content streams are never read a second time.
 */
export function needsMarkedContent(ops: OperatorListLike, OPS: Record<string, number>): boolean {
  const { fnArray, argsArray } = ops;
  for (let i = 0; i < fnArray.length; i++) {
    if (fnArray[i] === OPS.beginMarkedContentProps && tagOf(argsArray[i]) !== 'OC') return true;
  }
  return false;
}

/**
 * Matches the content streams' spans to the op list's begins: op index of a begin → its replacement text.
 * Undefined when the two disagree (count or tags).
 */
export function alignActualText(
  ops: OperatorListLike, OPS: Record<string, number>, spans: readonly MarkedSpan[],
): Map<number, string> | undefined {
  const own = spans.filter((s) => s.tag !== 'OC');
  if (!own.some((s) => s.actualText !== undefined)) return new Map();
  const out = new Map<number, string>();
  const { fnArray, argsArray } = ops;
  let k = 0;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    if (fn !== OPS.beginMarkedContentProps && fn !== OPS.beginMarkedContent) continue;
    const tag = tagOf(argsArray[i]);
    if (tag === 'OC') continue;
    const s = own[k++];
    if (!s || s.tag !== tag) return undefined;
    if (s.actualText !== undefined) out.set(i, s.actualText);
  }
  return k === own.length ? out : undefined;
}

/** pdf.js passes BDC's tag as a string and BMC's as its Name object (cloned to { name }). */
function tagOf(args: unknown): string | undefined {
  const a = (args as unknown[] | null)?.[0];
  if (typeof a === 'string') return a;
  if (a && typeof a === 'object' && typeof (a as { name?: unknown }).name === 'string') return (a as { name: string }).name;
  return undefined;
}

// ---- content stream scanning -------------------------------------------------------------------------

/**
 * Walks a content stream's operators, keeping operands only as far as marked content needs them: BDC /
 * BMC record a span (with the ActualText of its inline or /Properties dictionary), Do descends into form
 * XObjects (their own /Resources, else the parent's), inline image data is skipped.
 */
function scanContent(bytes: Uint8Array, resources: PDFDict | undefined, out: MarkedSpan[], active: Set<PDFRef | PDFRawStream>, depth: number): void {
  const lx = new Lexer(bytes);
  // only the last two operands matter (BDC's tag and properties; BMC's tag and Do's name are the last one)
  let prev: Operand | undefined, last: Operand | undefined;
  for (;;) {
    const tok = lx.top();
    if (tok === END) break;
    if (tok !== OPERATOR) { prev = last; last = tok; continue; }
    switch (lx.op) {
      case OP_BDC: {
        const tag = isName(prev) ? prev.name : 'OC';
        const span: MarkedSpan = { tag };
        const text = tag === 'OC' ? undefined : actualTextOf(last, resources);
        if (text !== undefined) span.actualText = text;
        out.push(span);
        break;
      }
      case OP_BMC: out.push({ tag: isName(last) ? last.name : '' }); break;
      case OP_DO: if (isName(last) && depth < MAX_FORM_DEPTH) paintForm(last.name, resources, out, active, depth); break;
      case OP_BI: lx.skipInlineImage(); break;
      default:
    }
    prev = last = undefined;
  }
}

function paintForm(name: string, resources: PDFDict | undefined, out: MarkedSpan[], active: Set<PDFRef | PDFRawStream>, depth: number): void {
  const xobjects = resources?.lookupMaybe(L.PDFName.of('XObject'), L.PDFDict);
  if (!xobjects) return;
  const raw = xobjects.get(L.PDFName.of(name));
  const xobj = raw instanceof L.PDFRef ? xobjects.context.lookup(raw) : raw;
  if (!(xobj instanceof L.PDFRawStream)) return;
  const subtype = xobj.dict.get(L.PDFName.of('Subtype'));
  if (!(subtype instanceof L.PDFName) || subtype.asString() !== '/Form') return;
  // a form that paints itself: pdf.js refuses the inner one, so nothing of it is in the op list
  const key = raw instanceof L.PDFRef ? raw : xobj;
  if (active.has(key)) return;
  active.add(key);
  try {
    const own = xobj.dict.lookupMaybe(L.PDFName.of('Resources'), L.PDFDict);
    scanContent(decodeStream(xobj), own ?? resources, out, active, depth + 1);
  } finally {
    active.delete(key);
  }
}

function actualTextOf(props: Operand | undefined, resources: PDFDict | undefined): string | undefined {
  if (props instanceof Map) {
    const v = props.get('ActualText');
    return v && typeof v === 'object' && 'str' in v ? decodeTextString(v.str) : undefined;
  }
  if (isName(props)) {
    const dict = resources?.lookupMaybe(L.PDFName.of('Properties'), L.PDFDict)?.lookupMaybe(L.PDFName.of(props.name), L.PDFDict);
    const v = dict?.lookup(L.PDFName.of('ActualText'));
    if (v instanceof L.PDFString || v instanceof L.PDFHexString) return decodeTextString(v.asBytes());
  }
  return undefined;
}

/**
 * A PDF text string (§7.9.2.2): UTF-16BE after a FE FF byte order mark, UTF-8 after EF BB BF (PDF 2.0),
 * PDFDocEncoding otherwise (pdf-lib's decoders; pdf-lib must be loaded, see loadPdfLib). Language escapes
 * in UTF-16 (U+001B, language code, U+001B) are dropped.
 */
export function decodeTextString(b: Uint8Array): string {
  if (L.hasUtf16BOM(b)) return L.utf16Decode(b).replace(/\u001b[^\u001b]*\u001b/g, '');
  if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return new TextDecoder().decode(b.subarray(3));
  return L.pdfDocEncodingDecode(b);
}
