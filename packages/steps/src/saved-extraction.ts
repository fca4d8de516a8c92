import { QuireError, type Document } from '@quire/core';
import type { JobContext } from '@quire/jobs';
import type { Artifact } from '@quire/storage';

export interface SavedExtraction {
  artifact: Artifact;
  document: Document;
}

/**
 * Loads the document an extract job saved (out/document.json) for a chained step. The gateway
 * already checked ownership when the job was accepted; this re-checks (the artifact may have expired
 * while the job waited in the queue) and fails with the same codes.
 */
export async function loadSavedExtraction(ctx: JobContext, extractionId: string): Promise<SavedExtraction> {
  const artifact = await ctx.store.artifacts.getForOrg(ctx.org.id, 'extraction', extractionId);
  if (!artifact) throw new QuireError('STORAGE_002', `extraction_id ${extractionId} not found`, { id: extractionId });
  if (artifact.expired) throw new QuireError('STORAGE_005', `extraction_id ${extractionId} has expired`, { id: extractionId });
  const blob = String(artifact.data.document_blob ?? '');
  const document = JSON.parse(Buffer.from(await ctx.blobs.getBytes(blob)).toString('utf8')) as Document;
  return { artifact, document };
}
