import { z } from 'zod';
import { BoolField, PageRangeField, jsonObjectField } from './fields.js';
import { PlanInfoSchema } from './common.js';

/** A JSON array given as an array or as a JSON string (multipart), or a comma-separated list of ids. */
const jsonArrayField = <T extends z.ZodType>(schema: T, splitCommas = false) =>
  z.preprocess((v) => {
    if (typeof v !== 'string') return v;
    const s = v.trim();
    if (s.startsWith('[')) { try { return JSON.parse(s); } catch { return v; } }
    return splitCommas ? s.split(',').map((x) => x.trim()).filter(Boolean) : v;
  }, schema);

// ---- pipelines (classify routing targets), per organization ----

export const PipelineInputSchema = z.object({
  name: z.string().trim().min(1).max(200).describe('Short name, e.g. "invoices"; weighs most in classification'),
  description: z.string().max(4000).optional().describe('What documents belong here, in plain words'),
  keywords: z.array(z.string().trim().min(1).max(100)).max(100).optional().describe('Words or phrases typical of these documents'),
}).strict().meta({ id: 'PipelineInput' });
export type PipelineInput = z.infer<typeof PipelineInputSchema>;

export const PipelineUpdateSchema = PipelineInputSchema.partial().strict().meta({ id: 'PipelineUpdate' });
export type PipelineUpdate = z.infer<typeof PipelineUpdateSchema>;

export const PipelineSchema = z.object({
  pipeline_id: z.string(), name: z.string(), description: z.string(), keywords: z.array(z.string()), created_at: z.string(),
}).meta({ id: 'Pipeline' });

export const PipelineListSchema = z.object({ pipelines: z.array(PipelineSchema) }).meta({ id: 'PipelineList' });

// ---- POST /classify ----

/** An inline pipeline for one request (not saved); its pipeline_id is echoed back, or its name when none is given. */
export const InlinePipelineSchema = PipelineInputSchema.extend({ pipeline_id: z.string().min(1).max(200).optional() }).strict();

export const ClassifyOptionsSchema = z.object({
  file_url: z.string().optional(),
  extraction_id: z.string().optional().describe('Classify a saved extraction instead of a file'),
  async: BoolField.optional(),
  page_range: PageRangeField.optional().describe('Pages read; default the first 5 pages (PDFs and images)'),
  pages: PageRangeField.optional(),
  pipeline_ids: jsonArrayField(z.array(z.string().min(1)).min(1).max(100), true).optional().describe('Candidates among the saved pipelines (default: all of them)'),
  pipelines: jsonArrayField(z.array(InlinePipelineSchema).min(1).max(100)).optional().describe('Inline candidates used instead of saved pipelines'),
}).strict().meta({ id: 'ClassifyOptions' });
export type ClassifyOptions = z.infer<typeof ClassifyOptionsSchema>;

export const ClassifyResultSchema = z.object({
  classification_id: z.string(),
  pipeline_id: z.string().nullable().describe('null when no pipeline fits'),
  pipeline_name: z.string().nullable(),
  confidence: z.number().describe('Score of the chosen pipeline (0 when none)'),
  scores: z.array(z.object({ pipeline_id: z.string(), name: z.string(), score: z.number() })).describe('Every candidate, best first'),
  pages_read: z.array(z.number().int()).describe('1-indexed pages the decision was made on'),
  page_count: z.number().int(),
  model: z.string(),
  credits_used: z.number(),
  plan_info: PlanInfoSchema,
}).meta({ id: 'ClassifyResult' });

// ---- POST /split ----

export const SplitTopicSchema = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(4000).optional(),
}).strict();

export const SplitOptionsSchema = z.object({
  extraction_id: z.string().min(1),
  split_config: jsonObjectField(z.object({
    split_input: z.array(SplitTopicSchema).min(1).max(100).describe('Topics: name and description'),
  }).strict()),
  async: BoolField.optional(),
}).strict().meta({ id: 'SplitOptions' });
export type SplitOptions = z.infer<typeof SplitOptionsSchema>;

const PagesWithConfidence = z.object({ pages: z.array(z.number().int()), confidence: z.number() });

export const SplitResultSchema = z.object({
  split_id: z.string(),
  extraction_id: z.string(),
  splits: z.array(z.object({
    name: z.string(),
    pages: z.array(z.number().int()).describe('1-indexed original pages, ascending; empty when no page is on this topic'),
    confidence: z.number().describe('Page-weighted mean of its documents\' confidence; 0 when empty'),
    documents: z.array(PagesWithConfidence).describe('Contiguous runs that look like separate documents'),
  })).describe('One entry per split_input topic, in request order'),
  unassigned_pages: z.array(z.number().int()),
  page_count: z.number().int(),
  model: z.string(),
  credits_used: z.number(),
  plan_info: PlanInfoSchema,
}).meta({ id: 'SplitResult' });
