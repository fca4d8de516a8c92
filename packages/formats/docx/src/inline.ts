import { QuireError } from '@quire/core';
import { ommlToLatex } from './math.js';
import { attr, child, innerText, isOn, kids, nameOf, path, type X } from './ox.js';

export type Rels = Map<string, { target: string; type: string; external: boolean }>;

export interface FigureRef { rId: string; alt: string; chart: boolean }

/** Everything a paragraph's runs yield. */
export interface Inline {
  text: string;
  links: { text: string; href: string }[];
  figures: FigureRef[];
  /** w:txbxContent nodes, read afterwards as blocks of their own. */
  textBoxes: X[];
  /** Page breaks before any text (they move the paragraph itself) and after text started. */
  renderedBefore: number;
  renderedAfter: number;
  explicitBefore: number;
  explicitAfter: number;
  selected?: boolean;
  /** A PAGE / NUMPAGES field was seen (footers: the page number). */
  pageField: boolean;
  /** LaTeX of the paragraph's math zones: displayed ones (m:oMathPara) are not in `text`, inline ones are, as $…$. */
  displayMath: string[];
  inlineMath: string[];
  /** Text other than inline math was written (a paragraph of inline math alone is displayed math). */
  hasText: boolean;
}

export interface InlineEnv {
  rels: Rels;
  maxDepth: number;
  /** Called at a footnote/endnote reference; returns the symbol written into the text. */
  noteRef?: (type: 'footnote' | 'endnote', id: string) => string;
}

interface Field { instr: string; phase: 'instr' | 'result'; start: number }

/** Skipped: deleted text (tracked changes resolve to the accepted text), properties, comments, bookmarks. */
const SKIP = new Set(['pPr', 'rPr', 'del', 'moveFrom', 'delText', 'commentReference', 'commentRangeStart', 'commentRangeEnd',
  'bookmarkStart', 'bookmarkEnd', 'proofErr', 'permStart', 'permEnd', 'sdtPr', 'sdtEndPr', 'annotationRef', 'footnoteRef', 'endnoteRef',
  'separator', 'continuationSeparator', 'lastRenderedPageBreakMarker', 'rubyPr', 'rt']);

/** Wingdings / Symbol checkbox glyphs written with w:sym. */
const SYMBOLS: Record<string, string> = { F0FE: '☒', F0FD: '☒', F078: '☒', F0A8: '☐', F06F: '☐', F0A7: '▪', F0B7: '•' };

export class InlineWalker {
  private out: Inline = { text: '', links: [], figures: [], textBoxes: [], renderedBefore: 0, renderedAfter: 0, explicitBefore: 0, explicitAfter: 0, pageField: false, displayMath: [], inlineMath: [], hasText: false };
  private fields: Field[] = [];
  /** Where the last math zone (m:oMath) ended in the text, to keep the next one from running into it. */
  private mathEnd = -1;
  constructor(private env: InlineEnv) {}

  static read(p: X, env: InlineEnv): Inline {
    const w = new InlineWalker(env);
    w.walk(kids(p), 0);
    return w.out;
  }

  private get hidden() { return this.fields.some((f) => f.phase === 'instr'); }
  private emit(s: string) {
    if (this.hidden) return;
    this.out.text += s;
    if (s.trim()) this.out.hasText = true;
  }
  private get started() { return this.out.text.trim().length > 0; }

  private walk(nodes: X[], depth: number): void {
    if (depth > this.env.maxDepth) throw new QuireError('FILE_003', 'Document XML nests too deeply', { reason: 'xml_depth_limit' });
    for (const n of nodes) this.node(n, depth + 1);
  }

  private node(n: X, depth: number): void {
    const name = nameOf(n);
    if (SKIP.has(name)) return;
    switch (name) {
      case 'r': if (!isOn(path(n, 'rPr', 'vanish'))) this.walk(kids(n), depth); return;
      case 't': this.emit(innerText(n)); return;
      case 'instrText': { const f = this.fields[this.fields.length - 1]; if (f?.phase === 'instr') f.instr += innerText(n); return; }
      case 'tab': case 'ptab': this.emit('\t'); return;
      case 'cr': this.emit('\n'); return;
      case 'noBreakHyphen': this.emit('-'); return;
      case 'softHyphen': return;
      case 'sym': { const c = (attr(n, 'char') ?? '').toUpperCase(); this.emit(SYMBOLS[c] ?? (/^[0-9A-F]{4}$/.test(c) && c < 'F000' ? String.fromCharCode(parseInt(c, 16)) : '')); return; }
      case 'br': return this.br(n);
      case 'lastRenderedPageBreak': if (this.started) this.out.renderedAfter++; else this.out.renderedBefore++; return;
      case 'fldChar': return this.fldChar(n);
      case 'fldSimple': return this.simpleField(n, depth);
      case 'hyperlink': return this.hyperlink(n, depth);
      case 'drawing': case 'pict': case 'object': return this.drawing(n);
      case 'AlternateContent': return this.walk(pickAlternate(n), depth);
      case 'oMathPara': {
        // displayed math: each zone a formula of its own line
        for (const m of kids(n)) if (nameOf(m) === 'oMath') { const t = ommlToLatex(m); if (t) this.out.displayMath.push(t); }
        return;
      }
      case 'oMath': {
        const t = this.hidden ? '' : ommlToLatex(n);
        if (!t) return;
        // each math zone is an expression of its own: two zones side by side ("a=b", "c=d") are not one ("a=bc=d")
        if (this.out.text.length > 0 && this.out.text.length === this.mathEnd) this.out.text += ' ';
        this.out.text += `$${t}$`;
        this.out.inlineMath.push(t);
        this.mathEnd = this.out.text.length;
        return;
      }
      case 'footnoteReference': case 'endnoteReference': {
        const id = attr(n, 'id');
        if (id && this.env.noteRef) this.emit(`[${this.env.noteRef(name === 'footnoteReference' ? 'footnote' : 'endnote', id)}]`);
        return;
      }
      case 'sdt': {
        const cb = path(n, 'sdtPr', 'checkbox');
        if (cb) { const checked = child(cb, 'checked'); this.out.selected = !!checked && isOn(checked); }
        return this.walk(kids(child(n, 'sdtContent') ?? {}), depth);
      }
      default: this.walk(kids(n), depth); // ins, moveTo, smartTag, customXml, sdtContent, bdo, dir, ruby base …
    }
  }

