import { unionBox, type Box, type TableElement } from '@quire/core';
import type { JsonSchema } from '@quire/models';
import { labelScore, type SearchContext } from './candidates.js';
import { fieldSpec, type FieldSpec } from './field-spec.js';
import { primary, propertiesOf, requiredOf } from './schema-node.js';
import { arithmeticColumns, finalFigure, gridOfTable, gridsFromRows, headerRole, headerRoles, isFigureCell, isSummaryText, joinWrappedLines, propertyRole, stripCodes, stripPositions, type Grid, type GridCell, type ItemRole, type PlacedRow } from './item-grid.js';
import { pageLines, type DocIndex } from './doc-index.js';
import { typedValue } from './typed-value.js';
import { findAmounts } from './values/amounts.js';

/**
 * Arrays of objects from tables: the table whose header cells best match the item's properties
 * (the usual invoice line items) gives one object per body row; totals rows are skipped; tables
 * with the same header mapping later in the document (continuations) add their rows.
 */

export interface TableRows {
  values: Record<string, unknown>[];
  citations: Record<string, string[] | null>[];
  confidence: Record<string, number | null>[];
  tableIds: string[];
  unmapped: string[];
}

const HEADER_MIN = 0.7;
const TOTAL_ROW = /^\s*(sub\s*-?\s*total|total|grand total|tax|vat|gst|amount due|balance( due)?|discount|shipping)\b/i;

function cellText(t: TableElement, row: number, col: number): { text: string; id?: string } {
  const c = t.cells.find((x) => x.row === row && x.col === col);
  return { text: c?.text.trim() ?? '', id: c?.id };
}

interface Mapping { grid: Grid; cols: Map<string, { col: number; score: number }>; score: number }

/** Which column holds which property: header meaning (any language), the header's words, then the arithmetic of the figures. */
function mapGrid(grid: Grid, props: [string, FieldSpec][]): Mapping | undefined {
  const pairs: { prop: string; col: number; score: number }[] = [];
  for (const [name, spec] of props) {
    const role = propertyRole(spec);
    grid.headers.forEach((h, col) => {
      if (!h) return;
      const score = Math.max(role && headerRoles(grid, col).has(role) ? 0.9 : 0, labelScore(spec, h));
      if (score >= HEADER_MIN) pairs.push({ prop: name, col, score });
    });
  }
  pairs.sort((a, b) => b.score - a.score);
  const cols = new Map<string, { col: number; score: number }>();
  const used = new Set<number>();
  for (const p of pairs) {
    if (cols.has(p.prop) || used.has(p.col)) continue;
    cols.set(p.prop, { col: p.col, score: p.score });
    used.add(p.col);
  }
  // figures that multiply decide quantity, unit price and amount ("Amount" over a column of counts is the quantity)
  const sums = arithmeticColumns(grid);
  if (sums) {
    const byRole: [ItemRole, number][] = [['quantity', sums.quantity], ['unit-price', sums.price], ['amount', sums.amount]];
    for (const [role, col] of byRole) {
      const prop = props.find(([, spec]) => propertyRole(spec) === role)?.[0];
      if (!prop) continue;
      for (const [other, c] of cols) if (c.col === col && other !== prop) cols.delete(other);
      cols.set(prop, { col, score: Math.max(0.9, cols.get(prop)?.col === col ? cols.get(prop)!.score : 0) });
    }
  }
  // no header names the description (a table printed without a header row): where the figures multiply, the column
  // of words is what the rows are about
  const descProp = props.find(([, spec]) => propertyRole(spec) === 'description')?.[0];
  if (sums && descProp && !cols.has(descProp)) {
    const taken = new Set([...cols.values()].map((c) => c.col));
    const wordy = (c: number) => grid.rows.filter((r) => /\p{L}{3}/u.test(r[c]?.text ?? '') && !isFigureCell(r[c].text)).length;
    const best = grid.headers.map((_, c) => c).filter((c) => !taken.has(c)).sort((a, b) => wordy(b) - wordy(a))[0];
    if (best !== undefined && wordy(best) >= grid.rows.length / 2) cols.set(descProp, { col: best, score: 0.8 });
  }
  // "Pos. | Produit": a description column of bare position numbers, the text in the unlabelled column beside it
  const desc = props.find(([name, spec]) => propertyRole(spec) === 'description' && cols.has(name));
  if (desc) {
    const col = cols.get(desc[0])!.col;
    const values = grid.rows.map((r) => r[col]?.text ?? '').filter(Boolean);
    const next = col + 1;
    const taken = [...cols.values()].some((c) => c.col === next);
    if (values.length && values.every((v) => /^\d{1,3}[.)]?$/.test(v)) && !taken && next < grid.headers.length
      && grid.rows.filter((r) => /\p{L}{3}/u.test(r[next]?.text ?? '')).length >= values.length / 2) cols.set(desc[0], { col: next, score: cols.get(desc[0])!.score * 0.95 });
  }
  const needed = Math.min(2, props.length);
  if (cols.size < needed) return undefined;
  const score = [...cols.values()].reduce((s, c) => s + c.score, 0) / props.length;
  return { grid, cols, score };
}

