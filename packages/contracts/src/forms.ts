import { z } from 'zod';
import { PlanInfoSchema } from './common.js';
import { BoolField, PageRangeField } from './fields.js';

/** form_fields arrive as a JSON array (JSON body) or as a JSON string (multipart); cells are validated by @quire/forms. */
const FormFieldsField = z.preprocess((v) => {
  if (typeof v === 'string') {
    try { return JSON.parse(v); } catch { return v; }
  }
  return v;
}, z.unknown());

/**
 * POST /form/detect, /form/fill, /form/clear fields besides `file` (multipart) — or the legacy JSON
 * body with form_id or file_url. Exactly one source (form_id, file_url, file) is checked by the route.
 */
export const FormRequestSchema = z.object({
  form_id: z.string().optional().describe('A form_id returned by an earlier detect, fill or clear'),
  file_url: z.string().optional(),
  instructions: z.string().optional().describe('Fill only (required there): what to fill in, in plain language'),
  form_fields: FormFieldsField.optional().describe('Fill and clear: FormCell array overriding the cells used (e.g. hand-edited detect output)'),
  page_range: PageRangeField.optional(),
  pages: PageRangeField.optional(),
  async: BoolField.optional(),
}).strict().meta({ id: 'FormRequest' });

export type FormRequest = z.infer<typeof FormRequestSchema>;

const unit = z.number().min(0).max(1);
/** The spec's FormCell: detect's output and, hand-edited, fill's and clear's form_fields input (validated by @quire/forms). */
export const FormCellSchema = z.object({
  page_number: z.number().int().min(1),
  type: z.enum(['text', 'checkbox', 'signature']),
  bounding_box: z.tuple([unit, unit, unit, unit]).refine((b) => b[2] >= b[0] && b[3] >= b[1], 'bounding_box must be [left, top, right, bottom]')
    .describe('[left, top, right, bottom], normalized 0..1 from the top left'),
  text: z.string().default(''),
  row: z.number().int().min(0).optional(),
  col: z.number().int().min(0).optional(),
  table_idx: z.number().int().min(0).optional(),
  checkbox_details: z.array(z.object({
    center_coord: z.tuple([unit, unit]),
    selected: z.boolean(),
    text: z.string().default(''),
  })).optional(),
}).meta({ id: 'FormCell' });

export type FormCell = z.infer<typeof FormCellSchema>;

const FieldRef = z.object({ label: z.string(), page_number: z.number().int(), type: z.enum(['text', 'checkbox', 'signature']) }).nullable();

/** Fill's account of the instructions: where each value went and why, and what was not placed and why. */
export const FormFillDetailsSchema = z.object({
  mapping: z.array(z.object({
    instruction: z.string().describe('The fragment of the instructions the value came from'),
    field: FieldRef,
    value: z.string().describe('The value as written into the field (a code split across boxes gives one entry per box)'),
    score: z.number().min(0).max(1).describe('How well the fragment named the field: printed label, then tooltip, then field name'),
  })).optional().describe('Fill only: instruction fragment → field, with its score'),
  unapplied: z.array(z.object({
    instruction: z.string().optional(),
    field: FieldRef,
    value: z.string().optional(),
    reason: z.string(),
  })).optional().describe('Fill only: values that fit no field, or that the field refused, each with why'),
}).catchall(z.unknown()).meta({ id: 'FormFillDetails' });

export const FormResultSchema = z.object({
  form_id: z.string(),
  page_count: z.number().int().describe('Pages of the PDF (the output PDF has them all)'),
  pages_processed: z.number().int().describe('Pages worked on and billed: the page_range/pages filter, else page_count; credits_used = price per page × pages_processed'),
  pdf_url: z.string(),
  form_fields: z.array(FormCellSchema),
  fields_filled: z.number().int().optional().describe('Fill only: cells whose value changed'),
  fields_cleared: z.number().int().optional().describe('Clear only'),
  details: FormFillDetailsSchema.optional().describe('Instructions that matched no cell, values that could not be applied, warnings'),
  credits_used: z.number(),
  plan_info: PlanInfoSchema,
}).meta({ id: 'FormResult' });
