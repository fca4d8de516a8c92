import type { TableElement } from '@quire/core';
import type { JsonSchema } from '@quire/models';
import { labelScore, type SearchContext } from './candidates.js';
import { fieldSpec, type FieldSpec } from './field-spec.js';
import { primary, propertiesOf, requiredOf } from './schema-node.js';
import { typedValue } from './typed-value.js';

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

interface Mapping { table: TableElement; cols: Map<string, { col: number; score: number }>; headerRows: number; score: number }

function mapTable(t: TableElement, props: [string, FieldSpec][]): Mapping | undefined {
  const headerRows = Math.max(1, t.headerRows);
  const headers = Array.from({ length: t.cols }, (_, col) =>
    Array.from({ length: headerRows }, (_, row) => cellText(t, row, col).text).filter(Boolean).join(' '));
  const pairs: { prop: string; col: number; score: number }[] = [];
  for (const [name, spec] of props) {
    headers.forEach((h, col) => {
      const score = h ? labelScore(spec, h) : 0;
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
  const needed = Math.min(2, props.length);
  if (cols.size < needed) return undefined;
  const score = [...cols.values()].reduce((s, c) => s + c.score, 0) / props.length;
  return { table: t, cols, headerRows, score };
}

function isTotalsRow(t: TableElement, row: number): boolean {
  const texts = Array.from({ length: t.cols }, (_, c) => cellText(t, row, c).text).filter(Boolean);
  return texts.slice(0, 2).some((x) => TOTAL_ROW.test(x));
}

export function tableArray(root: JsonSchema, itemNode: JsonSchema, ctx: SearchContext): TableRows | undefined {
  const item = primary(root, itemNode);
  const required = requiredOf(item);
  const props = propertiesOf(item).map(([name, node]) => [name, fieldSpec(root, primary(root, node), [name], required.has(name))] as [string, FieldSpec]);
  if (!props.length) return undefined;
  const mappings = ctx.ix.tables.map((t) => mapTable(t, props)).filter((m): m is Mapping => Boolean(m));
  if (!mappings.length) return undefined;
  const bestScore = Math.max(...mappings.map((m) => m.score));
  const chosen = mappings.filter((m) => m.score >= 0.9 * bestScore);
  const out: TableRows = { values: [], citations: [], confidence: [], tableIds: chosen.map((m) => m.table.id!), unmapped: props.map(([n]) => n).filter((n) => !chosen[0].cols.has(n)) };
  for (const m of chosen) {
    for (let row = m.headerRows; row < m.table.rows; row++) {
      if (isTotalsRow(m.table, row)) continue;
      const value: Record<string, unknown> = {}, cite: Record<string, string[] | null> = {}, conf: Record<string, number | null> = {};
      let filled = 0;
      for (const [name, spec] of props) {
        const col = m.cols.get(name);
        const cell = col ? cellText(m.table, row, col.col) : { text: '' };
        const tv = cell.text ? typedValue(spec, cell.text, ctx.dates) : undefined;
        value[name] = tv ? tv.value : null;
        cite[name] = tv && cell.id ? [cell.id] : null;
        conf[name] = tv ? Math.min(0.99, col!.score * tv.fit * 0.97) : null;
        if (tv) filled++;
      }
      if (!filled) continue;
      out.values.push(value); out.citations.push(cite); out.confidence.push(conf);
    }
  }
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
        if (isTotalsRow(t, row)) continue;
        const cell = cellText(t, row, col);
        const tv = cell.text ? typedValue(field, cell.text, ctx.dates) : undefined;
        if (tv && cell.id) { values.push(tv.value); ids.push(cell.id); }
      }
      if (values.length) best = { values, ids, score };
    }
  }
  return best;
}
