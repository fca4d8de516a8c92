import { validatorFor, type JsonSchema, type SchemaAnswer, type SchemaRequest } from '@quire/models';
import { scalarCandidates, type SearchContext } from './candidates.js';
import { choose } from './choose.js';
import { buildIndex, type DocIndex } from './doc-index.js';
import { fieldSpec, type FieldSpec } from './field-spec.js';
import { itemsOf, primary, propertiesOf, requiredOf, typesOf } from './schema-node.js';
import { tableArray, tableColumn } from './tables.js';
import { documentCurrency } from './values/currency.js';
import { inferDayFirst } from '@quire/models';
import type { EmbeddedInvoice } from '@quire/core';
import { embeddedRows, embeddedScalar } from './embedded-invoice.js';

/**
 * The built-in schema extractor: walks the JSON Schema, finds each leaf's value in the Document
 * (labels, neighbours, tables, typed patterns), and returns values with citations (element ids)
 * and confidence mirroring the schema's shape. Fields without a qualifying candidate are null with
 * a note saying why — never a guess. Deterministic; no network.
 */

interface Node { value: unknown; citation: unknown; confidence: unknown }
interface Walk {
  root: JsonSchema; ctx: SearchContext; notes: Record<string, string>; hints: Map<string, string[]>;
  /** The invoice the file carries as XML (e-invoice PDFs): it answers the invoice fields it states. */
  invoice?: EmbeddedInvoice;
}

const pointer = (path: string[]) => '/' + path.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

function withHints(w: Walk, spec: FieldSpec): FieldSpec {
  const extra = w.hints.get(spec.name.toLowerCase());
  return extra ? { ...spec, labels: [...spec.labels, ...extra.map((text) => ({ text, weight: 1 }))] } : spec;
}

function scalar(w: Walk, node: JsonSchema, path: string[], required: boolean): Node {
  const spec = withHints(w, fieldSpec(w.root, node, path, required));
  let cands: ReturnType<typeof scalarCandidates> | undefined;
  const printed = () => (cands ??= scalarCandidates(spec, w.ctx));
  if (w.invoice) {
    const e = embeddedScalar(spec, w.invoice, w.ctx, () => ({ cands: printed(), best: choose(spec, printed()).best }));
    if (e) {
      w.notes[pointer(path)] = e.note;
      return { value: e.value, citation: e.ids, confidence: e.confidence };
    }
  }
  const choice = choose(spec, printed());
  if (!choice.best) {
    w.notes[pointer(path)] = (required ? 'required field not found: ' : 'not found: ') + (choice.note ?? 'no candidate');
    return { value: null, citation: null, confidence: null };
  }
  return { value: choice.best.value, citation: choice.best.ids, confidence: round(choice.confidence) };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

function array(w: Walk, node: JsonSchema, path: string[], required: boolean): Node {
  const items = itemsOf(node);
  const item = items ? primary(w.root, items) : undefined;
  const where = pointer(path);
  if (item && (typesOf(w.root, item).has('object') || propertiesOf(item).length)) {
    const fromXml = w.invoice && embeddedRows(path[path.length - 1] ?? '', itemProps(w.root, item), w.invoice, w.ctx);
    if (fromXml) {
      w.notes[where] = `from the invoice XML embedded in the PDF (${w.invoice!.source.file})${fromXml.unmapped.length ? `; it states nothing for: ${fromXml.unmapped.join(', ')}` : ''}`;
      return { value: fromXml.values, citation: fromXml.citations, confidence: fromXml.confidence };
    }
    const rows = tableArray(w.root, item, w.ctx);
    if (!rows || !rows.values.length) {
      w.notes[where] = 'no table whose header matches the item properties';
      return { value: null, citation: null, confidence: null };
    }
    if (rows.unmapped.length) w.notes[where] = `no column for: ${rows.unmapped.join(', ')}`;
    return { value: rows.values, citation: rows.citations, confidence: rows.confidence.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? null : round(v)]))) };
  }
  // array of scalars: a matching table column, else every accepted labelled value
  const spec = withHints(w, fieldSpec(w.root, item ?? {}, path, required));
  const column = tableColumn(spec, w.ctx);
  if (column) return { value: column.values, citation: column.ids.map((id) => [id]), confidence: column.values.map(() => round(column.score * 0.95)) };
  const cands = scalarCandidates(spec, w.ctx).filter((c) => c.score >= 0.45).sort((a, b) => a.order - b.order);
  const seen = new Set<string>();
  const picked = cands.filter((c) => !seen.has(JSON.stringify(c.value)) && seen.add(JSON.stringify(c.value)));
  if (!picked.length) {
    w.notes[where] = 'no values found';
    return { value: null, citation: null, confidence: null };
  }
  return { value: picked.map((c) => c.value), citation: picked.map((c) => c.ids), confidence: picked.map((c) => round(Math.min(0.99, c.score))) };
}

