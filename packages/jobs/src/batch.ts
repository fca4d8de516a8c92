import { randomUUID } from 'node:crypto';
import { isTerminal } from '@quire/core';
import type { JobKind } from '@quire/queue';
import type { JobSummary, MetadataStore, Organization, ApiKeyRecord } from '@quire/storage';
import type { JobService, SubmitJob } from './job-service.js';

/** Parent job kinds: records that group children and complete when the last child settles (no worker runs them). */
export const BATCH_KINDS = { extract: 'batch_extract', schema: 'batch_schema', tables: 'batch_tables', split: 'batch_split' } as const;
export type BatchStep = keyof typeof BATCH_KINDS;

/** The id a completed child's output is chained by, named as the single-item route names it. */
export const BATCH_OUTPUT_ID: Record<string, string> = { extract: 'extraction_id', schema: 'schema_id', tables: 'tables_id', split: 'split_id' };

/**
 * A batch: one parent job (status processing from the start, never queued) and one child job per
 * input, each submitted like a single request (quoted and reserved against the key's cap). If any
 * child cannot be accepted, the children already accepted are canceled (releasing their reservations),
 * the parent fails, and the error is rethrown: a batch is accepted whole or not at all.
 */
export async function submitBatch<K extends JobKind>(store: MetadataStore, jobs: JobService, b: {
  org: Organization; key: ApiKeyRecord | null; parentKind: string; parentId: string; retentionHours: number;
  request: Record<string, unknown>; children: (Omit<SubmitJob<K>, 'org' | 'key' | 'parentId'> & { label: Record<string, unknown> })[];
}): Promise<{ parent: JobSummary; children: JobSummary[] }> {
  const retention = b.org.retention_hours ?? b.retentionHours;
  await store.jobs.create({
    id: b.parentId, org_id: b.org.id, key_id: b.key?.id ?? null, kind: b.parentKind, request: b.request,
    input: { children: b.children.map((c) => ({ job_id: c.jobId, ...c.label })) }, credits_reserved: 0,
    expires_at: new Date(Date.now() + retention * 3600_000), parent_id: null,
  });
  const parent = (await store.jobs.claim(b.parentId, retention * 3600_000))!; // → processing (started_at, job.processing event)
  const accepted: JobSummary[] = [];
  try {
    for (const c of b.children) {
      const { label: _label, ...submit } = c;
      accepted.push(await jobs.submit({ ...submit, org: b.org, key: b.key, parentId: b.parentId }));
    }
  } catch (e) {
    // Parent first, so canceling its children does not complete it.
    await store.jobs.transition(b.parentId, 'failed', { error: { code: (e as { code?: string }).code ?? 'GENERAL_001', message: `Batch not accepted: ${(e as Error).message}` } });
    for (const j of accepted) await jobs.cancel(b.org.id, j.id).catch(() => undefined);
    throw e;
  }
  return { parent, children: accepted };
}

/**
 * Called whenever a child reaches a terminal state (completed, failed, canceled): when every child of
 * the parent is terminal, the parent completes with a summary. Concurrent callers race on the parent's
 * compare-and-set; exactly one wins. Each child was charged on its own; the parent charges nothing.
 */
export async function settleBatchParent(store: MetadataStore, parentId: string): Promise<JobSummary | undefined> {
  const parent = await store.jobs.get(parentId);
  if (!parent || isTerminal(parent.status)) return undefined;
  const children = await store.jobs.listChildren(parentId);
  if (children.some((c) => !isTerminal(c.status))) return undefined;
  const labels = new Map(((parent.input.children ?? []) as { job_id: string }[]).map((c) => [c.job_id, c]));
  const summary = children.map((c) => ({
    ...labels.get(c.id), job_id: c.id, status: c.status,
    ...(c.status === 'completed' ? { [BATCH_OUTPUT_ID[c.kind] ?? 'result_id']: c.id, pages: c.pages, credits_used: c.credits_used } : {}),
    ...(c.error ? { error: c.error.message, error_code: c.error.code } : {}),
  }));
  const count = (s: string) => children.filter((c) => c.status === s).length;
  const pages = children.reduce((a, c) => a + c.pages, 0);
  const credits = children.reduce((a, c) => a + c.credits_used, 0);
  return store.jobs.transition(parentId, 'completed', {
    result: { batch_id: parentId, total: children.length, completed: count('completed'), failed: count('failed'), canceled: count('canceled'), pages, credits_used: credits, results: summary },
    pages, credits_used: 0,
  });
}