function isTotalsRow(row: GridCell[]): boolean {
  const texts = row.map((c) => c.text).filter(Boolean);
  return texts.slice(0, 2).some((x) => TOTAL_ROW.test(x) || isSummaryText(x));
}

/**
 * One ruled row that holds several items printed line under line, with no rule between them
 * ("Provision pour honoraires" / "Déclaration de services" beside "250,00" / "19,00"): the page's
 * printed rows through its cells give one row per item, when each line holds a description and one
 * figure in the amount cell. Otherwise (a description wrapped over two lines, one figure) the row stands.
 */
function splitStacked(row: GridCell[], descCol: number, amountCol: number, ix: DocIndex): GridCell[][] {
  const amountCell = row[amountCol];
  if (!amountCell?.text || !row[descCol]?.text || findAmounts(amountCell.text).filter((a) => !a.percent).length < 2) return [row];
  const cellIds = new Set(row.flatMap((c) => c.ids));
  if (row[descCol].ids.length !== 1 || amountCell.ids.length !== 1) return [row];
  const through = ix.rows.filter((r) => r.box && r.segments?.some((sg) => sg.ids.some((id) => cellIds.has(id))));
  // a stretch of a line that runs across two cells cannot be cut between them
  if (through.some((r) => r.segments!.some((sg) => sg.ids.length > 1 && sg.ids.some((id) => cellIds.has(id))))) return [row];
  // a stamp set across the cell ("DUPLICATA", diagonally) is no printed text: far taller than the lines' stretches
  const heights = through.flatMap((r) => r.segments!.map((sg) => sg.box.y1 - sg.box.y0)).sort((a, b) => a - b);
  const lineHeight = heights[Math.floor((heights.length - 1) / 2)];
  const lines = through.map((r) => ({ ...r, segments: r.segments!.filter((sg) => sg.box.y1 - sg.box.y0 <= 3 * lineHeight) }))
    .filter((r) => r.segments.some((sg) => sg.ids.some((id) => cellIds.has(id))));
  if (lines.length < 2) return [row];
  const split = lines.map((r) => row.map((c) => {
    const text = r.segments!.filter((sg) => c.ids.length === 1 && sg.ids[0] === c.ids[0]).map((sg) => sg.text).join(' ');
    return { text, ids: text ? c.ids : [] };
  }));
  const oneFigure = (cells: GridCell[]) => findAmounts(cells[amountCol].text).filter((a) => !a.percent).length === 1;
  return split.every((cells) => cells[descCol].text && oneFigure(cells)) ? split : [row];
}

/** Where a table row's text is printed: around its cells' words (a ruled cell's box is its band, not its text). */
const segmentBoxes = new WeakMap<DocIndex, Map<string, Box[]>>();
function printedBox(cells: GridCell[], ix: DocIndex): Box | undefined {
  let byId = segmentBoxes.get(ix);
  if (!byId) {
    byId = new Map();
    for (const sg of ix.rows.flatMap((r) => r.segments ?? [])) for (const id of sg.ids) byId.set(id, [...(byId.get(id) ?? []), sg.box]);
    segmentBoxes.set(ix, byId);
  }
  return unionBox([...new Set(cells.flatMap((c) => c.ids))].flatMap((id) => byId!.get(id) ?? [])) ?? undefined;
}

