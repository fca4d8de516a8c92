import { constants as zlibConstants, inflateSync } from 'node:zlib';
import type { PDFDict, PDFDocument, PDFObject, PDFPage, PDFRawStream, PDFRef, PDFStream } from 'pdf-lib';

/*
 * pdf-lib's side of the PDF layer: the module, loaded once, and what reading and editing a document's
 * objects needs (stream bytes, a page's content streams and resources). Every function here but
 * loadPdfLib expects pdf-lib loaded: a document comes from loadEditablePdf or MarkedContentReader,
 * which load it first.
 */

/**
 * pdf-lib, imported on first use (about 0.2 s of module loading that a process reading only untagged
 * PDFs never pays). Set before any content stream is scanned.
 */
export let L: typeof import('pdf-lib');

/** Imports pdf-lib once (see L). */
export async function loadPdfLib(): Promise<void> {
  L ??= await import('pdf-lib');
}

/**
 * A stream's decoded bytes. Flate, by far the commonest content stream filter, goes through Node's zlib
 * (several times faster than pdf-lib's JavaScript inflate; a truncated stream gives what it has, as
 * pdf.js does); other filters and chains through pdf-lib.
 */
export function decodeStream(s: PDFRawStream): Uint8Array {
  const filter = s.dict.lookup(L.PDFName.of('Filter'));
  if (filter === undefined) return s.contents;
  const only = filter instanceof L.PDFArray && filter.size() === 1 ? filter.lookup(0) : filter;
  if (only instanceof L.PDFName && only.asString() === '/FlateDecode' && !s.dict.has(L.PDFName.of('DecodeParms'))) {
    try {
      return inflateSync(s.contents, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
    } catch { /* a damaged stream: pdf-lib's decoder below is more forgiving */ }
  }
  return L.decodePDFRawStream(s).decode();
}

/** Decoded bytes of a stream; null when a filter cannot be decoded (the stream is then left alone). */
export function streamBytes(s: PDFStream): Uint8Array | null {
  try {
    if (s instanceof L.PDFRawStream) return decodeStream(s);
    const built = s as unknown as { getUnencodedContents?: () => Uint8Array };
    return built.getUnencodedContents ? built.getUnencodedContents() : s.getContents();
  } catch {
    return null;
  }
}

/** Replaces the object behind `ref` with a Flate stream holding `bytes`, keeping the rest of its dictionary. */
export function replaceStream(doc: PDFDocument, ref: PDFRef, old: PDFStream, bytes: Uint8Array): void {
  const extra: Record<string, unknown> = {};
  for (const [k, v] of old.dict.entries()) {
    const key = k.asString().slice(1);
    if (!['Filter', 'DecodeParms', 'Length', 'DL'].includes(key)) extra[key] = v;
  }
  doc.context.assign(ref, doc.context.flateStream(bytes, extra as never));
}

/** The page's content streams with their refs, in order. */
export function pageContents(doc: PDFDocument, page: PDFPage): { ref: PDFRef; stream: PDFStream }[] {
  const c = page.node.get(L.PDFName.of('Contents'));
  const refs: PDFRef[] = [];
  if (c instanceof L.PDFRef) {
    const o = doc.context.lookup(c);
    if (o instanceof L.PDFArray) o.asArray().forEach((x) => x instanceof L.PDFRef && refs.push(x));
    else refs.push(c);
  } else if (c instanceof L.PDFArray) c.asArray().forEach((x) => x instanceof L.PDFRef && refs.push(x));
  return refs.map((ref) => ({ ref, stream: doc.context.lookup(ref) })).filter((x): x is { ref: PDFRef; stream: PDFStream } => x.stream instanceof L.PDFStream);
}

/** The page's resource dictionary, inherited from the page tree when the page has none. */
export function pageResources(doc: PDFDocument, page: PDFPage): PDFDict | undefined {
  let node: PDFDict | undefined = page.node;
  for (let depth = 0; node && depth < 32; depth++) {
    const r = node.get(L.PDFName.of('Resources'));
    const d = r ? doc.context.lookup(r) : undefined;
    if (d instanceof L.PDFDict) return d;
    const p: PDFObject | undefined = node.get(L.PDFName.of('Parent'));
    const next: PDFObject | undefined = p ? doc.context.lookup(p) : undefined;
    node = next instanceof L.PDFDict ? next : undefined;
  }
  return undefined;
}

/** The dictionary `d[key]`, through a reference if it is one. */
export function lookupDict(doc: PDFDocument, d: PDFDict | undefined, key: string): PDFDict | undefined {
  const v = d?.get(L.PDFName.of(key));
  const o = v ? doc.context.lookup(v) : undefined;
  return o instanceof L.PDFDict ? o : undefined;
}
