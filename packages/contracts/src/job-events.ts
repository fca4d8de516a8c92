import { z } from 'zod';
import { JobStatusSchema } from './common.js';

/**
 * The events of GET /job/{jobId}/events (Server-Sent Events). Each one travels as `id: <n>`,
 * `event: <type>`, `data: <one-line JSON>`; ids are one increasing sequence per job.
 */
export const JobStatusEventDataSchema = z.object({
  job_id: z.string(),
  status: JobStatusSchema,
  pages_done: z.number().int().nonnegative().optional(),
  pages_total: z.number().int().nonnegative().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type JobStatusEventData = z.infer<typeof JobStatusEventDataSchema>;

export const JobProgressEventDataSchema = z.object({
  job_id: z.string(),
  pages_done: z.number().int().nonnegative(),
  pages_total: z.number().int().nonnegative(),
});
export type JobProgressEventData = z.infer<typeof JobProgressEventDataSchema>;

/** One page's markdown, sent only to clients that asked `?partial=true`. */
export const JobPageEventDataSchema = z.object({
  job_id: z.string(),
  page: z.number().int().positive(),
  markdown: z.string(),
});
export type JobPageEventData = z.infer<typeof JobPageEventDataSchema>;

export const JobEndEventDataSchema = z.object({ job_id: z.string(), status: JobStatusSchema });
export type JobEndEventData = z.infer<typeof JobEndEventDataSchema>;

export const JobEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('status'), data: JobStatusEventDataSchema }),
  z.object({ type: z.literal('progress'), data: JobProgressEventDataSchema }),
  z.object({ type: z.literal('page'), data: JobPageEventDataSchema }),
  z.object({ type: z.literal('end'), data: JobEndEventDataSchema }),
]);
export type JobEvent = z.infer<typeof JobEventSchema>;
export type JobEventType = JobEvent['type'];

/** An event as a publisher numbered it: `id` is the SSE id, increasing per job. */
export type SequencedJobEvent = JobEvent & { id: number };