  private br(n: X): void {
    const type = attr(n, 'type');
    if (type === 'page') { if (this.started) this.out.explicitAfter++; else this.out.explicitBefore++; }
    else this.emit('\n');
  }

  private fldChar(n: X): void {
    const type = attr(n, 'fldCharType');
    if (type === 'begin') {
      this.fields.push({ instr: '', phase: 'instr', start: this.out.text.length });
      const cb = path(n, 'ffData', 'checkBox');
      if (cb) this.out.selected = isOn(child(cb, 'checked') ?? child(cb, 'default'));
    } else if (type === 'separate') {
      const f = this.fields[this.fields.length - 1];
      if (f) { f.phase = 'result'; f.start = this.out.text.length; }
    } else if (type === 'end') {
      const f = this.fields.pop();
      if (f) this.endField(f.instr, f.start);
    }
  }

  private simpleField(n: X, depth: number): void {
    const start = this.out.text.length;
    this.walk(kids(n), depth);
    this.endField(attr(n, 'instr') ?? '', start);
  }

  /** A field keeps its result text; HYPERLINK fields also give a link, PAGE fields mark a page number. */
  private endField(instr: string, start: number): void {
    const link = /^\s*HYPERLINK\s+"([^"]+)"/i.exec(instr);
    const text = this.out.text.slice(start).trim();
    if (link && text) this.out.links.push({ text, href: link[1] });
    if (/^\s*(PAGE|NUMPAGES|SECTIONPAGES)\b/i.test(instr)) this.out.pageField = true;
  }

  private hyperlink(n: X, depth: number): void {
    const start = this.out.text.length;
    this.walk(kids(n), depth);
    const text = this.out.text.slice(start).trim();
    const rel = attr(n, 'id') ? this.env.rels.get(attr(n, 'id')!) : undefined;
    const anchor = attr(n, 'anchor');
    const href = rel ? rel.target + (anchor ? `#${anchor}` : '') : anchor ? `#${anchor}` : undefined;
    if (href && text) this.out.links.push({ text, href });
  }

  /** Pictures (DrawingML blip, VML imagedata), charts and text boxes inside a drawing (a text box's own pictures are its content's). */
  private drawing(n: X): void {
    const found = collect(n, new Set(['docPr', 'txbxContent', 'blip', 'imagedata', 'chart']), 'txbxContent');
    const alt = found.filter((d) => nameOf(d) === 'docPr').map((d) => attr(d, 'descr') || attr(d, 'title') || '').find(Boolean) ?? '';
    for (const d of found) {
      const name = nameOf(d);
      if (name === 'txbxContent') this.out.textBoxes.push(d);
      else if (name === 'blip') { const id = attr(d, 'embed') ?? attr(d, 'link'); if (id) this.out.figures.push({ rId: id, alt, chart: false }); }
      else if (name === 'imagedata') { const id = attr(d, 'id'); if (id) this.out.figures.push({ rId: id, alt: attr(d, 'title') || alt, chart: false }); }
      else if (name === 'chart') { const id = attr(d, 'id'); if (id) this.out.figures.push({ rId: id, alt, chart: true }); }
    }
  }
}

/** Descendants with one of `names`, in document order, not looking inside `stop` (which is itself returned) or past a Fallback. */
function collect(n: X, names: Set<string>, stop: string, out: X[] = []): X[] {
  for (const k of kids(n)) {
    const name = nameOf(k);
    if (names.has(name)) out.push(k);
    if (name === stop) continue;
    if (name === 'AlternateContent') { for (const c of pickAlternate(k)) collect({ x: [c] } as X, names, stop, out); continue; }
    collect(k, names, stop, out);
  }
  return out;
}

/**
 * mc:AlternateContent carries the same content twice (a modern Choice and a VML Fallback): read the
 * first Choice, or the Fallback when there is none, never both.
 */
export function pickAlternate(n: X): X[] {
  const choice = child(n, 'Choice');
  return kids(choice ?? child(n, 'Fallback') ?? {});
}
