import type { Element, FigureElement, TableElement, TextCategory, TextElement } from '@quire/core';
import { attr, children, DROPPED, descendants, isElement, isHidden, type El, type Node } from './dom.js';
import { decodeDataUri, imageSource, isDecorative } from './image.js';
import { buildTable, cellText, isLayoutTable, tableCaption } from './table.js';
import { mathIn, mathMarkdown, mathText } from './math.js';

interface ListCtx { depth: number; ordered: boolean; marker: string }
interface Ctx { list?: ListCtx; /** Elements main-content mode leaves out. */ skip: ReadonlySet<El> }

/** Elements that end the running paragraph before and after them. */
const BLOCK = new Set([
  'p', 'div', 'section', 'article', 'main', 'header', 'footer', 'nav', 'aside', 'blockquote', 'dl', 'dt', 'dd',
  'address', 'hr', 'form', 'fieldset', 'legend', 'details', 'summary', 'center', 'body', 'html', 'figcaption',
  'caption', 'tr', 'td', 'th', 'tbody', 'thead', 'tfoot', 'hgroup', 'search', 'menu',
]);

const BR = '\u2028';
const normalize = (s: string) =>
  s.replace(/[ \t\n\r\f\u00a0]+/g, ' ').split(BR).map((l) => l.trim()).filter(Boolean).join('\n');

function ordinal(n: number, type: string | undefined): string {
  if (type === 'a' || type === 'A') {
    let s = '', k = n;
    while (k > 0) { k--; s = String.fromCharCode(97 + (k % 26)) + s; k = Math.floor(k / 26); }
    return `${type === 'A' ? s.toUpperCase() : s}.`;
  }
  if (type === 'i' || type === 'I') {
    const r = toRoman(n);
    return `${type === 'I' ? r : r.toLowerCase()}.`;
  }
  return `${n}.`;
}

function toRoman(n: number): string {
  const map: [number, string][] = [[1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'], [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I']];
  let out = '';
  for (const [v, s] of map) while (n >= v) { out += s; n -= v; }
  return out || String(n);
}

/** A figure whose bytes must still be fetched (remote <img>). */
export interface PendingImage { figure: FigureElement; url: string }

/**
 * Walks the DOM in document order and emits the document model's elements: inline content gathers
 * into a running paragraph that block boundaries flush; headings, lists, tables and figures become
 * their own elements.
 */
export class HtmlWalker {
  readonly elements: Element[] = [];
  /** caption element → the figure or table it describes (resolved to an id once ids exist). */
  readonly captions = new Map<TextElement, Element>();
  readonly pending: PendingImage[] = [];
  private buf: string[] = [];
  private links: { text: string; href: string }[] = [];
  private selected?: boolean;
  private titleSeen = false;

  walk(node: Node, ctx: Ctx): void {
    for (const c of children(node)) {
      if (c.nodeName === '#text') this.buf.push((c as { value: string }).value);
      else if (isElement(c)) this.element(c, ctx);
    }
  }

  flush(ctx: Ctx, category: TextCategory = 'Text', level?: number): TextElement | undefined {
    const text = normalize(this.buf.join(''));
    const links = this.links, selected = this.selected;
    this.buf = []; this.links = []; this.selected = undefined;
    if (!text) return undefined;
    const el: TextElement = { kind: 'text', category, text, box: null, page: 1, confidence: 1 };
    if (level !== undefined) el.level = level;
    if (category === 'Text' && ctx.list) {
      el.category = 'List Items';
      Object.assign(el, { listDepth: ctx.list.depth, listMarker: ctx.list.marker, ordered: ctx.list.ordered });
    }
    if (links.length > 0) el.links = links;
    if (selected !== undefined) el.selected = selected;
    this.elements.push(el);
    return el;
  }

  private element(el: El, ctx: Ctx): void {
    const tag = el.tagName;
    if (tag === 'math') return this.math(el, ctx);
    if (tag === 'script' && /^math\/tex/i.test(attr(el, 'type') ?? '')) return this.texScript(el, ctx);
    if (DROPPED.has(tag) || ctx.skip.has(el)) return;
    if (isHidden(el)) {
      // A formula's MathML is often the hidden, accessible twin of a picture of it (MediaWiki): the
      // picture is aria-hidden, so the MathML is the formula's only text.
      for (const m of mathIn(el)) this.math(m, ctx);
      return;
    }
    if (/^h[1-6]$/.test(tag)) return this.heading(el, ctx, Number(tag[1]));
    switch (tag) {
      case 'ul': case 'ol': return this.list(el, ctx);
      case 'li': return this.listItem(el, ctx, { depth: ctx.list?.depth ?? 0, ordered: false, marker: '-' });
      case 'table': return this.table(el, ctx);
      case 'img': this.flush(ctx); this.image(el); return;
      case 'figure': return this.figure(el, ctx);
      case 'pre': return this.pre(el, ctx);
      case 'br': this.buf.push(BR); return;
      case 'a': return this.link(el, ctx);
      case 'input': {
        const type = attr(el, 'type')?.toLowerCase();
        if (type === 'checkbox' || type === 'radio') this.selected = attr(el, 'checked') !== undefined;
        return;
      }
    }
    if (BLOCK.has(tag)) {
      this.flush(ctx);
      this.walk(el, ctx);
      this.flush(ctx);
    } else this.walk(el, ctx);
  }

  private heading(el: El, ctx: Ctx, level: number): void {
    this.flush(ctx);
    this.walk(el, { ...ctx, list: undefined });
    const isTitle = level === 1 && !this.titleSeen;
    const h = this.flush(ctx, isTitle ? 'Title' : 'Header', level);
    if (h && isTitle) this.titleSeen = true;
  }

