/**
 * Request and response types, inferred from the zod contracts the gateway validates with (@quire/contracts), so
 * the client cannot drift from the server. Only types are imported: the SDK carries no zod at run time.
 */
import type { z } from 'zod';
import type {
  BatchAcceptedSchema, BatchResultSchema, BatchSchemaRequestSchema, BatchSplitRequestSchema, BatchTablesRequestSchema,
  CancelResponseSchema, ChartsRequestSchema, ChartsResultSchema, ClassifyOptionsSchema, ClassifyResultSchema,
  ExtractOptionsSchema, ExtractResultSchema, FormCellSchema, FormRequestSchema, FormResultSchema, JobAcceptedSchema,
  JobSchema, JobStatusSchema, ResultPointerSchema, SchemaRequestSchema, SchemaResultSchema, SplitOptionsSchema,
  SplitResultSchema, TablesRequestSchema, TablesResultSchema, UsageQuerySchema, UsageSchema,
} from '@quire/contracts';

/** Fields the client sets itself: the document source and the async switch. */
type Managed = 'file_url' | 'async';

export type JobStatus = z.output<typeof JobStatusSchema>;
export type Job = z.output<typeof JobSchema>;
export type JobAccepted = z.output<typeof JobAcceptedSchema>;
export type ResultPointer = z.output<typeof ResultPointerSchema>;
export type CancelResponse = z.output<typeof CancelResponseSchema>;

export type ExtractOptions = Omit<z.output<typeof ExtractOptionsSchema>, Managed>;
export type ExtractResult = z.output<typeof ExtractResultSchema>;
export type ClassifyOptions = Omit<z.output<typeof ClassifyOptionsSchema>, Managed | 'extraction_id'>;
export type ClassifyResult = z.output<typeof ClassifyResultSchema>;
export type SchemaRequest = Omit<z.output<typeof SchemaRequestSchema>, 'async'>;
export type SchemaResult = z.output<typeof SchemaResultSchema>;
export type TablesRequest = Omit<z.output<typeof TablesRequestSchema>, 'async'>;
export type TablesResult = z.output<typeof TablesResultSchema>;
export type ChartsRequest = Omit<z.output<typeof ChartsRequestSchema>, 'async'>;
export type ChartsResult = z.output<typeof ChartsResultSchema>;
export type SplitRequest = Omit<z.output<typeof SplitOptionsSchema>, 'async'>;
export type SplitResult = z.output<typeof SplitResultSchema>;

export type FormCell = z.input<typeof FormCellSchema>;
/** form_id chaining or a document; form_fields typed as the spec's FormCell array. */
export type FormOptions = Omit<z.output<typeof FormRequestSchema>, Managed | 'form_id' | 'form_fields' | 'instructions'> & { form_fields?: FormCell[] };
export type FormResult = z.output<typeof FormResultSchema>;

export type BatchExtractOptions = ExtractOptions;
export type BatchSchemaRequest = Omit<z.output<typeof BatchSchemaRequestSchema>, 'async'>;
export type BatchTablesRequest = Omit<z.output<typeof BatchTablesRequestSchema>, 'async'>;
export type BatchSplitRequest = Omit<z.output<typeof BatchSplitRequestSchema>, 'async'>;
export type BatchAccepted = z.output<typeof BatchAcceptedSchema>;
export type BatchResult = z.output<typeof BatchResultSchema>;

export type UsageQuery = Partial<z.output<typeof UsageQuerySchema>>;
export type Usage = z.output<typeof UsageSchema>;

/** POST /webhook. */
export interface WebhookPortalLink { link: string; expires_in: number }

/** POST /convert (legacy): a hosted URL usable as file_url. */
export interface ConvertResult {
  file_id: string; url: string; filename: string | null; size: number; format: string; page_count: number; expires_at: string;
}
