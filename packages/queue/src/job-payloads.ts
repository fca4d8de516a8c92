import { z } from 'zod';
import type { SourceFormat } from '@quire/core';
import { CHUNK_TYPES, FormCellSchema, PageRangeField, SchemaConfigSchema, SplitTopicSchema, TablesConfigSchema } from '@quire/contracts';

/**
 * What the gateway stores on a job, per kind (the job catalog names them): `request`, the normalized
 * options the handler follows, and `input`, references to what it reads (blob keys, saved ids, page
 * counts; never document bytes). These are the shapes the gateway's routes write after validating
 * the HTTP request, not the HTTP request itself: legacy names folded, defaults applied, saved
 * configurations resolved. Objects strip keys they do not name.
 */

/** How the caller waits: an async job is answered by id, a sync one by a bounded wait (its delivery differs too). */
const Async = z.boolean();

const SOURCE_FORMATS = {
  pdf: 'pdf', png: 'png', jpeg: 'jpeg', tiff: 'tiff', docx: 'docx', pptx: 'pptx', xlsx: 'xlsx', html: 'html',
} as const satisfies { [F in SourceFormat]: F };

/** A file the gateway staged at `<org>/<job>/source`: a multipart upload or a file_url download. */
const StagedFileSchema = z.object({
  blob_key: z.string(),
  filename: z.string().nullable(),
  size: z.number(),
  page_count: z.number().int(),
  source: z.enum(['upload', 'url']),
});

/** A staged document with the format and page count the gateway read from it. */
export const StagedDocumentSchema = StagedFileSchema.extend({ format: z.enum(SOURCE_FORMATS) });

/** A chained step's source: a saved extraction of the organization (checked at submission). */
export const SavedExtractionInputSchema = z.object({ extraction_id: z.string() });

/** A /schema configuration as the gateway resolved it (inline or saved): defaults applied, its JSON Schema validated. */
export const ResolvedSchemaConfigSchema = SchemaConfigSchema.extend({ effort: z.boolean(), agentic_confidence: z.boolean() });
export type ResolvedSchemaConfig = z.infer<typeof ResolvedSchemaConfigSchema>;

// ---- extract ----

/** The /extract options after normalizeExtractOptions (legacy names folded into these). */
const NormalizedExtractOptionsSchema = z.object({
  pages: PageRangeField.optional(),
  show_images: z.boolean(),
  figure_description: z.boolean(),
  footnote_references: z.boolean(),
  detect_selections: z.boolean(),
  return_html: z.boolean(),
  chunk_size: z.number().int().optional(),
  /** extensions.chunking.chunk_types; absent: the default chunks (semantic, untagged). */
  chunk_types: z.array(z.enum(CHUNK_TYPES)).optional(),
  /** extensions.chart_data (absent in jobs queued before it existed). */
  chart_data: z.boolean().optional(),
  /** extensions.html_main_content; absent: decided per page (on for full web pages). */
  html_main_content: z.boolean().optional(),
  storage: z.boolean(),
});
export type NormalizedExtractOptions = z.infer<typeof NormalizedExtractOptionsSchema>;

export const ExtractJobRequestSchema = NormalizedExtractOptionsSchema.extend({
  async: Async,
  base_url: z.string(),
  /** The deprecated structured_output / schema inputs, run as a schema step on the extraction, and their version lineage. */
  legacy_schema: ResolvedSchemaConfigSchema.optional(),
  legacy_schema_key: z.string().optional(),
}).refine((r) => (r.legacy_schema === undefined) === (r.legacy_schema_key === undefined), 'legacy_schema and legacy_schema_key go together');

// ---- classify ----

export const ClassifyJobRequestSchema = z.object({
  async: Async,
  page_range: PageRangeField.optional(),
  pipeline_ids: z.array(z.string()).optional(),
  inline_pipelines: z.boolean(),
});

/** A classification candidate: a saved pipeline, or an inline one (id: its pipeline_id, else its name). */
const PipelineCandidateSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  keywords: z.array(z.string()).optional(),
});
const Pipelines = z.array(PipelineCandidateSchema);

/** A staged document or a saved extraction, with the candidates resolved at submission. */
export const ClassifyJobInputSchema = z.union([
  StagedDocumentSchema.extend({ pipelines: Pipelines }),
  SavedExtractionInputSchema.extend({ pipelines: Pipelines }),
]);

// ---- schema, split, tables ----

export const SchemaJobRequestSchema = z.discriminatedUnion('mode', [
  z.object({
    async: Async,
    mode: z.enum(['single', 'composite']),
    config: ResolvedSchemaConfigSchema,
    /** The version lineage: `config:<id>` of a saved configuration, `inline:<hash>` of an inline one. */
    config_key: z.string(),
    /** Composite mode over the children of this /batch/extract parent. */
    batch_id: z.string().optional(),
    schema_config_id: z.string().optional(),
    config_version: z.number().int().optional(),
  }),
  z.object({
    async: Async,
    mode: z.literal('split'),
    /** Topic name → its configuration. */
    topics: z.record(z.string(), ResolvedSchemaConfigSchema),
    config_key: z.string(),
  }),
]);

/** The extractions read; split mode names the split (whose extraction is extraction_ids[0]). */
export const SchemaJobInputSchema = z.object({ extraction_ids: z.array(z.string()).min(1), split_id: z.string().optional() });

const SplitTopics = z.array(SplitTopicSchema);
export const SplitJobRequestSchema = z.object({ async: Async, split_config: z.object({ split_input: SplitTopics }) });
export const SplitJobInputSchema = SavedExtractionInputSchema.extend({ topics: SplitTopics });

export const TablesJobRequestSchema = z.object({
  async: Async,
  merge: z.boolean(),
  table_format: TablesConfigSchema.shape.table_format.unwrap(),
  charts_to_tables: z.boolean(),
});

export const ChartsJobRequestSchema = z.object({ async: Async });

// ---- forms ----

/** A form call's PDF: staged (PDF checked at intake), or the PDF of an earlier form_id. */
export const FormJobInputSchema = z.union([
  StagedFileSchema,
  z.object({ form_id: z.string(), page_count: z.number().int(), source: z.literal('form') }),
]);

export const FormDetectJobRequestSchema = z.object({ async: Async, base_url: z.string(), pages: PageRangeField.optional() });
/** Hand-edited cells (the spec's FormCell JSON) used instead of the form_id's or detected ones. */
const FormFields = z.array(FormCellSchema);
export const FormFillJobRequestSchema = FormDetectJobRequestSchema.extend({ instructions: z.string(), form_fields: FormFields.optional() });
export const FormClearJobRequestSchema = FormDetectJobRequestSchema.extend({ form_fields: FormFields.optional() });
