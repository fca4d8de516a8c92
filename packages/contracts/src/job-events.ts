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

/** One element of a live page result, in reading order (page furniture is left out, as in `markdown`). */
export const JobPageElementSchema = z.object({
  type: z.enum(['heading', 'list', 'text', 'table', 'figure']),
  /** Text elements: the category of the extraction layout (Title, Header, Text, List Items, caption…). */
  category: z.string().optional(),
  /**
   * [start, end): where the element sits in the page's `markdown` (offsets of a JavaScript string, i.e. UTF-16
   * code units): `markdown.slice(start, end)`. A span rather than a copy keeps page events small.
   */
  markdown_span: z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()]),
  /** Normalized polygon [x0,y0,x1,y0,x1,y1,x0,y1] on the page; null when the source has no geometry. */
  bounding_box: z.array(z.number()).nullable(),
});
export type JobPageElement = z.infer<typeof JobPageElementSchema>;

/**
 * One page's result, sent as soon as the page is done and only to clients that asked `?partial=true`.
 * `provisional`: the page was laid out on its own (PDF and image pages, sent while later pages are
 * still being read); the final result decides running headers and footers, heading levels and
 * footnotes over the whole document and may differ there. Office and HTML documents are read whole,
 * so their pages come once the document is read, final.
 */
export const JobPageEventDataSchema = z.object({
  job_id: z.string(),
  page: z.number().int().positive(),
  markdown: z.string(),
  elements: z.array(JobPageElementSchema),
  provisional: z.boolean(),
  /** The page could not be read (too large, broken, OCR failed): why it has no content. */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type JobPageEventData = z.infer<typeof JobPageEventDataSchema>;
/** A page result as a job hands it over (the publisher adds the job id). */
export type JobPageResult = Omit<JobPageEventData, 'job_id'>;

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
