import type { JsonSchema } from '@quire/models';

/**
 * Reading JSON Schema nodes the way the extractor needs them: local $ref resolution, the set of
 * types a node admits (type arrays, anyOf/oneOf unions, enums), and the non-null branch of a union.
 */

export type SchemaType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';
export const SUPPORTED_TYPES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

const isObj = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows local "#/..." references (a bounded number of hops, so a cycle of pure refs ends). */
export function deref(root: JsonSchema, node: JsonSchema): JsonSchema {
  let cur = node;
  for (let hops = 0; hops < 32 && typeof cur.$ref === 'string'; hops++) {
    const ref = cur.$ref as string;
    if (!ref.startsWith('#')) return cur;
    const parts = ref.slice(1).split('/').filter(Boolean).map((p) => decodeURIComponent(p.replace(/~1/g, '/').replace(/~0/g, '~')));
    let target: unknown = root;
    for (const p of parts) target = isObj(target) ? target[p] : undefined;
    if (!isObj(target)) return cur;
    const { $ref: _ignored, ...rest } = cur;
    cur = { ...target, ...rest };
  }
  return cur;
}

/** Union branches (anyOf/oneOf), dereferenced. */
function branches(root: JsonSchema, node: JsonSchema): JsonSchema[] {
  const list = (node.anyOf ?? node.oneOf) as unknown;
  return Array.isArray(list) ? list.filter(isObj).map((b) => deref(root, b)) : [];
}

/** Every type the node admits. */
export function typesOf(root: JsonSchema, raw: JsonSchema): Set<SchemaType> {
  const node = deref(root, raw);
  const out = new Set<SchemaType>();
  const t = node.type;
  if (typeof t === 'string') out.add(t as SchemaType);
  else if (Array.isArray(t)) for (const x of t) out.add(x as SchemaType);
  for (const b of branches(root, node)) for (const x of typesOf(root, b)) out.add(x);
  if (!out.size) {
    const vals = Array.isArray(node.enum) ? node.enum : 'const' in node ? [node.const] : [];
    for (const v of vals) out.add(v === null ? 'null' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'string');
    if (!out.size && isObj(node.properties)) out.add('object');
    if (!out.size && node.items !== undefined) out.add('array');
  }
  return out;
}

/** The node with its union flattened to the first non-null alternative (keywords of the node win). */
export function primary(root: JsonSchema, raw: JsonSchema): JsonSchema {
  const node = deref(root, raw);
  const alt = branches(root, node).find((b) => !(typesOf(root, b).size === 1 && typesOf(root, b).has('null')));
  const merged = alt ? { ...alt, ...node } : node;
  delete merged.anyOf;
  delete merged.oneOf;
  const types = [...typesOf(root, node)].filter((x) => x !== 'null');
  if (types.length) merged.type = types.length === 1 ? types[0] : types;
  return merged;
}

export const isObjectNode = isObj;

export function propertiesOf(node: JsonSchema): [string, JsonSchema][] {
  return isObj(node.properties) ? Object.entries(node.properties).filter((e): e is [string, JsonSchema] => isObj(e[1])) : [];
}

export function requiredOf(node: JsonSchema): Set<string> {
  return new Set(Array.isArray(node.required) ? node.required.filter((x): x is string => typeof x === 'string') : []);
}

export function itemsOf(node: JsonSchema): JsonSchema | undefined {
  return isObj(node.items) ? node.items : undefined;
}
