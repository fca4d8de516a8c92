import { canonicalLabel, labelTokens, normalizeLabel, type JsonSchema } from '@quire/models';
import { fieldConcept, type Concept } from './label-lexicon.js';
import { typesOf } from './schema-node.js';

/**
 * What the extractor knows about one leaf of the schema: the labels it may be printed under (its
 * name, title, quoted hints in its description, its parent's name as qualifier) and the kind of
 * value it holds (from type, format, enum and — for plain strings — what the name says).
 */

export type FieldKind =
  | 'date' | 'date-time' | 'time' | 'date-text' | 'number' | 'integer' | 'percent' | 'boolean'
  | 'email' | 'uri' | 'phone' | 'currency' | 'enum' | 'identifier' | 'string';

export interface LabelVariant {
  text: string;
  weight: number;
}

export interface FieldSpec {
  /** JSON pointer of the value ("/invoice_number", "/vendor/name"). */
  path: string;
  name: string;
  kind: FieldKind;
  labels: LabelVariant[];
  description: string;
  enumValues?: unknown[];
  nullable: boolean;
  required: boolean;
  /** The field names a total (largest/last amount labelled total wins). */
  isTotal: boolean;
  /** What the field asks for, read language-independently from its name and description (label-lexicon). */
  concept?: Concept;
}

function kindOf(root: JsonSchema, node: JsonSchema, name: string, description: string): FieldKind {
  const types = typesOf(root, node);
  const format = typeof node.format === 'string' ? node.format : '';
  const words = ` ${normalizeLabel(`${name}`)} `;
  if (Array.isArray(node.enum) && node.enum.length) return 'enum';
  if (types.has('boolean') && !types.has('string')) return 'boolean';
  if (types.has('integer') && !types.has('number')) return 'integer';
  if (types.has('number')) return /\b(percent|percentage|pct|rate)\b/.test(words) ? 'percent' : 'number';
  if (format === 'date') return 'date';
  if (format === 'date-time') return 'date-time';
  if (format === 'time') return 'time';
  if (/email/.test(format)) return 'email';
  if (/^(uri|url|iri|uri-reference|iri-reference|hostname)$/.test(format)) return 'uri';
  if (/\b(e ?mail|email address)\b/.test(words)) return 'email';
  if (/\b(phone|telephone|tel|fax|mobile|cell)\b/.test(words)) return 'phone';
  if (/\b(url|website|web site|homepage|site|web)\b/.test(words)) return 'uri';
  if (/\bcurrency\b/.test(words)) return 'currency';
  // "invoice number", "order id", "reference": a code, read as one token with digits
  if (/\b(number|no|num|nr|id|code|ref|reference)\s$/.test(words) && !/\b(phone|telephone|tax|vat)\b/.test(words)) return 'identifier';
  if (/\b(date|dob|birthday)\b/.test(words) || /\bdate\b/.test(normalizeLabel(description).split(' ').slice(0, 3).join(' '))) return 'date-text';
  return 'string';
}

/** Quoted phrases in a description are label hints: "printed as 'Amount Due'". */
const quoted = (s: string) => [...s.matchAll(/["“'‘]([^"”'’]{2,40})["”'’]/g)].map((m) => m[1]);

export function fieldSpec(root: JsonSchema, node: JsonSchema, path: string[], required: boolean): FieldSpec {
  const name = path[path.length - 1] ?? (typeof node.title === 'string' ? node.title : 'value');
  const description = typeof node.description === 'string' ? node.description : '';
  const labels: LabelVariant[] = [{ text: name, weight: 1 }];
  if (typeof node.title === 'string') labels.push({ text: node.title, weight: 1 });
  for (const q of quoted(description)) labels.push({ text: q, weight: 0.98 });
  // a description of a few words is usually the printed label itself ("Invoice date")
  if (description && description.split(/\s+/).length <= 3 && !/[.:]/.test(description)) labels.push({ text: description, weight: 0.98 });
  const parent = path.length > 1 ? path[path.length - 2] : undefined;
  if (parent && !/^\d+$/.test(parent)) {
    // "vendor" › "name": the printed label is usually "Vendor Name"; a bare "Name" is weaker evidence
    labels.unshift({ text: `${parent} ${name}`, weight: 1 });
    labels[1].weight = 0.88;
  }
  const types = typesOf(root, node);
  const kind = kindOf(root, node, name, description);
  const concept = fieldConcept(name, description);
  return {
    path: '/' + path.join('/'),
    name,
    kind,
    labels,
    description,
    enumValues: Array.isArray(node.enum) ? node.enum : undefined,
    nullable: types.has('null'),
    required,
    isTotal: (kind === 'number' || kind === 'integer') && (labels.some((l) => canonicalLabel(l.text) === 'total') || concept === 'total'),
    concept,
  };
}

/** A field whose label says no more than its kind ("email", "website", "date"): a lone pattern may answer it. */
export function isGenericField(f: FieldSpec): boolean {
  const generic: Partial<Record<FieldKind, string[]>> = {
    email: ['email', 'mail', 'address', 'contact'], uri: ['url', 'website', 'web', 'site', 'homepage', 'link', 'uri'],
    phone: ['phone', 'telephone', 'tel', 'number', 'contact', 'mobile'], currency: ['currency', 'code'],
    date: ['date', 'invoice', 'issue', 'document'], 'date-text': ['date', 'invoice', 'issue', 'document'],
  };
  const allowed = generic[f.kind];
  return Boolean(allowed) && labelTokens(f.name).every((t) => allowed!.includes(t));
}
