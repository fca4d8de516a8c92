import type { Element, FigureElement, Page, TextElement } from '@quire/core';
import { parseChartXml, parseXmlTree, xFindAll, xPath, type XEl } from '@quire/format-ooxml';
import { toBox } from './geometry.js';
import { mimeOf, type PackageReader } from './package-reader.js';
import { notesText, PlaceholderResolver, TITLE_TYPES } from './placeholders.js';
import type { Presentation, SlideRef } from './presentation.js';
import { readingOrder } from './reading-order.js';
import { collectShapes, type Shape } from './shapes.js';
import { readTable } from './table.js';
import { paragraphText, readParagraphs } from './text.js';

const EMU_PER_PT = 12700;

interface Ctx { pkg: PackageReader; part: string; page: number; w: number; h: number; resolver: PlaceholderResolver; warnings: string[] }

/** Reads one slide into a page: its shapes in reading order as elements, plus speaker notes. */
export async function readSlide(pkg: PackageReader, pres: Presentation, ref: SlideRef, warnings: string[]): Promise<Page> {
  const tree = await pkg.requireTree(ref.part);
  const resolver = await PlaceholderResolver.forSlide(pkg, ref.part);
  const ctx: Ctx = { pkg, part: ref.part, page: ref.number, w: pres.width, h: pres.height, resolver, warnings };
  const shapes = readingOrder(collectShapes(xPath(tree, 'cSld', 'spTree'), resolver), pres.height);
  const elements: Element[] = [];
  for (const s of shapes) elements.push(...(await shapeElements(ctx, s)));
  const page: Page = {
    number: ref.number, width: pres.width / EMU_PER_PT, height: pres.height / EMU_PER_PT,
    elements, words: [], selectionMarks: [],
  };
  const extra: Record<string, unknown> = {};
  const notesPart = await pkg.relOfType(ref.part, 'notesSlide');
  const notes = notesPart ? notesText(await pkg.tree(notesPart)) : undefined;
  if (notes) extra.notes = notes;
  if (tree.attrs.show === '0' || tree.attrs.show === 'false') extra.hidden = true;
  if (Object.keys(extra).length) page.extra = extra;
  return page;
}

async function shapeElements(ctx: Ctx, s: Shape): Promise<Element[]> {
  const box = toBox(s.rect, ctx.w, ctx.h);
  switch (s.kind) {
    case 'text': return textElements(ctx, s, box);
    case 'table': {
      const table = readTable(xPath(s.el, 'graphic', 'graphicData', 'tbl')!, s.rect, ctx.page, ctx.w, ctx.h);
      table.extra = { name: s.name };
      return [table];
    }
    case 'picture': return [await picture(ctx, s, box)];
    case 'chart': return chart(ctx, s, box);
    case 'diagram': return diagram(ctx, s, box);
    case 'chartex':
      ctx.warnings.push(`Slide ${ctx.page}: "${s.name}" is an Office 2016 chart (chartex); kept as a chart figure without series`);
      return [{ kind: 'figure', page: ctx.page, box, visualType: 'chart', text: s.name }];
  }
}

function textElements(ctx: Ctx, s: Shape, box: TextElement['box']): TextElement[] {
  const txBody = s.el.children.find((c) => c.local === 'txBody');
  const base = { box, page: ctx.page, confidence: 1 } as const;
  const type = s.ph?.type;
  if (type && (TITLE_TYPES.has(type) || type === 'subTitle')) {
    const text = xFindAll(txBody, 'p').map((p) => paragraphText(p, ' ').trim()).filter(Boolean).join(' ');
    if (!text) return [];
    return [TITLE_TYPES.has(type) ? { kind: 'text', category: 'Title', level: 1, text, ...base } : { kind: 'text', category: 'Header', level: 2, text, ...base }];
  }
  if (type === 'sldNum' || type === 'ftr' || type === 'dt' || type === 'hdr') {
    const text = xFindAll(txBody, 'p').map((p) => paragraphText(p, ' ').trim()).filter(Boolean).join(' ');
    return text ? [{ kind: 'text', category: type === 'sldNum' ? 'Page Number' : 'Footer', text, ...base }] : [];
  }
  return readParagraphs(txBody, ctx.resolver.resolve(s.ph).lstStyles).map((p): TextElement => (p.bullet
    ? { kind: 'text', category: 'List Items', text: p.text.trim(), listDepth: p.level, listMarker: p.bullet.marker, ordered: p.bullet.ordered, ...base }
    : { kind: 'text', category: 'Text', text: p.text.trim(), ...base }));
}

async function picture(ctx: Ctx, s: Shape, box: FigureElement['box']): Promise<FigureElement> {
  const fig: FigureElement = { kind: 'figure', page: ctx.page, box, visualType: 'image', text: '' };
  const target = await ctx.pkg.relTarget(ctx.part, s.relId);
  const bytes = target ? await ctx.pkg.zip.bytes(target) : undefined;
  if (bytes && target) fig.image = { bytes, mime: mimeOf(target) };
  const extra: Record<string, unknown> = { name: s.name };
  if (s.descr) extra.altText = s.descr;
  fig.extra = extra;
  return fig;
}

async function chart(ctx: Ctx, s: Shape, box: FigureElement['box']): Promise<FigureElement[]> {
  const target = await ctx.pkg.relTarget(ctx.part, s.relId);
  const xml = target ? await ctx.pkg.zip.text(target) : undefined;
  const fig: FigureElement = { kind: 'figure', page: ctx.page, box, visualType: 'chart', text: '', extra: { name: s.name } };
  if (!xml || !target) {
    ctx.warnings.push(`Slide ${ctx.page}: chart "${s.name}" has no chart part`);
    return [fig];
  }
  const { plots: _plots, ...data } = parseChartXml(xml, target, ctx.pkg.limits.maxXmlDepth);
  fig.chart = data;
  fig.text = data.title ?? '';
  return [fig];
}

/** SmartArt: the node texts of the diagram's data model, as list items in model order. */
async function diagram(ctx: Ctx, s: Shape, box: TextElement['box']): Promise<TextElement[]> {
  const target = await ctx.pkg.relTarget(ctx.part, s.relId);
  const xml = target ? await ctx.pkg.zip.text(target) : undefined;
  if (!xml || !target) return [];
  const model: XEl = parseXmlTree(xml, target, ctx.pkg.limits.maxXmlDepth);
  const out: TextElement[] = [];
  for (const pt of xFindAll(xPath(model, 'ptLst'), 'pt')) {
    const type = pt.attrs.type ?? 'node';
    if (type !== 'node') continue;
    const text = xFindAll(pt, 'p').map((p) => paragraphText(p, ' ').trim()).filter(Boolean).join(' ');
    if (text) out.push({ kind: 'text', category: 'List Items', text, listDepth: 0, listMarker: '-', ordered: false, box, page: ctx.page, confidence: 1 });
  }
  return out;
}
