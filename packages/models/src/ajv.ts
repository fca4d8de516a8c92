import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonSchema } from './language-model.js';

/**
 * One ajv set-up for everything that validates against a caller's schema (input checks in
 * @quire/schema, answer checks in the HTTP adapter): draft 2020-12 when the schema says so, draft-07
 * otherwise; ajv-formats on; strict off because vendor keywords ("x-…") are common and harmless.
 */
export function createAjv(schema?: JsonSchema): Ajv {
  const is2020 = typeof schema?.$schema === 'string' && schema.$schema.includes('2020-12');
  const ajv = (is2020 ? new Ajv2020({ allErrors: true, strict: false }) : new Ajv({ allErrors: true, strict: false })) as unknown as Ajv;
  addFormats.default(ajv);
  return ajv;
}

const compiled = new WeakMap<JsonSchema, ValidateFunction | null>();

/** The compiled validator of a caller's schema, once per schema object; null when ajv cannot compile it. */
export function validatorFor(schema: JsonSchema): ValidateFunction | null {
  if (!compiled.has(schema)) {
    try { compiled.set(schema, createAjv(schema).compile(schema)); } catch { compiled.set(schema, null); }
  }
  return compiled.get(schema)!;
}
