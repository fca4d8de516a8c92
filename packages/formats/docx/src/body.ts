import type { Element, FigureElement, TableElement, TextCategory, TextElement } from '@quire/core';
import { attr, child, isOn, kids, nameOf, path, val, type X } from './ox.js';
import { InlineWalker, pickAlternate, type FigureRef, type InlineEnv } from './inline.js';
import { buildTable } from './table.js';
import { headingOfStyle, numberingOfStyle, type Styles } from './styles.js';
import type { Numbering } from './numbering.js';

/**
 * Page numbers, from what the file records. Word writes w:lastRenderedPageBreak where its last layout
 * broke pages; when a file has those they are used alone (they already include hard breaks). Files
 * never laid out by Word (generated ones) have none: then explicit breaks count — w:br type=page,
 * pageBreakBefore, and section breaks other than continuous. Either way the numbers are those of
 * the last saved layout (or of hard breaks only), not a fresh layout: a document edited by a tool
 * that does not lay out pages reports fewer pages than Word would show.
 */
export type PageMode = 'rendered' | 'explicit';

export interface BodyEnv extends InlineEnv {
  styles: Styles;
  numbering: Numbering;
  mode: PageMode;
  /** Section start types in document order (w:sectPr/w:type; default nextPage). */
  sectionTypes: string[];
}

/** Where a figure's bytes come from (resolved against the part's rels after the walk). */
export interface PendingFigure { figure: FigureElement; ref: FigureRef }

export class BodyWalker {
  readonly elements: Element[] = [];
  readonly figures: PendingFigure[] = [];
  page = 1;
  private section = 0;
  /** A paragraph that held only a typed bullet glyph: the marker of the next paragraph's text. */
  private pendingBullet?: string;
  /** Furniture mode: every paragraph becomes this category (headers and footers). */
  furniture?: 'Header' | 'Footer';
  /** Called after each paragraph's text element and each table (footnote reference bookkeeping). */
  onElement?: (el: TextElement | TableElement) => void;

  constructor(private env: BodyEnv) {}

  blocks(nodes: X[], extra?: Record<string, unknown>, depth = 0): void {
    for (const n of nodes) {
      switch (nameOf(n)) {
        case 'p': this.paragraph(n, extra); break;
        case 'tbl': this.table(n, extra); break;
        case 'sdt': this.blocks(kids(child(n, 'sdtContent') ?? {}), extra, depth + 1); break;
        case 'customXml': case 'ins': case 'moveTo': this.blocks(kids(n), extra, depth + 1); break;
        case 'AlternateContent': this.blocks(pickAlternate(n), extra, depth + 1); break;
        default: break; // sectPr, bookmarks, del, moveFrom …
      }
    }
  }

  private advance(rendered: number, explicit: number) {
    this.page += this.env.mode === 'rendered' ? rendered : explicit;
  }

  private paragraph(p: X, extra?: Record<string, unknown>): void {
    const ppr = child(p, 'pPr');
    const inline = InlineWalker.read(p, this.env);
    const styleId = val(path(ppr, 'pStyle'));
    if (this.env.mode === 'explicit' && isOn(path(ppr, 'pageBreakBefore'))) this.page++;
    this.advance(inline.renderedBefore, inline.explicitBefore);
    // a paragraph of math zones alone shows them as displayed formulas, one to a line
    const formulas = inline.hasText ? inline.displayMath : [...inline.inlineMath, ...inline.displayMath];
    let text = inline.hasText ? clean(inline.text) : '';
    const typed = this.furniture ? undefined : typedBullet(text);
    if (typed && !typed.rest) {
      // a bullet glyph alone on its paragraph marks the text that follows, it is not a paragraph of its own
      this.pendingBullet = typed.marker;
      text = '';
    }
    const marker = typed?.rest ? typed.marker : this.pendingBullet;
    if (text) {
      if (typed?.rest) text = typed.rest;
      const el: TextElement = { kind: 'text', category: 'Text', text, box: null, page: this.page, confidence: 1 };
      this.classify(el, ppr, styleId, inline.pageField);
      if (marker && el.category === 'Text') Object.assign(el, { category: 'List Items' as TextCategory, listDepth: 0, listMarker: marker, ordered: false });
      if (!typed || typed.rest) this.pendingBullet = undefined;
      if (inline.links.length > 0) el.links = inline.links;
      if (inline.selected !== undefined) el.selected = inline.selected;
      else if (/^[☒☑☐]/.test(text)) el.selected = !text.startsWith('☐');
      if (extra) el.extra = { ...extra };
      this.elements.push(el);
      this.onElement?.(el);
    }
    for (const latex of formulas) {
      const el: TextElement = { kind: 'text', category: 'Formulas', text: latex, box: null, page: this.page, confidence: 1, extra: { ...extra, latex: true } };
      this.elements.push(el);
      this.onElement?.(el);
    }
    for (const ref of inline.figures) {
      const figure: FigureElement = { kind: 'figure', page: this.page, box: null, visualType: ref.chart ? 'chart' : 'image', text: ref.alt };
      this.elements.push(figure);
      this.figures.push({ figure, ref });
    }
    for (const box of inline.textBoxes) this.blocks(kids(box), { ...extra, textBox: true });
    this.advance(inline.renderedAfter, inline.explicitAfter);
    if (path(ppr, 'sectPr')) {
      this.section++;
      const next = this.env.sectionTypes[this.section] ?? 'nextPage';
      if (this.env.mode === 'explicit' && next !== 'continuous') this.page++;
    }
  }

