import { assignIds, QuireError, resolveLimits, type Document, type DocumentParser, type Element, type Page, type TextElement } from '@quire/core';
import { openSafeZip, parseChartXml, parseRels, parseXmlOrdered, relsPathFor, type SafeZip } from '@quire/format-ooxml';
import { BodyWalker, clean, sectionTypes, type BodyEnv, type PendingFigure } from './body.js';
import { InlineWalker, type Rels } from './inline.js';
import { Numbering } from './numbering.js';
import { attr, child, descendantsNamed, kids, nameOf, rootOf, type X } from './ox.js';
import { readStyles } from './styles.js';
import { linkCaptions, promoteTitle } from './post.js';
import { formatNumber } from './numbering.js';

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/';
const MIME: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', bmp: 'image/bmp', tif: 'image/tiff', tiff: 'image/tiff',
  emf: 'image/emf', wmf: 'image/wmf', svg: 'image/svg+xml', webp: 'image/webp',
};

/** What the body walk reads from the container: entry text by name (a SafeZip, or entries read by range). */
export type DocxPartReader = Pick<SafeZip, 'text' | 'has'>;

async function mainPart(zip: DocxPartReader): Promise<string> {
  const rels = parseRels(await zip.text('_rels/.rels'), '');
  for (const r of rels.values()) if (r.type.endsWith('/officeDocument') && zip.has(r.target)) return r.target;
  if (zip.has('word/document.xml')) return 'word/document.xml';
  throw new QuireError('FILE_003', 'File corrupted: DOCX without word/document.xml');
}

async function readPart(zip: DocxPartReader, name: string): Promise<{ root: X; rels: Rels } | undefined> {
  const xml = await zip.text(name);
  if (xml === undefined) return undefined;
  let root: X | undefined;
  try {
    root = rootOf(parseXmlOrdered(xml, name));
  } catch (e) {
    if ((e as { code?: string }).code) throw e;
    throw new QuireError('FILE_003', `File corrupted: ${name} is not well-formed XML`, { reason: (e as Error).message });
  }
  if (!root) throw new QuireError('FILE_003', `File corrupted: ${name} is empty`);
  return { root, rels: parseRels(await zip.text(relsPathFor(name)), name) };
}

const relOfType = (rels: Rels, type: string) => [...rels.values()].find((r) => r.type === REL + type || r.type.endsWith(`/${type}`));

interface Note { type: 'footnote' | 'endnote'; id: string; symbol: string; page: number; refs: TextElement[] }

/**
 * DOCX → document model, from the OOXML parts themselves (styles for heading levels, numbering for
 * lists, w:tbl grid spans and vertical merges). No geometry (box null); page numbers as explained in
 * body.ts. Headers and footers are emitted once (first page / last page), footnotes at the end of the
 * page of their first reference, endnotes at the end of the document.
 */
