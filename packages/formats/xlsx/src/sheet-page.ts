import type { Page, ParseLimits, SpreadsheetAnchor } from '@quire/core';
import { parseRels, parseXmlTree, relsPathFor, xAttr, xChild, type SafeZip } from '@quire/format-ooxml';
import { parseRange, type CellRect } from './a1.js';
import { drawingPartOf, readDrawing } from './drawings.js';
import { findRegions } from './regions.js';
import { readSheet, type SheetContext } from './sheet-reader.js';
import { blockElements, buildTable, type BlockCtx, type Placed } from './table-build.js';

export interface PageInput {
  zip: SafeZip;
  part: string;
  number: number;
  anchor: SpreadsheetAnchor;
  limits: ParseLimits;
  warnings: string[];
}

interface TableDef { rect: CellRect; headerRows: number; name?: string }

async function tableDefs(zip: SafeZip, part: string, relIds: string[], maxDepth: number): Promise<TableDef[]> {
  if (!relIds.length) return [];
  const rels = parseRels(await zip.text(relsPathFor(part)), part);
  const out: TableDef[] = [];
  for (const id of relIds) {
    const rel = rels.get(id);
    const xml = rel && !rel.external ? await zip.text(rel.target) : undefined;
    if (!xml) continue;
    const t = parseXmlTree(xml, rel!.target, maxDepth);
    const rect = parseRange(xAttr(t, 'ref') ?? '');
    if (!rect) continue;
    const h = Number(xAttr(t, 'headerRowCount') ?? 1);
    out.push({ rect, headerRows: Number.isFinite(h) ? Math.max(0, Math.min(h, rect.r1 - rect.r0 + 1)) : 1, name: xAttr(t, 'displayName') ?? xAttr(t, 'name') });
  }
  return out;
}

const blank = (p: PageInput): Page => ({ number: p.number, width: 0, height: 0, elements: [], words: [], selectionMarks: [], spreadsheet: p.anchor });

/** A worksheet → one page: defined tables, then cell blocks, texts and drawings in sheet order (row, then column). */
export async function readWorksheetPage(p: PageInput, ctx: Omit<SheetContext, 'sheetName' | 'limits'>): Promise<Page> {
  const data = await readSheet(p.zip, p.part, { ...ctx, limits: p.limits, sheetName: p.anchor.sheetName });
  const defs = await tableDefs(p.zip, p.part, data.tableRelIds, p.limits.maxXmlDepth);
  const regions = findRegions(data.cells, data.merges, defs.map((d) => d.rect));
  const bctx: BlockCtx = { items: regions.items, cells: data.cells, page: p.number, anchor: p.anchor, maxGrid: p.limits.maxCellsPerSheet };
  const placed: Placed[] = [];
  defs.forEach((d, t) => {
    const table = buildTable(bctx, regions.tables[t], d.rect, d.headerRows);
    if (d.name) table.extra = { tableName: d.name };
    placed.push({ el: table, r: d.rect.r0, c: d.rect.c0 });
  });
  for (const block of regions.blocks) placed.push(...blockElements(bctx, block));
  const drawing = data.drawingRelId ? await drawingPartOf(p.zip, p.part, data.drawingRelId) : undefined;
  if (drawing) placed.push(...(await readDrawing(p.zip, drawing, p.number, p.anchor, p.limits.maxXmlDepth, p.warnings)));
  placed.sort((a, b) => a.r - b.r || a.c - b.c);
  return { ...blank(p), elements: placed.map((x) => x.el) };
}

/** A chartsheet → one page holding its chart(s). */
export async function readChartsheetPage(p: PageInput): Promise<Page> {
  const xml = await p.zip.text(p.part);
  const root = xml ? parseXmlTree(xml, p.part, p.limits.maxXmlDepth) : undefined;
  const relId = xAttr(xChild(root, 'drawing'), 'r:id');
  const drawing = await drawingPartOf(p.zip, p.part, relId);
  const placed = drawing ? await readDrawing(p.zip, drawing, p.number, p.anchor, p.limits.maxXmlDepth, p.warnings) : [];
  return { ...blank(p), elements: placed.map((x) => x.el) };
}
