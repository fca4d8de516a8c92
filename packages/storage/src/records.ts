import type { JobStatus } from '@quire/core';

export interface OrgFlags {
  form_filler?: boolean;
  tables_endpoint?: boolean;
  agentic_confidence?: boolean;
}

export const FEATURE_FLAGS = ['form_filler', 'tables_endpoint', 'agentic_confidence'] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

export interface Organization {
  id: string;
  name: string;
  tier: string;
  flags: OrgFlags;
  retention_hours: number;
  delete_after_retrieval: boolean;
  page_limit: number | null;
  rate_limit_per_minute: number | null;
  suspended: boolean;
  deleted_at: Date | null;
  created_at: Date;
}

export interface ApiKeyRecord {
  id: string;
  org_id: string;
  name: string;
  prefix: string;
  hash: string;
  credit_cap: number | null;
  credits_used: number;
  credits_reserved: number;
  expires_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}

export interface JobError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export interface JobProgress {
  pages_done: number;
  pages_total: number;
}

export interface JobRecord {
  id: string;
  org_id: string;
  key_id: string | null;
  kind: string;
  status: JobStatus;
  request: Record<string, unknown>;
  input: Record<string, unknown>;
  result: unknown;
  /** Key of a result delivered as a single-use URL (at or over QUIRE_INLINE_RESULT_LIMIT_BYTES). */
  result_blob: string | null;
  /** Key of a result delivered inline but kept in the blob store instead of `result` (QUIRE_RESULT_ROW_LIMIT_BYTES). */
  result_inline_blob: string | null;
  result_token: string | null;
  error: JobError | null;
  progress: JobProgress | null;
  attempts: number;
  credits_reserved: number;
  credits_used: number;
  pages: number;
  parent_id: string | null;
  lease_until: Date | null;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  expires_at: Date;
  result_retrieved_at: Date | null;
}

/** A job row without its `result` column: what state changes and listings return (a result can be megabytes of jsonb). */
export type JobSummary = Omit<JobRecord, 'result'>;

export type ArtifactType = 'extraction' | 'form' | 'schema' | 'split' | 'tables' | 'classify';

export interface Artifact {
  id: string;
  org_id: string;
  job_id: string;
  type: ArtifactType;
  parent_id: string | null;
  data: Record<string, unknown>;
  created_at: Date;
  expires_at: Date;
  expired: boolean;
}

export interface OutboxEvent {
  id: number;
  org_id: string;
  job_id: string;
  type: string;
  payload: Record<string, unknown>;
  created_at: Date;
  delivered_at: Date | null;
}