export const parse: DocumentParser = async (bytes, options = {}) => {
  const limits = resolveLimits(options);
  const zip = await openSafeZip(bytes, limits);
  const { main, body, styles, numbering } = await readMain(zip);

  const notes = new Map<string, Note>();
  let pendingRefs: Note[] = [];
  let walker: BodyWalker;
  const noteRef = (type: 'footnote' | 'endnote', id: string) => {
    const key = `${type}:${id}`;
    let note = notes.get(key);
    if (!note) {
      const n = [...notes.values()].filter((x) => x.type === type).length + 1;
      note = { type, id, symbol: type === 'footnote' ? String(n) : formatNumber(n, 'lowerRoman'), page: walker.page, refs: [] };
      notes.set(key, note);
    }
    pendingRefs.push(note);
    return note.symbol;
  };
  const env: BodyEnv = { rels: main.rels, maxDepth: limits.maxXmlDepth, styles, numbering, noteRef, mode: pageMode(body), sectionTypes: sectionTypes(body) };
  walker = new BodyWalker(env);
  walker.onElement = (el) => {
    if (el.kind === 'text') for (const n of pendingRefs) if (!n.refs.includes(el)) n.refs.push(el);
    pendingRefs = [];
  };
  walker.blocks(kids(body));
  const figures: { pending: PendingFigure; rels: Rels }[] = walker.figures.map((pending) => ({ pending, rels: main.rels }));

  const pageCount = Math.max(1, walker.page);
  const header = await furniture(zip, body, main.rels, 'Header', env, figures);
  const footer = await furniture(zip, body, main.rels, 'Footer', env, figures);
  const noteEls = await readNotes(zip, main.rels, notes, env);
  const warnings: string[] = [];
  await loadFigures(zip, figures, limits.maxXmlDepth, warnings);

  const elements: Element[][] = Array.from({ length: pageCount }, () => []);
  for (const el of walker.elements) elements[Math.min(pageCount, el.page) - 1].push(el);
  elements[0].unshift(...header.map((e) => ({ ...e, page: 1 })));
  for (const { note, el } of noteEls) {
    const p = note.type === 'footnote' ? Math.min(pageCount, note.page) : pageCount;
    el.page = p;
    elements[p - 1].push(el);
  }
  elements[pageCount - 1].push(...footer.map((e) => ({ ...e, page: pageCount })));

  const pages: Page[] = elements.map((els, i) => ({ number: i + 1, width: 0, height: 0, elements: els, words: [], selectionMarks: [] }));
  const all = pages.flatMap((p) => p.elements);
  promoteTitle(all);
  const captions = linkCaptions(all);
  const wanted = options.pages ? new Set(options.pages) : undefined;
  const doc: Document = {
    format: 'docx', pageCount, pages: wanted ? pages.filter((p) => wanted.has(p.number)) : pages, warnings,
  };
  if (env.mode === 'explicit' && pageCount > 1) doc.warnings.push('Page numbers come from explicit page breaks (the file has no saved page layout)');
  assignIds(doc);
  for (const [cap, target] of captions) if (target.id) cap.captionFor = target.id;
  const referenced = noteEls.filter(({ el }) => el.id);
  if (referenced.length > 0) {
    doc.footnotes = referenced.map(({ note, el }) => ({
      symbol: note.symbol, footnoteTextId: el.id!, referenceTextIds: note.refs.map((r) => r.id).filter((id): id is string => !!id),
    }));
  }
  for (let i = 0; i < doc.pages.length; i++) await options.onPage?.(i + 1, doc.pages.length);
  return doc;
};

async function readMain(zip: DocxPartReader) {
  const main = (await readPart(zip, await mainPart(zip)))!;
  const body = child(main.root, 'body');
  if (!body) throw new QuireError('FILE_003', 'File corrupted: word/document.xml has no body');
  const styles = readStyles(await zip.text(relOfType(main.rels, 'styles')?.target ?? 'word/styles.xml'));
  const numbering = new Numbering(await zip.text(relOfType(main.rels, 'numbering')?.target ?? 'word/numbering.xml'));
  return { main, body, styles, numbering };
}

const pageMode = (body: X) => ([...descendantsNamed(body, 'lastRenderedPageBreak')].length > 0 ? 'rendered' as const : 'explicit' as const);

/**
 * The document's page count exactly as `parse` numbers its pages (the same body walk, without reading
 * headers, notes or pictures): what intake validates a `pages` range against and quotes credits by, so
 * a page the extraction will produce is never refused as outside the document.
 */
export async function countDocxPages(zip: DocxPartReader, options: { maxXmlDepth?: number } = {}): Promise<number> {
  const { main, body, styles, numbering } = await readMain(zip);
  const walker = new BodyWalker({
    rels: main.rels, maxDepth: options.maxXmlDepth ?? resolveLimits().maxXmlDepth, styles, numbering,
    noteRef: () => '', mode: pageMode(body), sectionTypes: sectionTypes(body),
  });
  walker.blocks(kids(body));
  return Math.max(1, walker.page);
}

