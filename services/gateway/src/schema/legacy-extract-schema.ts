import { QuireError } from '@quire/core';
import type { ExtractOptions } from '@quire/contracts';
import type { ResolvedSchemaConfig } from '@quire/queue';
import type { SchemaLimits } from '@quire/schema';
import { inlineConfigKey, resolveConfig } from './plan-schema-job.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The deprecated /extract inputs as a schema configuration: top-level `schema` (a JSON Schema) and
 * `schema_prompt`, or `structured_output` holding either a JSON Schema itself or
 * {schema | input_schema, schema_prompt}. Validated here (SCHEMA_00x) before anything is accepted.
 */
export function legacySchemaConfig(o: ExtractOptions, limits: SchemaLimits): { config: ResolvedSchemaConfig; key: string } | undefined {
  if (!o.structured_output && !o.schema && o.schema_prompt === undefined) return undefined;
  const so = o.structured_output;
  const nested = so && (isObject(so.schema) ? so.schema : isObject(so.input_schema) ? so.input_schema : undefined);
  const schema = o.schema ?? nested ?? (so && ('type' in so || 'properties' in so) ? so : undefined);
  const prompt = o.schema_prompt ?? (so && typeof so.schema_prompt === 'string' ? so.schema_prompt : undefined);
  if (!schema) throw new QuireError('REQ_004', 'Missing required parameter: schema (schema_prompt and structured_output need a JSON Schema; prefer POST /schema)', { field: 'schema' });
  const config = resolveConfig({ input_schema: schema, schema_prompt: prompt }, 'schema', limits);
  return { config, key: inlineConfigKey({ input_schema: schema, ...(prompt !== undefined ? { schema_prompt: prompt } : {}) }) };
}
