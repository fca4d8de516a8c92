import { QuireError } from '@quire/core';
import { DEFAULT_MAX_SCHEMA_PROPERTIES, countSchemaProperties, validateSchemaInput, schemaDepth } from './validate-schema.js';

const codeOf = (fn: () => unknown) => {
  try { fn(); } catch (e) { return (e as QuireError).code; }
  return undefined;
};

const nest = (levels: number): Record<string, unknown> => {
  let node: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < levels; i++) node = { type: 'object', properties: { child: node } };
  return node;
};

describe('validateSchemaInput', () => {
  it('accepts a normal schema and returns a working validator', () => {
    const v = validateSchemaInput({ type: 'object', properties: { total: { type: ['number', 'null'] }, when: { type: 'string', format: 'date' } }, required: ['total'] });
    expect(v({ total: 3, when: '2024-01-02' })).toBe(true);
    expect(v({ total: 'x' })).toBe(false);
  });
  it('accepts draft 2020-12 schemas with $defs and refs', () => {
    expect(codeOf(() => validateSchemaInput({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', $defs: { m: { type: 'number' } }, properties: { a: { $ref: '#/$defs/m' } } }))).toBeUndefined();
  });
  it.each([
    ['a non-object', 'not a schema'],
    ['a bad keyword value', { type: 'object', properties: { a: { minLength: -1 } } }],
    ['a required that is not an array', { type: 'object', required: 'a' }],
    ['a dangling $ref', { type: 'object', properties: { a: { $ref: '#/definitions/missing' } } }],
  ])('SCHEMA_001 for %s', (_, schema) => expect(codeOf(() => validateSchemaInput(schema))).toBe('SCHEMA_001'));
  it.each([
    [{ type: 'date' }],
    [{ type: 'object', properties: { a: { type: ['string', 'datetime'] } } }],
    [{ type: 'object', properties: { a: { anyOf: [{ type: 'decimal' }, { type: 'null' }] } } }],
  ])('SCHEMA_004 for unsupported types %#', (schema) => expect(codeOf(() => validateSchemaInput(schema))).toBe('SCHEMA_004'));
  it('allows 5 levels and refuses a 6th (SCHEMA_003)', () => {
    expect(schemaDepth(nest(5))).toBe(5);
    expect(codeOf(() => validateSchemaInput(nest(5)))).toBeUndefined();
    expect(codeOf(() => validateSchemaInput(nest(6)))).toBe('SCHEMA_003');
  });
  it('counts properties over every object and refuses more than the limit with SCHEMA_003', () => {
    const wide = (n: number) => ({ type: 'object', properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, { type: 'string' }])) });
    // nested objects, array items and $defs all count
    expect(countSchemaProperties({ type: 'object', properties: { a: wide(3), b: { type: 'array', items: wide(2) } }, $defs: { d: wide(4) } })).toBe(2 + 3 + 2 + 4);
    expect(codeOf(() => validateSchemaInput(wide(DEFAULT_MAX_SCHEMA_PROPERTIES)))).toBeUndefined();
    expect(codeOf(() => validateSchemaInput(wide(DEFAULT_MAX_SCHEMA_PROPERTIES + 1)))).toBe('SCHEMA_003');
    expect(codeOf(() => validateSchemaInput(wide(10_000)))).toBe('SCHEMA_003');
    // the operator's setting
    expect(codeOf(() => validateSchemaInput(wide(11), { maxProperties: 10 }))).toBe('SCHEMA_003');
    expect(codeOf(() => validateSchemaInput(wide(10), { maxProperties: 10 }))).toBeUndefined();
  });
  it('refuses a schema nested 20,000 levels with SCHEMA_003, not a stack overflow', () => {
    expect(codeOf(() => validateSchemaInput(nest(20_000)))).toBe('SCHEMA_003');
    // deep in a keyword the depth count does not follow (a default value), too
    let value: unknown = 1;
    for (let i = 0; i < 20_000; i++) value = [value];
    expect(codeOf(() => validateSchemaInput({ type: 'array', default: value }))).toBe('SCHEMA_003');
  });
  it('counts an array of objects as one level', () => {
    const lineItems = { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } };
    expect(schemaDepth({ type: 'object', properties: { lines: lineItems } })).toBe(2);
  });
  it('refuses a recursive schema as too deep', () => {
    const schema = { type: 'object', definitions: { node: { type: 'object', properties: { next: { $ref: '#/definitions/node' } } } }, properties: { head: { $ref: '#/definitions/node' } } };
    expect(codeOf(() => validateSchemaInput(schema))).toBe('SCHEMA_003');
  });
});
