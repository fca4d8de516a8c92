import type { ValidateFunction, ErrorObject } from 'ajv';
import { QuireError } from '@quire/core';
import { createAjv, type JsonSchema } from '@quire/models';
import { SUPPORTED_TYPES, deref, isObjectNode } from './schema-node.js';

/** Deepest nesting a schema may have (objects/arrays inside objects/arrays); the spec's SCHEMA_003. */
const MAX_SCHEMA_DEPTH = 5;

const SCHEMA_KEYS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'additionalItems'];
const SCHEMA_MAP_KEYS = ['properties', 'patternProperties', '$defs', 'definitions'];
const SCHEMA_LIST_KEYS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/**
 * Deepest JSON nesting a schema document may have. Five levels of objects and arrays, with the wrappers
 * around them (properties, items, anyOf, $defs), stay far below it; a deeper document is refused as
 * SCHEMA_003 before the recursive checks below (and ajv's), which a schema nested 20,000 levels deep
 * would run out of stack in.
 */
export const MAX_SCHEMA_JSON_DEPTH = 64;

/**
 * Most properties a schema may declare, counted over every `properties` and `patternProperties` map in
 * the document (nested objects, array items and $defs included) by default. Each property is a field
 * to extract, check and score: a schema with 10,000 of them kept a worker busy for minutes and its
 * validation alone held the gateway's event loop for seconds. QUIRE_SCHEMA_MAX_PROPERTIES overrides it.
 */
export const DEFAULT_MAX_SCHEMA_PROPERTIES = 1_000;

/** The number of property declarations in a schema document (see DEFAULT_MAX_SCHEMA_PROPERTIES); walks with its own stack. */
export function countSchemaProperties(value: unknown): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (!Array.isArray(v)) {
      for (const k of ['properties', 'patternProperties']) {
        const m = (v as Record<string, unknown>)[k];
        if (isObjectNode(m)) count += Object.keys(m).length;
      }
    }
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push(child);
  }
  return count;
}

/** Whether a JSON value nests deeper than `max`; walks with its own stack. */
function jsonDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Every `type` keyword must name one of the seven JSON types (strings or arrays of them). */
function checkTypes(node: unknown, path: string): void {
  if (Array.isArray(node)) return node.forEach((n, i) => checkTypes(n, `${path}/${i}`));
  if (!isObjectNode(node)) return;
  const t = node.type;
  const listed = typeof t === 'string' ? [t] : Array.isArray(t) ? t : t === undefined ? [] : [t];
  for (const x of listed) {
    if (typeof x !== 'string' || !SUPPORTED_TYPES.has(x)) {
      throw new QuireError('SCHEMA_004', `Unsupported schema type ${JSON.stringify(x)} at ${path || '/'} (allowed: string, number, integer, boolean, object, array, null)`, { path: path || '/', type: x as unknown as string });
    }
  }
  for (const k of SCHEMA_KEYS) if (k in node) checkTypes(node[k], `${path}/${k}`);
  for (const k of SCHEMA_LIST_KEYS) if (Array.isArray(node[k])) checkTypes(node[k], `${path}/${k}`);
  for (const k of SCHEMA_MAP_KEYS) {
    const m = node[k];
    if (isObjectNode(m)) for (const [name, sub] of Object.entries(m)) checkTypes(sub, `${path}/${k}/${name}`);
  }
}

/**
 * Nesting depth in the user's terms: each object or array level counts once, and an array of
 * objects counts as one level (a list of line items is not two levels deep). $refs are followed,
 * so a recursive schema is "too deep" rather than an endless walk.
 */
export function schemaDepth(root: JsonSchema, raw: JsonSchema = root, level = 0): number {
  if (level > MAX_SCHEMA_DEPTH + 1) return level;
  const node = deref(root, raw);
  let deepest = level;
  const visit = (child: unknown, nextLevel: number) => {
    if (isObjectNode(child)) deepest = Math.max(deepest, schemaDepth(root, child, nextLevel));
  };
  const isContainer = isObjectNode(node.properties) || node.items !== undefined || node.type === 'object' || node.type === 'array';
  const here = isContainer ? level + 1 : level;
  deepest = Math.max(deepest, here);
  if (isObjectNode(node.properties)) for (const sub of Object.values(node.properties)) visit(sub, here);
  if (isObjectNode(node.items)) {
    const items = deref(root, node.items);
    // an array of objects: the item object shares the array's level
    if (isObjectNode(items.properties)) for (const sub of Object.values(items.properties)) visit(sub, here);
    else visit(items, here);
  }
  for (const k of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(node[k])) for (const b of node[k] as unknown[]) visit(b, level);
  return deepest;
}

const tooDeep = (what: string) =>
  new QuireError('SCHEMA_003', `Schema too complex: nesting of ${what} (at most ${MAX_SCHEMA_DEPTH} levels)`, { max_depth: MAX_SCHEMA_DEPTH });

export interface SchemaLimits {
  /** Most property declarations (default DEFAULT_MAX_SCHEMA_PROPERTIES). */
  maxProperties?: number;
}

const describeErrors = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).slice(0, 10).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim());

/**
 * Checks a caller's JSON Schema before any work and returns its compiled validator. Throws
 * SCHEMA_004 (a type outside the seven), SCHEMA_001 (not a valid schema per ajv's meta-schema or
 * compilation) or SCHEMA_003 (nesting beyond 5 levels, or more properties than limits.maxProperties).
 */
export function validateSchemaInput(schema: unknown, limits: SchemaLimits = {}): ValidateFunction {
  if (!isObjectNode(schema)) throw new QuireError('SCHEMA_001', 'Invalid schema format: the schema must be a JSON object');
  if (jsonDeeperThan(schema, MAX_SCHEMA_JSON_DEPTH)) throw tooDeep(`more than ${MAX_SCHEMA_JSON_DEPTH} levels of JSON`);
  const maxProperties = limits.maxProperties ?? DEFAULT_MAX_SCHEMA_PROPERTIES;
  const properties = countSchemaProperties(schema);
  if (properties > maxProperties) {
    throw new QuireError('SCHEMA_003', `Schema too complex: ${properties} properties (at most ${maxProperties})`, { properties, max_properties: maxProperties });
  }
  checkTypes(schema, '');
  const ajv = createAjv(schema);
  if (!ajv.validateSchema(schema)) {
    throw new QuireError('SCHEMA_001', 'Invalid schema format', { errors: describeErrors(ajv.errors) });
  }
  const depth = schemaDepth(schema);
  if (depth > MAX_SCHEMA_DEPTH) {
    throw tooDeep(`${depth > MAX_SCHEMA_DEPTH + 1 ? 'more than ' + (MAX_SCHEMA_DEPTH + 1) : depth} levels`);
  }
  try {
    return ajv.compile(schema);
  } catch (e) {
    throw new QuireError('SCHEMA_001', `Invalid schema format: ${(e as Error).message}`);
  }
}
