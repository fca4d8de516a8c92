import { z } from 'zod';
import { BoolField, jsonObjectField } from './fields.js';
import { JobStatusSchema } from './common.js';
import { TablesConfigSchema } from './tables.js';
import { SplitTopicSchema } from './classify-split.js';
import { SchemaConfigSchema, TopicSchemaConfigSchema } from './schema.js';

export const MAX_BATCH_ITEMS = 50;

const Ids = z.array(z.string().min(1)).min(1).max(MAX_BATCH_ITEMS);
const inputs = {
  extraction_ids: Ids.optional().describe('Saved extractions; one child job per id (duplicates are run once)'),
  batch_id: z.string().min(1).optional().describe('A completed /batch/extract parent job: one child per completed child extraction'),
  async: BoolField.optional().describe('Ignored: a batch is always asynchronous (202)'),
};

/** POST /batch/tables: the /tables options applied to every extraction. */
export const BatchTablesRequestSchema = z.object({
  ...inputs,
  tables_config: jsonObjectField(TablesConfigSchema).optional(),
}).strict().meta({ id: 'BatchTablesRequest' });
export type BatchTablesRequest = z.infer<typeof BatchTablesRequestSchema>;

/** POST /batch/split: the same topics for every extraction. */
export const BatchSplitRequestSchema = z.object({
  ...inputs,
  split_config: jsonObjectField(z.object({ split_input: z.array(SplitTopicSchema).min(1).max(100) }).strict()),
}).strict().meta({ id: 'BatchSplitRequest' });
export type BatchSplitRequest = z.infer<typeof BatchSplitRequestSchema>;

/**
 * POST /batch/schema: one single-mode /schema per extraction (extraction_ids or batch_id, with
 * schema_config or schema_config_id), or one split-mode /schema per split (split_ids with split_schema_config).
 */
export const BatchSchemaRequestSchema = z.object({
  ...inputs,
  split_ids: Ids.optional().describe('Split results; each is run in split mode with split_schema_config'),
  schema_config: SchemaConfigSchema.optional(),
  schema_config_id: z.string().optional(),
  split_schema_config: z.record(z.string(), TopicSchemaConfigSchema).optional(),
}).strict().meta({ id: 'BatchSchemaRequest' });
export type BatchSchemaRequest = z.infer<typeof BatchSchemaRequestSchema>;

export const BatchAcceptedSchema = z.object({
  job_id: z.string().describe('The parent job: poll GET /job/{job_id}; DELETE cancels its unfinished children'),
  status: z.literal('pending'),
  message: z.string(),
  queuedAt: z.string(),
  children: z.array(z.object({
    job_id: z.string(),
    extraction_id: z.string().optional().describe('/batch/extract: the child\'s extraction_id; otherwise the input extraction'),
    schema_id: z.string().optional(), tables_id: z.string().optional(), split_id: z.string().optional(),
    filename: z.string().nullable().optional(),
  }).catchall(z.unknown())),
}).meta({ id: 'BatchAccepted' });

/** The parent job's result once every child has settled (GET /job/{job_id}.result). */
export const BatchResultSchema = z.object({
  batch_id: z.string(), total: z.number().int(), completed: z.number().int(), failed: z.number().int(), canceled: z.number().int(),
  pages: z.number(), credits_used: z.number().describe('Sum charged to the children (the parent charges nothing)'),
  results: z.array(z.object({
    job_id: z.string(), status: JobStatusSchema,
    extraction_id: z.string().optional(), schema_id: z.string().optional(), tables_id: z.string().optional(), split_id: z.string().optional(),
    filename: z.string().nullable().optional(), pages: z.number().optional(), credits_used: z.number().optional(),
    error: z.string().optional(), error_code: z.string().optional(),
  })),
}).meta({ id: 'BatchResult' });
