import { QuireError, isTerminal } from '@quire/core';
import { BATCH_KINDS } from '@quire/jobs';
import type { Organization } from '@quire/storage';
import type { GatewayDeps } from '../deps.js';

/**
 * When `id` names a /batch/extract parent job of the organization: the ids of its completed child
 * extractions, in the batch's order (failed and canceled children are left out). Undefined when `id`
 * is not a batch-extract parent. A batch still running answers 409 JOB_004; one with no completed
 * child 404 STORAGE_002; an expired one 404 STORAGE_005.
 */
export async function batchExtractionIds(deps: GatewayDeps, org: Organization, id: unknown, field: string): Promise<string[] | undefined> {
  if (typeof id !== 'string' || id === '') return undefined;
  const parent = await deps.store.jobs.getForOrg(org.id, id);
  if (!parent || parent.kind !== BATCH_KINDS.extract) return undefined;
  if (parent.status === 'expired') throw new QuireError('STORAGE_005', `${field} ${id} is a batch whose outputs were removed by the retention policy`, { field, id });
  if (!isTerminal(parent.status)) throw new QuireError('JOB_004', `${field} ${id} is a batch that is still processing; retry once GET /job/${id} reports completed`, { field, id, status: parent.status });
  const order = ((parent.input.children ?? []) as { job_id: string }[]).map((c) => c.job_id);
  const done = new Set((await deps.store.jobs.listChildren(id)).filter((c) => c.status === 'completed' && c.kind === 'extract').map((c) => c.id));
  const ids = order.filter((c) => done.has(c));
  if (!ids.length) throw new QuireError('STORAGE_002', `${field} ${id} is a batch with no completed extraction`, { field, id });
  return ids;
}
