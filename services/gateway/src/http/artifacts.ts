import { QuireError } from '@quire/core';
import type { Artifact, ArtifactType, Organization } from '@quire/storage';
import type { GatewayDeps } from '../deps.js';

const NOUN: Record<ArtifactType, string> = {
  extraction: 'extraction_id', form: 'form_id', schema: 'schema_id', split: 'split_id', tables: 'tables_id', classify: 'classification',
};

/**
 * The saved artifact a chained step names (extraction_id, form_id, split_id…), owned by the caller's
 * organization. Unknown ids, other organizations' ids and ids of another kind (a tables_id where an
 * extraction_id is expected) all answer 404 STORAGE_002 — no existence leak; an artifact removed by
 * retention answers 404 STORAGE_005 (the spec's "Extraction expired").
 */
export async function requireArtifact(deps: GatewayDeps, org: Organization, type: ArtifactType, id: unknown, field = NOUN[type]): Promise<Artifact> {
  if (typeof id !== 'string' || id === '') throw new QuireError('REQ_004', `Missing required parameter: ${field}`, { field });
  const artifact = await deps.store.artifacts.getForOrg(org.id, type, id);
  if (!artifact) throw new QuireError('STORAGE_002', `${field} ${id} not found`, { field, id });
  if (artifact.expired || artifact.expires_at.getTime() <= Date.now()) {
    throw new QuireError('STORAGE_005', `${field} ${id} has expired and its stored output was removed by the retention policy`, { field, id });
  }
  return artifact;
}