/**
 * A table the layout found without a header row whose header is printed just above it, apart (a band of
 * its own, a rule between): the nearest printed row above the table, within a few lines, that holds no
 * figure and names two item columns or more ("Omschrijving  Aantal  Bedrag") gives each column the
 * header it stands over.
 */
function headerAbove(t: TableElement, grid: Grid, ix: DocIndex): Grid {
  if (grid.headers.some(Boolean) || !t.box) return grid;
  const top = t.box.y0;
  const above = (pageLines(ix, t.page) ?? [])
    .filter((r) => r.box && r.segments?.length && r.box.y1 <= top + 0.002 && top - r.box.y1 < 0.08)
    .sort((a, b) => b.box!.y1 - a.box!.y1)[0];
  const segs = above?.segments ?? [];
  if (segs.length < 2 || segs.some((sg) => /\d/.test(sg.text)) || new Set(segs.map((sg) => headerRole(sg.text)).filter(Boolean)).size < 2) return grid;
  const used = new Set<number>();
  const headers = grid.headers.map((_, col) => {
    const column = unionBox(t.cells.filter((c) => c.col === col && c.box && c.text.trim()).map((c) => c.box!));
    if (!column) return '';
    const { x0, x1 } = column;
    // text columns align left, figure columns right: the header over the column, by overlap or by a shared edge
    const k = segs.findIndex((sg, i) => !used.has(i) && (Math.min(sg.box.x1, x1) - Math.max(sg.box.x0, x0) > 0 || Math.min(Math.abs(sg.box.x0 - x0), Math.abs(sg.box.x1 - x1)) < 0.02));
    if (k < 0) return '';
    used.add(k);
    return segs[k].text;
  });
  return { ...grid, headers, headerLines: headers.map((h) => (h ? [h] : [])) };
}

/** The items of one mapped grid: summary rows skipped, a row holding only more description continues the item above. */
function itemsOf(m: Mapping, props: [string, FieldSpec][], ctx: SearchContext, out: TableRows): void {
  const descProp = props.find(([name, spec]) => propertyRole(spec) === 'description' && m.cols.has(name))?.[0];
  const amountProp = props.find(([name, spec]) => propertyRole(spec) === 'amount' && m.cols.has(name))?.[0];
  const start = out.values.length;
  const amountCol = amountProp ? m.cols.get(amountProp)!.col : -1;
  const descCol = descProp ? m.cols.get(descProp)!.col : -1;
  let placed: PlacedRow[] = m.grid.rows.flatMap((cells, k) => {
    const split = descCol >= 0 && amountCol >= 0 ? splitStacked(cells, descCol, amountCol, ctx.ix) : [cells];
    // one ruled row printed as several items: where each line stands is not kept
    return split.length > 1 ? split.map((c) => ({ cells: c })) : [{ cells, box: m.grid.rowBoxes?.[k] ?? (m.grid.tableId ? printedBox(cells, ctx.ix) : undefined) }];
  }).filter((r) => !isTotalsRow(r.cells));
  // "Brackets (3 kg)" under "Standard Mounting": a description goes on over the lines below or above its figures
  if (descCol >= 0) placed = joinWrappedLines(placed, descCol);
  for (const { cells: row } of placed) {
    // an item has a description where the table has one ("- 2,00 €" under an item is its discount, not an item);
    // a discount printed in the amount column under an item ("1,00 % | - 0,10") makes its line amount net of it
    if (descProp && !row[descCol]?.text) {
      if (amountProp && out.values.length > start) {
        const cell = row[amountCol];
        const last = out.values[out.values.length - 1];
        const off = cell?.text ? findAmounts(cell.text).filter((a) => !a.percent) : [];
        if (off.length === 1 && off[0].value < 0 && typeof last[amountProp] === 'number' && (last[amountProp] as number) + off[0].value >= 0) {
          last[amountProp] = Math.round(((last[amountProp] as number) + off[0].value) * 10000) / 10000;
          out.citations[out.citations.length - 1][amountProp] = [...(out.citations[out.citations.length - 1][amountProp] ?? []), ...cell.ids];
        }
      }
      continue;
    }
    const value: Record<string, unknown> = {}, cite: Record<string, string[] | null> = {}, conf: Record<string, number | null> = {};
    let filled = 0;
    for (const [name, spec] of props) {
      const col = m.cols.get(name);
      const cell = col ? row[col.col] : undefined;
      let tv = cell?.text ? typedValue(spec, cell.text, ctx.dates) : undefined;
      // a figure cell that shows its workings ("(Brut: 65,00) (Rabais: 5,00) (Net): 60,00"): the figure it ends in
      if (!tv && cell?.text && (spec.kind === 'number' || spec.kind === 'integer')) {
        const v = finalFigure(cell.text);
        if (v !== undefined && (spec.kind === 'number' || Number.isInteger(v))) tv = { value: v, fit: 0.8, printed: cell.text };
      }
      // a description may end in a colon ("Hot air (litres):"): in a cell it is no label
      if (!tv && cell?.text && spec.kind === 'string' && /\p{L}{2}/u.test(cell.text)) tv = { value: cell.text.replace(/[\s:]+$/, ''), fit: 0.9, printed: cell.text };
      value[name] = tv ? tv.value : null;
      cite[name] = tv && cell!.ids.length ? cell!.ids : null;
      conf[name] = tv ? Math.min(0.99, col!.score * tv.fit * 0.97) : null;
      if (tv) filled++;
    }
    if (!filled) continue;
    out.values.push(value); out.citations.push(cite); out.confidence.push(conf);
  }
  if (descProp) {
    const stripped = stripCodes(stripPositions(out.values.slice(start).map((v) => (typeof v[descProp] === 'string' ? (v[descProp] as string) : null))));
    stripped.forEach((d, k) => { if (d !== null) out.values[start + k][descProp] = d; });
  }
}