  private list(el: El, ctx: Ctx): void {
    this.flush(ctx);
    const depth = ctx.list ? ctx.list.depth + 1 : 0;
    const ordered = el.tagName === 'ol';
    const type = attr(el, 'type');
    let n = parseInt(attr(el, 'start') ?? '1', 10);
    if (!Number.isFinite(n)) n = 1;
    for (const c of children(el)) {
      if (!isElement(c)) { if (c.nodeName === '#text') this.buf.push((c as { value: string }).value); continue; }
      if (c.tagName !== 'li') { this.element(c, ctx); continue; }
      if (DROPPED.has(c.tagName) || isHidden(c)) continue;
      const v = parseInt(attr(c, 'value') ?? '', 10);
      if (Number.isFinite(v)) n = v;
      this.listItem(c, ctx, { depth, ordered, marker: ordered ? ordinal(n, type) : '-' });
      n++;
    }
    this.flush(ctx);
  }

  private listItem(li: El, ctx: Ctx, list: ListCtx): void {
    this.flush(ctx);
    const inner = { ...ctx, list };
    this.walk(li, inner);
    this.flush(inner);
  }

  private link(a: El, ctx: Ctx): void {
    const start = this.buf.length;
    this.walk(a, ctx);
    const href = attr(a, 'href')?.trim();
    const text = normalize(this.buf.slice(start).join(''));
    if (href && text && !/^javascript:/i.test(href)) this.links.push({ text, href });
  }

  /** Inline formulas join the running paragraph as $…$; displayed ones are their own Formulas element. */
  private math(el: El, ctx: Ctx): void {
    const m = mathText(el);
    if (!m.latex) return;
    if (!m.display) { this.buf.push(` ${mathMarkdown(m)} `); return; }
    this.flush(ctx);
    this.elements.push({ kind: 'text', category: 'Formulas', text: m.latex, box: null, page: 1, confidence: 1, extra: { latex: true } });
  }

  /** MathJax 2 keeps a formula's source as <script type="math/tex">, "; mode=display" for displayed ones. */
  private texScript(el: El, ctx: Ctx): void {
    const latex = children(el).map((c) => (c as { value?: string }).value ?? '').join('').trim();
    if (!latex) return;
    const display = /mode\s*=\s*display/i.test(attr(el, 'type') ?? '');
    if (!display) { this.buf.push(` ${mathMarkdown({ latex, display })} `); return; }
    this.flush(ctx);
    this.elements.push({ kind: 'text', category: 'Formulas', text: latex, box: null, page: 1, confidence: 1, extra: { latex: true } });
  }

  private pre(el: El, ctx: Ctx): void {
    this.flush(ctx);
    const raw = cellTextRaw(el).replace(/^\n/, '').replace(/\s+$/, '');
    if (raw.trim()) this.elements.push({ kind: 'text', category: 'Text', text: raw, box: null, page: 1, confidence: 1, extra: { code: true } });
  }

  private table(el: El, ctx: Ctx): void {
    this.flush(ctx);
    if (isLayoutTable(el)) {
      this.walk(el, ctx);
      this.flush(ctx);
      return;
    }
    const table: TableElement = buildTable(el);
    const cap = tableCaption(el);
    const capText = cap ? cellText(cap) : '';
    if (capText) {
      const c: TextElement = { kind: 'text', category: 'caption', text: capText, box: null, page: 1, confidence: 1 };
      this.elements.push(c);
      this.captions.set(c, table);
    }
    if (table.rows > 0 && table.cols > 0) this.elements.push(table);
  }

  private image(img: El): FigureElement | undefined {
    if (isDecorative(img)) return undefined;
    const src = imageSource(img);
    const fig: FigureElement = { kind: 'figure', page: 1, box: null, visualType: 'image', text: (attr(img, 'alt') ?? '').trim() };
    if (src.startsWith('data:')) {
      const data = decodeDataUri(src);
      if (data) fig.image = data;
    } else if (src) {
      fig.extra = { src };
      if (/^https?:\/\//i.test(src)) this.pending.push({ figure: fig, url: src });
    }
    this.elements.push(fig);
    return fig;
  }

  private figure(el: El, ctx: Ctx): void {
    this.flush(ctx);
    const imgs = [...descendants(el)].filter((d) => d.tagName === 'img' && !isHidden(d));
    const capEl = children(el).find((c): c is El => isElement(c) && c.tagName === 'figcaption');
    const capText = capEl ? normalize(cellText(capEl).replace(/\n/g, BR)) : '';
    if (imgs.length === 0) {
      // A figure around a table or a code listing: read its content, tie the caption to a table in it.
      const before = this.elements.length;
      this.walk(el, { ...ctx });
      this.flush(ctx);
      const table = this.elements.slice(before).find((e) => e.kind === 'table');
      const cap = this.elements.slice(before).find((e): e is TextElement => e.kind === 'text' && e.text === capText);
      if (cap && table) { cap.category = 'caption'; this.captions.set(cap, table); }
      return;
    }
    const figs = imgs.map((img) => this.image(img)).filter((f): f is FigureElement => !!f);
    if (!capText) return;
    for (const f of figs) f.caption = capText;
    const cap: TextElement = { kind: 'text', category: 'caption', text: capText, box: null, page: 1, confidence: 1 };
    this.elements.push(cap);
    if (figs[0]) this.captions.set(cap, figs[0]);
  }
}

/** Text of a <pre>, whitespace kept. */
function cellTextRaw(n: Node): string {
  let out = '';
  for (const c of children(n)) {
    if (c.nodeName === '#text') out += (c as { value: string }).value;
    else if (isElement(c) && !DROPPED.has(c.tagName) && !isHidden(c)) out += c.tagName === 'br' ? '\n' : cellTextRaw(c);
  }
  return out;
}