/** Header or footer parts referenced by the section properties, each read once, in order, without repeats. */
async function furniture(zip: SafeZip, body: X, rels: Rels, kind: 'Header' | 'Footer', env: BodyEnv, figures: { pending: PendingFigure; rels: Rels }[]): Promise<Element[]> {
  const refName = kind === 'Header' ? 'headerReference' : 'footerReference';
  const targets: string[] = [];
  for (const ref of descendantsNamed(body, refName)) {
    const t = rels.get(attr(ref, 'id') ?? '')?.target;
    if (t && !targets.includes(t)) targets.push(t);
  }
  const out: Element[] = [];
  const seen = new Set<string>();
  for (const t of targets) {
    const part = await readPart(zip, t);
    if (!part) continue;
    const w = new BodyWalker({ ...env, rels: part.rels, noteRef: undefined, mode: 'explicit', sectionTypes: [] });
    w.furniture = kind;
    w.blocks(kids(part.root));
    for (const el of w.elements) {
      const key = el.kind === 'text' ? `${el.category}:${el.text}` : '';
      if (el.kind === 'figure' || (el.kind === 'text' && !seen.has(key))) { out.push(el); seen.add(key); }
    }
    figures.push(...w.figures.map((pending) => ({ pending, rels: part.rels })));
  }
  return out;
}

/** The text of each referenced footnote / endnote, as a Text element marked extra.footnote. */
async function readNotes(zip: SafeZip, rels: Rels, notes: Map<string, Note>, env: BodyEnv): Promise<{ note: Note; el: TextElement }[]> {
  const out: { note: Note; el: TextElement }[] = [];
  for (const type of ['footnote', 'endnote'] as const) {
    const wanted = [...notes.values()].filter((n) => n.type === type);
    if (wanted.length === 0) continue;
    const part = await readPart(zip, relOfType(rels, `${type}s`)?.target ?? `word/${type}s.xml`);
    if (!part) continue;
    const byId = new Map(kids(part.root).filter((n) => nameOf(n) === type).map((n) => [attr(n, 'id') ?? '', n]));
    for (const note of wanted) {
      const node = byId.get(note.id);
      if (!node) continue;
      const text = kids(node).filter((p) => nameOf(p) === 'p').map((p) => clean(InlineWalker.read(p, { ...env, rels: part.rels, noteRef: undefined }).text)).filter(Boolean).join('\n');
      if (!text) continue;
      out.push({ note, el: { kind: 'text', category: 'Text', text: `${note.symbol} ${text}`, box: null, page: 1, confidence: 1, extra: { footnote: true, noteType: type, symbol: note.symbol } } });
    }
  }
  return out;
}

/**
 * Pictures get their bytes; charts their series, title and axis titles from the chart part's caches (the same
 * reader as pptx and xlsx charts), so a chart in a Word file is data, not a bare placeholder.
 */
async function loadFigures(zip: SafeZip, figures: { pending: PendingFigure; rels: Rels }[], maxDepth: number, warnings: string[]): Promise<void> {
  for (const { pending: { figure, ref }, rels } of figures) {
    const rel = rels.get(ref.rId);
    if (!rel) continue;
    if (rel.external) { figure.extra = { ...figure.extra, src: rel.target }; continue; }
    if (ref.chart) {
      const xml = await zip.text(rel.target);
      if (xml === undefined) { warnings.push(`Chart part ${rel.target} is missing; kept as a chart without data`); continue; }
      try {
        const { plots: _plots, ...data } = parseChartXml(xml, rel.target, maxDepth);
        figure.chart = data;
        if (data.title) figure.text = data.title;
      } catch (e) {
        // a damaged or too deeply nested chart part costs its data, not the document's text
        warnings.push(`Chart part ${rel.target} could not be read (${(e as Error).message}); kept as a chart without data`);
      }
      continue;
    }
    const bytes = await zip.bytes(rel.target);
    const ext = rel.target.split('.').pop()?.toLowerCase() ?? '';
    if (bytes) figure.image = { bytes, mime: MIME[ext] ?? 'application/octet-stream' };
  }
}
