import { z } from 'zod';

export const ErrorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() }),
}).meta({ id: 'Error' });

export const PlanInfoSchema = z.object({
  tier: z.string(), total_credits_used: z.number(), pages_used: z.number().int(), note: z.string().optional(),
}).meta({ id: 'PlanInfo' });

export const JobStatusSchema = z.enum(['pending', 'queued', 'processing', 'completed', 'failed', 'canceled', 'expired']);

export const JobAcceptedSchema = z.object({
  job_id: z.string(), status: z.literal('pending').or(JobStatusSchema), message: z.string().optional(),
  queuedAt: z.string().optional(), credits_used: z.number().optional(),
  extraction_id: z.string().optional().describe('Extract only: equals job_id when storage is enabled'),
  tables_id: z.string().optional().describe('Tables only: equals job_id'),
  charts_id: z.string().optional().describe('Charts only: equals job_id'),
  split_id: z.string().optional().describe('Split only: equals job_id'),
}).meta({ id: 'JobAccepted' });

export const ResultPointerSchema = z.object({ is_url: z.literal(true), url: z.string() }).meta({ id: 'ResultPointer' });

export const JobSchema = z.object({
  job_id: z.string(),
  status: JobStatusSchema,
  kind: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string().optional(),
  completed_at: z.string().optional(),
  progress: z.object({ pages_done: z.number().int(), pages_total: z.number().int() }).optional(),
  result: z.union([z.record(z.string(), z.unknown()), ResultPointerSchema]).optional(),
  error: z.string().optional(),
  error_code: z.string().optional(),
}).meta({ id: 'Job' });

export const CancelResponseSchema = z.object({ job_id: z.string(), status: z.literal('canceled'), message: z.string() }).meta({ id: 'CancelResponse' });

export const UsageBucketSchema = z.object({ start: z.string(), credits: z.number(), pages: z.number().int(), documents: z.number().int() });

export const UsageSchema = z.object({
  billing_period: z.object({ start: z.string(), end: z.string(), credits_used: z.number(), pages_used: z.number().int(), page_limit: z.number().int().nullable(), pages_remaining: z.number().int().nullable() }),
  key: z.object({ credit_cap: z.number().nullable(), credits_used: z.number(), credits_remaining: z.number().nullable() }),
  totals: z.object({ documents: z.number().int(), pages: z.number().int(), credits: z.number() }),
  timeline: z.object({ granularity: z.enum(['day', 'week', 'month']), from: z.string(), to: z.string(), buckets: z.array(UsageBucketSchema) }),
  plan_info: PlanInfoSchema,
}).meta({ id: 'Usage' });

export const UsageQuerySchema = z.object({
  granularity: z.enum(['day', 'week', 'month']).default('day'),
  from: z.string().datetime({ offset: true }).or(z.string().date()).optional(),
  to: z.string().datetime({ offset: true }).or(z.string().date()).optional(),
});
