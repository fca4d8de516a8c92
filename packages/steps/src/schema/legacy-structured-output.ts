import { randomUUID } from 'node:crypto';
import { isQuireError, type Document } from '@quire/core';
import type { ResolvedSchemaConfig } from '@quire/queue';
import type { JobContext, NewArtifactSpec } from '@quire/jobs';
import { applySchema, schemaCredits, schemaRecord } from './apply-schema.js';

/**
 * The deprecated structured_output / schema / schema_prompt inputs of /extract: the schema step on
 * the document just read, answered in the old shape — structured_output (now schema_output.values),
 * citations (now schema_output.citations), and a failure of the schema step as schema_error
 * {code, message} beside a successful extraction (now a standard error response of POST /schema).
 * With storage on, the run is also a versioned schema record (schema_id, version) of lineage `key`.
 */
export async function legacyStructuredOutput(
  ctx: JobContext, doc: Document, legacy: { config: ResolvedSchemaConfig; key: string }, storage: boolean,
): Promise<{ fields: Record<string, unknown>; credits: number; artifact?: NewArtifactSpec }> {
  try {
    const applied = await applySchema(ctx.services.languageModel, doc, legacy.config);
    const fields: Record<string, unknown> = { structured_output: applied.schema_output.values, citations: applied.schema_output.citations, schema_details: applied.details };
    let artifact: NewArtifactSpec | undefined;
    if (storage) {
      const id = randomUUID();
      const rec = await schemaRecord(ctx, id, ctx.job.id, legacy.key, { mode: 'single', extraction_ids: [ctx.job.id], schema_output: applied.schema_output, legacy: true });
      artifact = rec.artifact;
      Object.assign(fields, { schema_id: id, version: rec.version });
    }
    return { fields, credits: schemaCredits(doc.pages.length, legacy.config), artifact };
  } catch (e) {
    if (!isQuireError(e)) throw e;
    ctx.log.warn({ jobId: ctx.job.id, code: e.code }, 'legacy structured_output failed; returning the extraction with schema_error');
    return { fields: { structured_output: null, schema_error: { code: e.code, message: e.message } }, credits: 0 };
  }
}
