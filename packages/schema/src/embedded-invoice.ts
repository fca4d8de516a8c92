import type { EmbeddedInvoice, EmbeddedInvoiceLine } from '@quire/core';
import { findDates } from '@quire/models';
import type { Candidate, SearchContext } from './candidates.js';
import type { FieldSpec } from './field-spec.js';
import { propertyRole, type ItemRole } from './item-grid.js';
import { labelConcept } from './label-lexicon.js';
import { letterheadKind } from './letterhead.js';
import { customerField } from './parties.js';
import type { Unit } from './doc-index.js';
import { findAmounts } from './values/amounts.js';

/*
 * Schema fields answered by the invoice a PDF carries as XML (Document.embeddedInvoice: Factur-X,
 * ZUGFeRD, XRechnung). The XML is the issuer's own statement of the invoice, so a field it answers
 * takes its value from it; the page is searched for where that value is printed, to cite it. A field
 * the XML does not answer (or answers with nothing) is read from the page as usual.
 */

/** How sure a value from the embedded XML is: printed on the page as well, or stated by the XML alone. */
export const EMBEDDED_CONFIDENCE = { printed: 0.98, unprinted: 0.93 };

type Scalar = Exclude<keyof EmbeddedInvoice, 'source' | 'lines'>;

const ORG_PARENTS = new Set(['vendor', 'seller', 'supplier', 'issuer', 'merchant', 'company', 'biller', 'from', 'sender', 'provider']);
const BUYER_PARENTS = new Set(['customer', 'client', 'buyer', 'recipient', 'purchaser', 'bill_to', 'billto', 'billed_to', 'to']);
const NAME_LEAVES = new Set(['name', 'company', 'company_name', 'legal_name', 'companyname', 'organisation', 'organization']);
const DUE_WORDS = /\b(due|payable|balance|outstanding|to pay)\b/i;

/** The embedded invoice's field a schema field asks for, by what the field means (as the printed reading matches labels). */
export function invoiceFieldOf(spec: FieldSpec): Scalar | undefined {
  const numeric = spec.kind === 'number';
  const words = `${spec.name.replace(/[_-]+/g, ' ')} ${spec.description}`;
  switch (spec.concept) {
    case 'doc-number': return spec.kind === 'identifier' || spec.kind === 'string' ? 'number' : undefined;
    case 'doc-date': return spec.kind === 'date' || spec.kind === 'date-text' ? 'issueDate' : undefined;
    case 'due-date': return spec.kind === 'date' || spec.kind === 'date-text' ? 'dueDate' : undefined;
    case 'total': return numeric ? (DUE_WORDS.test(words) ? 'duePayable' : 'grandTotal') : undefined;
    case 'subtotal': return numeric ? 'taxBasisTotal' : undefined;
    case 'tax': return numeric ? 'taxTotal' : undefined;
    default: break;
  }
  if (spec.kind === 'currency') return 'currency';
  if (spec.kind !== 'string') return undefined;
  const segs = spec.path.split('/').filter(Boolean).map((s) => s.toLowerCase());
  const parent = segs.length > 1 ? segs[segs.length - 2] : undefined;
  if (parent && NAME_LEAVES.has(segs[segs.length - 1])) {
    if (ORG_PARENTS.has(parent)) return 'seller';
    if (BUYER_PARENTS.has(parent)) return 'buyer';
  }
  if (letterheadKind(spec) === 'organisation') return 'seller';
  if (customerField(spec.name, spec.labels.map((l) => l.text), spec.description)) return 'buyer';
  return undefined;
}

export interface EmbeddedValue {
  value: unknown;
  ids: string[];
  confidence: number;
  note: string;
}

const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
const sameNumber = (a: unknown, b: number) => typeof a === 'number' && Math.abs(a - b) < 0.005;

/** The ISO date a printed date-text value holds. */
const isoOf = (v: unknown, ctx: SearchContext) => (typeof v === 'string' ? findDates(v, ctx.dates)[0]?.iso ?? (/^\d{4}-\d{2}-\d{2}$/.test(v) ? v : undefined) : undefined);

/**
 * A scalar field's value from the embedded invoice, cited where the page prints it; undefined when the
 * XML does not answer the field. `printed` are the field's candidates read from the page: the one
 * holding the same value is the citation, and the page's own best reading, when it differs, is noted.
 */
