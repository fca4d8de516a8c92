import type { FigureElement, SpreadsheetAnchor, TextElement } from '@quire/core';
import {
  parseChartXml, parseRels, parseXmlTree, relsPathFor, xAttr, xChild, xChildren, xFindAll, xPath, type SafeZip, type XEl,
} from '@quire/format-ooxml';
import { rectName } from './a1.js';
import type { Placed } from './table-build.js';

const MIME: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', bmp: 'image/bmp', tif: 'image/tiff',
  tiff: 'image/tiff', emf: 'image/emf', wmf: 'image/wmf', svg: 'image/svg+xml', webp: 'image/webp',
};

interface Ctx { zip: SafeZip; part: string; rels: ReturnType<typeof parseRels>; page: number; anchor: SpreadsheetAnchor; maxDepth: number; warnings: string[] }

const cellOf = (m: XEl | undefined) => m && {
  r: Number(xChild(m, 'row')?.text ?? 0) || 0,
  c: Number(xChild(m, 'col')?.text ?? 0) || 0,
};

/**
 * A drawing part (xl/drawings/drawingN.xml) → figures: charts (from their chart parts' caches) and
 * pictures, plus text-box shapes as text. Each carries the sheet anchor with excelRange from the
 * anchor's from/to cells; bounding boxes stay null (a spreadsheet has no page geometry).
 */
export async function readDrawing(zip: SafeZip, part: string, page: number, anchor: SpreadsheetAnchor, maxDepth: number, warnings: string[]): Promise<Placed[]> {
  const xml = await zip.text(part);
  if (!xml) return [];
  const root = parseXmlTree(xml, part, maxDepth);
  const ctx: Ctx = { zip, part, rels: parseRels(await zip.text(relsPathFor(part)), part), page, anchor, maxDepth, warnings };
  const out: Placed[] = [];
  for (const a of root.children) {
    if (!/^(twoCellAnchor|oneCellAnchor|absoluteAnchor)$/.test(a.local)) continue;
    const from = cellOf(xChild(a, 'from')), to = cellOf(xChild(a, 'to'));
    const excelRange = from ? rectName({ r0: from.r, c0: from.c, r1: to?.r ?? from.r, c1: to?.c ?? from.c }) : undefined;
    const spreadsheet: SpreadsheetAnchor = excelRange ? { ...anchor, excelRange } : { ...anchor };
    const leaves = a.children.filter((c) => c.local !== 'from' && c.local !== 'to' && c.local !== 'clientData');
    for (const el of flatten(leaves)) {
      const placed = await leaf(ctx, el, spreadsheet);
      if (placed) out.push({ el: placed, r: from?.r ?? 0, c: from?.c ?? 0 });
    }
  }
  return out;
}

function flatten(els: XEl[]): XEl[] {
  return els.flatMap((e) => {
    if (e.local === 'grpSp') return flatten(e.children);
    if (e.local === 'AlternateContent') {
      const choice = flatten(xChild(e, 'Choice')?.children ?? []);
      return choice.length ? choice : flatten(xChild(e, 'Fallback')?.children ?? []);
    }
    return /^(graphicFrame|pic|sp)$/.test(e.local) ? [e] : [];
  });
}

async function leaf(ctx: Ctx, el: XEl, spreadsheet: SpreadsheetAnchor): Promise<FigureElement | TextElement | undefined> {
  const name = xAttr(xFindAll(el, 'cNvPr')[0], 'name') ?? '';
  if (el.local === 'graphicFrame') {
    const data = xPath(el, 'graphic', 'graphicData');
    const chart = xChild(data, 'chart');
    if (!chart) return undefined;
    const rel = ctx.rels.get(xAttr(chart, 'r:id') ?? '');
    const fig: FigureElement = { kind: 'figure', page: ctx.page, box: null, visualType: 'chart', text: '', spreadsheet, extra: { name } };
    if ((xAttr(data, 'uri') ?? '').endsWith('/chartex')) {
      ctx.warnings.push(`Sheet "${spreadsheet.sheetName}": "${name}" is an Office 2016 chart (chartex); kept without series`);
      return fig;
    }
    const xml = rel && !rel.external ? await ctx.zip.text(rel.target) : undefined;
    if (!xml || !rel) return fig;
    const { plots: _plots, ...data2 } = parseChartXml(xml, rel.target, ctx.maxDepth);
    fig.chart = data2;
    fig.text = data2.title ?? '';
    return fig;
  }
  if (el.local === 'pic') {
    const rel = ctx.rels.get(xAttr(xPath(el, 'blipFill', 'blip'), 'r:embed') ?? '');
    const fig: FigureElement = { kind: 'figure', page: ctx.page, box: null, visualType: 'image', text: '', spreadsheet, extra: { name } };
    const bytes = rel && !rel.external ? await ctx.zip.bytes(rel.target) : undefined;
    if (bytes && rel) fig.image = { bytes, mime: MIME[rel.target.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream' };
    return fig;
  }
  const text = xFindAll(xChild(el, 'txBody'), 'p').map(paragraphText).filter((s) => s.trim()).join('\n').trim();
  return text ? { kind: 'text', category: 'Text', text, box: null, page: ctx.page, confidence: 1, spreadsheet } : undefined;
}

/** A DrawingML paragraph's text: runs and fields in order, a line break (a:br) as one, so the words on either side stay apart. */
const paragraphText = (p: XEl) => p.children.map((c) => (c.local === 'r' || c.local === 'fld' ? xChildren(c, 't').map((t) => t.text).join('') : c.local === 'br' ? '\n' : '')).join('');

/** Drawing part of a worksheet or chartsheet, through its relationships. */
export async function drawingPartOf(zip: SafeZip, sheetPart: string, relId: string | undefined): Promise<string | undefined> {
  const rels = parseRels(await zip.text(relsPathFor(sheetPart)), sheetPart);
  const rel = relId ? rels.get(relId) : [...rels.values()].find((r) => r.type.endsWith('/drawing'));
  return rel && !rel.external ? rel.target : undefined;
}