/** An item object's properties with their field specs (as tableArray reads them). */
function itemProps(root: JsonSchema, item: JsonSchema): [string, FieldSpec][] {
  const required = requiredOf(item);
  return propertiesOf(item).map(([name, node]) => [name, fieldSpec(root, primary(root, node), [name], required.has(name))]);
}

function walk(w: Walk, raw: JsonSchema, path: string[], required: boolean): Node {
  const node = primary(w.root, raw);
  const types = typesOf(w.root, node);
  const props = propertiesOf(node);
  if (props.length || (types.has('object') && !types.has('array'))) {
    const req = requiredOf(node);
    const out: Node = { value: {}, citation: {}, confidence: {} };
    for (const [name, child] of props) {
      const r = walk(w, child, [...path, name], req.has(name));
      (out.value as Record<string, unknown>)[name] = r.value;
      (out.citation as Record<string, unknown>)[name] = r.citation;
      (out.confidence as Record<string, unknown>)[name] = r.confidence;
    }
    return out;
  }
  if (types.has('array')) return array(w, node, path, required);
  return scalar(w, node, path, required);
}

/** `total is labelled "Montant TTC"` in the prompt → an extra label for the field "total". */
function promptHints(prompt: string | undefined): Map<string, string[]> {
  const hints = new Map<string, string[]>();
  for (const m of (prompt ?? '').matchAll(/\b([\w.-]+)\s+(?:is|as)\s+(?:labell?ed|printed as|called|shown as|named)\s+["“']([^"”']{2,40})["”']/gi)) {
    const k = m[1].toLowerCase();
    hints.set(k, [...(hints.get(k) ?? []), m[2]]);
  }
  return hints;
}

/**
 * Day/month order: the prompt, else the document's unambiguous dates, else its currency, else its
 * tax vocabulary (VAT/GST/TVA/MwSt/IVA are taxes of countries that write the day first; the US,
 * the main month-first country, has sales tax instead).
 */
function dayFirstHint(prompt: string | undefined, ix: DocIndex): boolean | undefined {
  if (prompt && /\b(dd[./-]mm|day[- ]first|european date)/i.test(prompt)) return true;
  if (prompt && /\b(mm[./-]dd|month[- ]first|us date)/i.test(prompt)) return false;
  // a currency printed (or a crown or dollar placed by the country), not one only the country suggests
  const found = documentCurrency(ix.texts);
  const currency = found && found.how !== 'default' ? found.code : undefined;
  const taxHint = ix.texts.some((t) => DAY_FIRST_TAXES.test(t)) ? true : undefined;
  return inferDayFirst(ix.texts, currency === undefined ? taxHint : currency !== 'USD');
}

const DAY_FIRST_TAXES = /\b(VAT|GST|TVA|MwSt|USt|IVA|BTW|IGST|CGST|SGST)\b/;

function setAt(obj: unknown, path: string[], value: unknown): void {
  let cur = obj as Record<string, unknown>;
  for (const p of path.slice(0, -1)) cur = cur?.[p] as Record<string, unknown>;
  if (cur && path.length) cur[path[path.length - 1]] = value;
}

/** Anything ajv still rejects becomes null with the reason (declared nulls are expected failures). */
function enforceSchema(root: JsonSchema, answer: SchemaAnswer, notes: Record<string, string>): void {
  const validate = validatorFor(root);
  if (!validate) return;
  for (let pass = 0; pass < 8 && !validate(answer.values); pass++) {
    const fresh = (validate.errors ?? []).filter((e) => e.instancePath && !(e.instancePath in notes));
    if (!fresh.length) return;
    for (const e of fresh) {
      const path = e.instancePath.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
      notes[e.instancePath] = `dropped: value failed schema validation (${e.message ?? e.keyword})`;
      for (const target of [answer.values, answer.citations, answer.confidence]) setAt(target, path, null);
    }
  }
}

export function extractSchemaBuiltin(req: SchemaRequest): SchemaAnswer {
  const ix = buildIndex(req.document);
  const root = req.schema;
  const schemaLabels: string[] = [];
  const collect = (n: JsonSchema) => propertiesOf(primary(root, n)).forEach(([k, v]) => { schemaLabels.push(k); collect(v); const it = itemsOf(primary(root, v)); if (it) collect(it); });
  collect(root);
  const ctx: SearchContext = { ix, dates: { dayFirst: dayFirstHint(req.prompt, ix) }, schemaLabels };
  const notes: Record<string, string> = {};
  const result = walk({ root, ctx, notes, hints: promptHints(req.prompt), invoice: req.document.embeddedInvoice }, root, [], true);
  const answer: SchemaAnswer = { values: result.value, citations: result.citation, notes };
  if (req.wantConfidence) answer.confidence = result.confidence;
  enforceSchema(root, { ...answer, confidence: answer.confidence ?? {} }, notes);
  return answer;
}