export function embeddedScalar(spec: FieldSpec, inv: EmbeddedInvoice, ctx: SearchContext, printed: () => { cands: Candidate[]; best?: Candidate }): EmbeddedValue | undefined {
  const which = invoiceFieldOf(spec);
  if (!which) return undefined;
  let raw = inv[which];
  if (which === 'duePayable' && raw === null) raw = inv.grandTotal;
  if (raw === null || raw === undefined) return undefined;
  let value: unknown = raw;
  if (spec.kind === 'number' && typeof raw !== 'number') return undefined;
  if ((spec.kind === 'date' || spec.kind === 'date-text') && typeof raw !== 'string') return undefined;
  const same = (v: unknown) => {
    if (typeof raw === 'number') return sameNumber(v, raw);
    if (spec.kind === 'date' || spec.kind === 'date-text') return isoOf(v, ctx) === raw;
    return typeof v === 'string' && norm(v) === norm(raw as string);
  };
  const { cands, best } = printed();
  const match = cands.filter((c) => same(c.value)).sort((a, b) => b.score - a.score)[0];
  // a date asked as text: as the page prints it, where it does
  if (spec.kind === 'date-text' && match) value = match.value;
  const at = match ? undefined : occurrence(raw, ctx);
  const ids = match?.ids ?? (at ? [at.id] : []);
  const src = `from the invoice XML embedded in the PDF (${inv.source.file})`;
  let note = ids.length ? `${src}; printed on the page` : `${src}; not found printed on the page`;
  if (best && !same(best.value)) note += `; the page's own reading differs (${JSON.stringify(best.value)}), the XML's value is kept`;
  return { value, ids, confidence: ids.length ? EMBEDDED_CONFIDENCE.printed : EMBEDDED_CONFIDENCE.unprinted, note };
}

/** The first unit (text line, table cell) printing the value: the text (letters and digits alike), the amount, the date. */
function occurrence(value: string | number, ctx: SearchContext, within?: Unit[]): Unit | undefined {
  const units = within ?? ctx.ix.units;
  if (typeof value === 'number') return units.find((u) => findAmounts(u.text).some((a) => !a.percent && sameNumber(a.value, value)));
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return units.find((u) => findDates(u.text, ctx.dates).some((d) => d.iso === value));
  const want = norm(value);
  if (!want) return undefined;
  return units.find((u) => norm(u.text).includes(want));
}

export interface EmbeddedRows {
  values: Record<string, unknown>[];
  citations: Record<string, string[] | null>[];
  confidence: Record<string, number | null>[];
  unmapped: string[];
}

const LINE_FIELD: Record<ItemRole, keyof EmbeddedInvoiceLine> = { description: 'description', quantity: 'quantity', 'unit-price': 'unitPrice', amount: 'amount' };

/**
 * An array of item objects from the embedded invoice's lines, when the array asks for items: an item
 * property names a line's description, or the array's name does ("items", "Positionen") and a property
 * names a quantity, unit price or amount (an array of payments with an amount is not the items). Each value
 * is cited where the page prints it: the description anywhere, a figure on the description's printed row
 * (its table row, else its line).
 */
export function embeddedRows(arrayName: string, props: [string, FieldSpec][], inv: EmbeddedInvoice, ctx: SearchContext): EmbeddedRows | undefined {
  if (!inv.lines.length) return undefined;
  const mapped = props.map(([name, spec]) => {
    const role = propertyRole(spec);
    const ok = role && (role === 'description' ? spec.kind === 'string' : spec.kind === 'number' || spec.kind === 'integer');
    return [name, ok ? LINE_FIELD[role] : undefined] as const;
  });
  const items = mapped.some(([, f]) => f === 'description') || (labelConcept(arrayName) === 'description' && mapped.some(([, f]) => f));
  if (!items) return undefined;
  const out: EmbeddedRows = { values: [], citations: [], confidence: [], unmapped: mapped.filter(([, f]) => !f).map(([n]) => n) };
  const used = new Set<Unit>();
  for (const line of inv.lines) {
    const desc = line.description ? ctx.ix.units.find((u) => !used.has(u) && norm(u.text).includes(norm(line.description!)) && norm(line.description!).length > 0) : undefined;
    if (desc) used.add(desc);
    const row = desc ? rowOf(desc, ctx) : [];
    const value: Record<string, unknown> = {}, cite: Record<string, string[] | null> = {}, conf: Record<string, number | null> = {};
    for (const [name, f] of mapped) {
      const v = f ? line[f] : null;
      value[name] = v;
      if (v === null || v === undefined) { cite[name] = null; conf[name] = null; continue; }
      const at = f === 'description' ? desc : occurrence(v, ctx, row);
      cite[name] = at ? [at.id] : [];
      conf[name] = at ? EMBEDDED_CONFIDENCE.printed : EMBEDDED_CONFIDENCE.unprinted;
    }
    out.values.push(value); out.citations.push(cite); out.confidence.push(conf);
  }
  return out;
}

/** The units printed on the same row as `u`: its table row, else the lines level with it on its page. */
function rowOf(u: Unit, ctx: SearchContext): Unit[] {
  if (u.cell) return ctx.ix.units.filter((x) => x.cell?.table === u.cell!.table && x.cell.row === u.cell!.row);
  if (!u.box) return [u];
  const mid = (u.box.y0 + u.box.y1) / 2, half = Math.max(0.004, (u.box.y1 - u.box.y0) / 2);
  return (ctx.ix.byPage.get(u.page) ?? []).filter((x) => x.box && Math.abs((x.box.y0 + x.box.y1) / 2 - mid) <= half);
}