  /** Title / heading level / list item / caption from outline level, style and numbering. */
  private classify(el: TextElement, ppr: X | undefined, styleId: string | undefined, pageField: boolean): void {
    if (this.furniture) {
      const isNumber = pageField && /^\s*(page\s*)?\d+(\s*(of|\/)\s*\d+)?\s*$/i.test(el.text);
      el.category = isNumber ? 'Page Number' : this.furniture;
      if (this.furniture === 'Header' && !isNumber) el.extra = { ...el.extra, running: true };
      return;
    }
    const outline = val(path(ppr, 'outlineLvl'));
    const heading = outline !== undefined && Number(outline) < 9 ? { kind: 'heading' as const, level: Number(outline) + 1 } : headingOfStyle(this.env.styles, styleId);
    const numPr = path(ppr, 'numPr');
    const num = numPr ? { numId: val(child(numPr, 'numId')) ?? '0', ilvl: Number(val(child(numPr, 'ilvl')) ?? 0) } : numberingOfStyle(this.env.styles, styleId);
    const list = num ? this.env.numbering.next(num.numId, num.ilvl) : undefined;
    if (heading?.kind === 'title') { el.category = 'Title'; el.level = 1; return; }
    if (heading?.kind === 'heading') {
      el.category = 'Header';
      el.level = Math.min(6, heading.level);
      // a heading numbered through a (multilevel) list shows its number, as Word does: "1.2.1 Scope"
      if (list?.ordered && !el.text.startsWith(list.marker)) el.text = `${list.marker} ${el.text}`;
      return;
    }
    if (heading?.kind === 'caption') { el.category = 'caption'; return; }
    if (list && num) {
      Object.assign(el, { category: 'List Items' as TextCategory, listDepth: Math.min(8, num.ilvl), listMarker: list.marker, ordered: list.ordered });
    }
  }

  private table(tbl: X, extra?: Record<string, unknown>): void {
    this.pendingBullet = undefined;
    const cellFigures: PendingFigure[] = [];
    const cellText = (tc: X) => {
      const sub = new BodyWalker(this.env);
      sub.furniture = this.furniture;
      sub.blocks(kids(tc));
      cellFigures.push(...sub.figures);
      const text = sub.elements.map((e) => (e.kind === 'table' ? tableText(e) : e.text)).filter(Boolean).join('\n');
      return { text, renderedBreaks: sub.page - 1 };
    };
    const { table, rowsWithBreaks } = buildTable(tbl, cellText);
    if (table.rows === 0 || table.cols === 0) return;
    if (this.furniture) {
      // A header/footer laid out as a table: its cells are running text, not data.
      for (const c of table.cells) if (c.text) this.elements.push({ kind: 'text', category: this.furniture, text: c.text, box: null, page: this.page, confidence: 1, ...(this.furniture === 'Header' ? { extra: { running: true } } : {}) });
      return;
    }
    table.page = this.page;
    if (extra) table.extra = { ...extra };
    this.elements.push(table);
    this.onElement?.(table);
    // Pictures inside cells follow the table (a cell holds text only in the model).
    for (const f of cellFigures) {
      f.figure.page = this.page;
      this.elements.push(f.figure);
      this.figures.push(f);
    }
    if (this.env.mode === 'rendered') this.page += rowsWithBreaks;
  }
}

const tableText = (t: TableElement) => t.cells.map((c) => c.text).filter(Boolean).join(' ');

/** Tabs and runs of spaces become one space; line breaks stay; the ends are trimmed. */
/**
 * Bullets typed by hand in Symbol / Wingdings fonts are private-use code points (U+F0B7 is Symbol's
 * bullet, U+F0A7 Wingdings' square, …); with the usual bullet characters they mark a list item.
 * Checkbox glyphs of the same fonts are not bullets (they are choices, see inline.ts).
 */
const PRIVATE_USE_BULLETS: Record<string, string> = {
  '\uF0B7': '•', '\uF0A7': '▪', '\uF06C': '●', '\uF06E': '■', '\uF076': '❖', '\uF0D8': '➢', '\uF0FC': '✓', '\uF0E8': '➔', '\uF0D7': '►',
};
const TYPED_BULLET = /^([\uF0B7\uF0A7\uF06C\uF06E\uF076\uF0D8\uF0FC\uF0E8\uF0D7•▪◦●■❖➢►])(?:\s+|$)/;

/** A paragraph that starts with a typed bullet glyph: its marker and the text after it. */
export function typedBullet(text: string): { marker: string; rest: string } | undefined {
  const m = TYPED_BULLET.exec(text);
  if (!m) return undefined;
  return { marker: PRIVATE_USE_BULLETS[m[1]] ?? m[1], rest: text.slice(m[0].length).trim() };
}

export const clean = (s: string) => s.split('\n').map((l) => l.replace(/[\t \u00a0]+/g, ' ').trim()).join('\n').replace(/\n{2,}/g, '\n').trim();

export function sectionTypes(body: X): string[] {
  const out: string[] = [];
  const visit = (nodes: X[]) => {
    for (const n of nodes) {
      const name = nameOf(n);
      if (name === 'sectPr') out.push(attr(child(n, 'type') ?? {}, 'val') ?? 'nextPage');
      else if (name === 'p') { const s = path(n, 'pPr', 'sectPr'); if (s) out.push(attr(child(s, 'type') ?? {}, 'val') ?? 'nextPage'); }
      else if (name === 'sdt' || name === 'customXml') visit(name === 'sdt' ? kids(child(n, 'sdtContent') ?? {}) : kids(n));
    }
  };
  visit(kids(body));
  return out;
}
