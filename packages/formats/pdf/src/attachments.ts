import { inflateSync } from 'node:zlib';
import type { PDFArray, PDFDict, PDFDocument, PDFObject } from 'pdf-lib';
import { L } from './pdf-lib-objects.js';

/*
 * Files embedded in a PDF (PDF 32000-1 §7.11.4, PDF/A-3 associated files): the document's
 * /Names /EmbeddedFiles tree, and the /AF arrays of the catalog and of the pages. E-invoices
 * (Factur-X, ZUGFeRD, XRechnung in PDF) carry their structured data this way.
 *
 * Untrusted input: a file's decoded size is capped (the inflate stops at the cap, so a small stream that
 * expands without end costs no more than the cap), so are the number of files and the depth of the name
 * tree. A file refused or unreadable is reported in `warnings` and left out; the rest is read.
 */

export interface EmbeddedFile {
  /** The file's name (/UF, else /F). */
  name: string;
  /** MIME type from the stream's /Subtype ("text/xml"), null when not given. */
  mime: string | null;
  /** /AFRelationship of the file specification (Data, Alternative, Source, …), null when not given. */
  relationship: string | null;
  description: string | null;
  bytes: Uint8Array;
}

export interface AttachmentLimits {
  /** Largest decoded size of one file (bytes). */
  maxBytes: number;
  /** Most files read; the rest are left out with a warning. */
  maxFiles: number;
}

export const DEFAULT_ATTACHMENT_LIMITS: AttachmentLimits = { maxBytes: 16 * 1024 * 1024, maxFiles: 32 };

const MAX_TREE_DEPTH = 16;
const EMBEDDED = Buffer.from('EmbeddedFile', 'latin1');

/**
 * Whether the file may hold embedded files: an embedded file's stream (never inside an object stream)
 * is typed /EmbeddedFile, and an uncompressed name tree says /EmbeddedFiles. Files without the word
 * are never parsed a second time for attachments.
 */
export function mayHaveAttachments(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(EMBEDDED);
}

/** The embedded files of a document parsed with pdf-lib (loaded: see pdf-lib-objects.ts), each once. */
export function readAttachments(doc: PDFDocument, warnings: string[], limits: AttachmentLimits = DEFAULT_ATTACHMENT_LIMITS): EmbeddedFile[] {
  const specs: PDFDict[] = [];
  const seen = new Set<PDFDict>();
  const add = (o: PDFObject | undefined) => {
    const d = o ? doc.context.lookup(o) : undefined;
    if (d instanceof L.PDFDict && !seen.has(d)) { seen.add(d); specs.push(d); }
  };
  const catalog = doc.catalog;
  const names = lookup(doc, catalog, 'Names');
  const tree = names instanceof L.PDFDict ? lookup(doc, names, 'EmbeddedFiles') : undefined;
  if (tree instanceof L.PDFDict) walkNameTree(doc, tree, add, new Set(), 0);
  const afOf = (d: PDFDict) => {
    const af = lookup(doc, d, 'AF');
    if (af instanceof L.PDFArray) for (let i = 0; i < af.size(); i++) add(af.get(i));
  };
  afOf(catalog);
  try {
    for (const page of doc.getPages()) afOf(page.node);
  } catch { /* a broken page tree: the catalog's files are still read */ }

  // the cap bounds the work: files tried, refused ones included
  if (specs.length > limits.maxFiles) warnings.push(`The PDF embeds ${specs.length} files; only the first ${limits.maxFiles} were read`);
  return specs.slice(0, limits.maxFiles).map((spec) => readSpec(doc, spec, limits, warnings)).filter((f): f is EmbeddedFile => Boolean(f));
}

function lookup(doc: PDFDocument, d: PDFDict, key: string): PDFObject | undefined {
  const v = d.get(L.PDFName.of(key));
  return v ? doc.context.lookup(v) : undefined;
}

/** A name tree's values: /Names [key value …] at its leaves, /Kids below its inner nodes. */
function walkNameTree(doc: PDFDocument, node: PDFDict, add: (o: PDFObject | undefined) => void, visited: Set<PDFDict>, depth: number): void {
  if (depth > MAX_TREE_DEPTH || visited.has(node)) return;
  visited.add(node);
  const pairs = lookup(doc, node, 'Names');
  if (pairs instanceof L.PDFArray) for (let i = 1; i < pairs.size(); i += 2) add(pairs.get(i));
  const kids = lookup(doc, node, 'Kids');
  if (kids instanceof L.PDFArray) {
    for (let i = 0; i < kids.size(); i++) {
      const kid = doc.context.lookup(kids.get(i));
      if (kid instanceof L.PDFDict) walkNameTree(doc, kid, add, visited, depth + 1);
    }
  }
}

const text = (o: PDFObject | undefined): string | null => {
  if (o instanceof L.PDFString || o instanceof L.PDFHexString) return o.decodeText();
  if (o instanceof L.PDFName) return o.decodeText();
  return null;
};

function readSpec(doc: PDFDocument, spec: PDFDict, limits: AttachmentLimits, warnings: string[]): EmbeddedFile | undefined {
  const name = text(lookup(doc, spec, 'UF')) || text(lookup(doc, spec, 'F')) || 'unnamed';
  const ef = lookup(doc, spec, 'EF');
  if (!(ef instanceof L.PDFDict)) return undefined; // a reference to an external file: nothing embedded
  const stream = lookup(doc, ef, 'UF') ?? lookup(doc, ef, 'F');
  if (!(stream instanceof L.PDFRawStream)) return undefined;
  const bytes = decodeBounded(stream, limits.maxBytes);
  if (typeof bytes === 'string') {
    warnings.push(`The embedded file "${name}" was not read: ${bytes}`);
    return undefined;
  }
  const subtype = stream.dict.lookup(L.PDFName.of('Subtype'));
  const rel = spec.lookup(L.PDFName.of('AFRelationship'));
  return {
    name,
    mime: subtype instanceof L.PDFName ? subtype.decodeText() : null,
    relationship: rel instanceof L.PDFName ? rel.decodeText() : null,
    description: text(lookup(doc, spec, 'Desc')),
    bytes,
  };
}

/**
 * A stream's bytes, decoded no further than `max`: unfiltered or Flate (the filters attachment writers
 * use). Other filters and predictors are not decoded here (their output size cannot be bounded up front).
 * Returns why when refused.
 */
function decodeBounded(s: import('pdf-lib').PDFRawStream, max: number): Uint8Array | string {
  const filter = s.dict.lookup(L.PDFName.of('Filter'));
  const filters = filter instanceof L.PDFArray ? (filter as PDFArray).asArray().map((f) => (f instanceof L.PDFName ? f.asString() : '?')) : filter instanceof L.PDFName ? [filter.asString()] : [];
  if (!filters.length) return s.contents.length > max ? `larger than ${mib(max)}` : s.contents;
  if (filters.length > 1 || filters[0] !== '/FlateDecode' || s.dict.has(L.PDFName.of('DecodeParms'))) return `its encoding (${filters.join(' ')}) is not read`;
  try {
    // inflate stops with an error past maxOutputLength: a stream that expands without end costs no more than `max`
    return inflateSync(s.contents, { maxOutputLength: max });
  } catch (e) {
    return (e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError ? `it decodes to more than ${mib(max)}` : 'its compressed data is damaged';
  }
}

const mib = (n: number) => (n >= 1048576 ? `${Math.round((n / 1048576) * 10) / 10} MiB` : `${n} bytes`);