export function tableArray(root: JsonSchema, itemNode: JsonSchema, ctx: SearchContext): TableRows | undefined {
  const item = primary(root, itemNode);
  const required = requiredOf(item);
  const props = propertiesOf(item).map(([name, node]) => [name, fieldSpec(root, primary(root, node), [name], required.has(name))] as [string, FieldSpec]);
  if (!props.length) return undefined;
  const fromTables = ctx.ix.tables.map((t) => headerAbove(t, gridOfTable(t), ctx.ix));
  // columns printed without a table: only where no table element holds the same cells
  const tableIds = new Set(ctx.ix.tables.flatMap((t) => t.cells.map((c) => c.id)));
  const fromRows = gridsFromRows(ctx.ix).filter((g) => !g.rows.some((r) => r.some((c) => c.ids.some((id) => tableIds.has(id)))));
  const mappings = [...fromTables, ...fromRows].map((g) => mapGrid(g, props)).filter((m): m is Mapping => Boolean(m));
  if (!mappings.length) return undefined;
  const bestScore = Math.max(...mappings.map((m) => m.score));
  const chosen = mappings.filter((m) => m.score >= 0.9 * bestScore);
  const out: TableRows = { values: [], citations: [], confidence: [], tableIds: chosen.map((m) => m.grid.tableId).filter((id): id is string => Boolean(id)), unmapped: props.map(([n]) => n).filter((n) => !chosen[0].cols.has(n)) };
  for (const m of chosen) itemsOf(m, props, ctx, out);
  return out;
}

/** A column of scalars (an array of strings/numbers whose name matches a header). */
export function tableColumn(field: FieldSpec, ctx: SearchContext): { values: unknown[]; ids: string[]; score: number } | undefined {
  let best: { values: unknown[]; ids: string[]; score: number } | undefined;
  for (const t of ctx.ix.tables) {
    const headerRows = Math.max(1, t.headerRows);
    for (let col = 0; col < t.cols; col++) {
      const header = Array.from({ length: headerRows }, (_, r) => cellText(t, r, col).text).join(' ').trim();
      const score = header ? labelScore(field, header) : 0;
      if (score < HEADER_MIN || (best && best.score >= score)) continue;
      const values: unknown[] = [], ids: string[] = [];
      for (let row = headerRows; row < t.rows; row++) {
        if (isTotalsRow(Array.from({ length: t.cols }, (_, c) => ({ text: cellText(t, row, c).text, ids: [] })))) continue;
        const cell = cellText(t, row, col);
        const tv = cell.text ? typedValue(field, cell.text, ctx.dates) : undefined;
        if (tv && cell.id) { values.push(tv.value); ids.push(cell.id); }
      }
      if (values.length) best = { values, ids, score };
    }
  }
  return best;
}
