import { z } from 'zod';
import { BoolField } from './fields.js';
import { PlanInfoSchema } from './common.js';

const JsonObject = z.record(z.string(), z.unknown());
const Uuid = z.string().describe('uuid');

/** schema_config: the inline schema of a /schema call (and the body of a saved configuration). */
export const SchemaConfigSchema = z.object({
  input_schema: JsonObject.describe('JSON Schema of the data to extract (type, properties, items, required, description, format)'),
  schema_prompt: z.string().optional().describe('Natural-language guidance'),
  effort: BoolField.optional().describe('Extended reasoning: 6 credits per page instead of 1'),
  agentic_confidence: BoolField.optional().describe('Per-field confidence 0..1 (+3 credits per page); needs the agentic_confidence flag'),
}).strict().meta({ id: 'SchemaConfig' });
export type SchemaConfig = z.infer<typeof SchemaConfigSchema>;

/** One topic of split_schema_config; `schema` is the spec's name, `input_schema` is accepted too. */
export const TopicSchemaConfigSchema = z.object({
  schema: JsonObject.optional(),
  input_schema: JsonObject.optional(),
  schema_prompt: z.string().optional(),
  effort: BoolField.optional(),
  agentic_confidence: BoolField.optional(),
}).strict().meta({ id: 'TopicSchemaConfig' });
export type TopicSchemaConfig = z.infer<typeof TopicSchemaConfigSchema>;

/** POST /schema. The mode follows from the inputs: extraction_id, extraction_ids, or split_id. */
export const SchemaRequestSchema = z.object({
  extraction_id: Uuid.optional().describe('Single mode: one saved extraction'),
  extraction_ids: z.array(Uuid).min(1).max(100).optional().describe('Composite mode: extractions combined into one; citations read <extraction_id>-<element id>'),
  split_id: Uuid.optional().describe('Split mode: a prior /split result; needs split_schema_config'),
  schema_config: SchemaConfigSchema.optional(),
  schema_config_id: Uuid.optional().describe('A saved configuration (POST /schema/configs); exclusive with schema_config'),
  split_schema_config: z.record(z.string(), TopicSchemaConfigSchema).optional().describe('Split mode: topic name → its schema, schema_prompt, effort'),
  async: BoolField.optional(),
}).strict().meta({ id: 'SchemaRequest' });
export type SchemaRequest = z.infer<typeof SchemaRequestSchema>;

export const SchemaOutputSchema = z.object({
  values: z.unknown().describe('Extracted data shaped by input_schema; null where the document does not say'),
  citations: z.unknown().describe('Mirrors values: element ids (txt-3, tbl-1-r4c2) per leaf'),
  confidence: z.unknown().optional().describe('Mirrors values: 0..1 per leaf; only with agentic_confidence'),
}).meta({ id: 'SchemaOutput' });

const Details = z.object({
  notes: z.record(z.string(), z.string()).describe('JSON pointer → why the field is null (not found, failed schema validation) or what was left out; for a value taken from an e-invoice XML embedded in the PDF, that source and, where the page prints another value, what the page reads'),
  model: z.string().describe('"builtin" or "openai:<model>"'),
}).partial();

export const SchemaResultSchema = z.object({
  schema_id: Uuid,
  version: z.number().int(),
  schema_output: SchemaOutputSchema.optional(),
  extraction_ids: z.array(Uuid).optional(),
  split_id: Uuid.optional(),
  results: z.record(z.string(), z.object({ schema_output: SchemaOutputSchema, pages: z.array(z.number().int()), details: Details.optional() })).optional()
    .describe('Split mode: one result per topic, keyed by topic name'),
  schema_config_id: Uuid.optional(),
  details: Details.optional(),
  credits_used: z.number(),
  plan_info: PlanInfoSchema,
}).meta({ id: 'SchemaResult' });

/** POST /schema/configs and PUT /schema/configs/{id}. */
export const SchemaConfigCreateSchema = z.object({
  name: z.string().max(200).optional(),
  schema_config: SchemaConfigSchema,
}).strict().meta({ id: 'SchemaConfigCreate' });

export const SchemaConfigUpdateSchema = z.object({
  name: z.string().max(200).optional(),
  schema_config: SchemaConfigSchema.optional(),
}).strict().meta({ id: 'SchemaConfigUpdate' });

export const SchemaConfigRecordSchema = z.object({
  schema_config_id: Uuid,
  name: z.string(),
  schema_config: SchemaConfigSchema,
  config_version: z.number().int().describe('Edits of the configuration (PUT) count up from 1'),
  created_at: z.string(),
  updated_at: z.string(),
}).meta({ id: 'SchemaConfigRecord' });

export const SchemaConfigListSchema = z.object({ schema_configs: z.array(SchemaConfigRecordSchema) }).meta({ id: 'SchemaConfigList' });

export const SchemaVersionSchema = z.object({
  schema_id: Uuid,
  version: z.number().int(),
  created_at: z.string(),
  expired: z.boolean(),
  config_version: z.number().int().optional(),
  extraction_ids: z.array(Uuid).optional(),
  split_id: Uuid.optional(),
}).meta({ id: 'SchemaVersion' });

export const SchemaVersionListSchema = z.object({
  schema_config_id: Uuid.optional(),
  versions: z.array(SchemaVersionSchema),
}).meta({ id: 'SchemaVersionList' });

/** GET /schema/{schema_id}: the saved record of one /schema call. */
export const SchemaRecordSchema = SchemaVersionSchema.extend({
  schema_output: SchemaOutputSchema.optional(),
  results: z.record(z.string(), z.unknown()).optional(),
  schema_config_id: Uuid.optional(),
}).meta({ id: 'SchemaRecord' });
