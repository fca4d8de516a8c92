import { creditsFor, type Document } from '@quire/core';
import { conformAnswer, documentIds, type LanguageModel } from '@quire/models';
import { renderExtraction } from '@quire/render';
import type { ResolvedSchemaConfig } from '@quire/queue';
import type { JobContext, NewArtifactSpec } from '@quire/jobs';

export interface AppliedSchema {
  schema_output: { values: unknown; citations: unknown; confidence?: unknown };
  details: { notes: Record<string, string>; model: string };
}

/**
 * One schema over one document through the LanguageModel port, then conformed: values validate or
 * are null with the reason in details.notes; citations name elements of this document only;
 * confidence (agentic_confidence) mirrors values.
 */
export async function applySchema(lm: LanguageModel, document: Document, config: ResolvedSchemaConfig): Promise<AppliedSchema> {
  const want = config.agentic_confidence;
  // a model reads markdown_with_ids; the built-in engine reads the document itself
  const markdownWithIds = lm.id === 'builtin' ? undefined : renderExtraction(structuredClone(document)).markdown_with_ids;
  const answer = await lm.extractSchema({
    document, markdownWithIds, schema: config.input_schema, prompt: config.schema_prompt, effort: config.effort, wantConfidence: want,
  });
  const c = conformAnswer(config.input_schema, answer, { knownIds: documentIds(document), wantConfidence: want });
  const notes = Object.fromEntries(Object.entries(c.notes ?? {}).map(([k, v]) => [k || '/', v]));
  return {
    schema_output: { values: c.values, citations: c.citations, ...(want ? { confidence: c.confidence } : {}) },
    details: { notes, model: lm.id },
  };
}

export const schemaCredits = (pages: number, config: ResolvedSchemaConfig) =>
  creditsFor('schema', { pages, effort: config.effort, agenticConfidence: config.agentic_confidence });

/**
 * A schema record (artifact type 'schema'): the next version of its lineage (configuration key),
 * with the output, so GET /schema/{id} and the versions list can show it later. The version is drawn
 * atomically (two runs of one lineage at the same instant get distinct numbers); a run that fails
 * after drawing leaves a gap.
 */
export async function schemaRecord(ctx: JobContext, id: string, parentId: string | null, configKey: string, data: Record<string, unknown>): Promise<{ version: number; artifact: NewArtifactSpec }> {
  const version = await ctx.store.artifacts.nextSchemaVersion(ctx.org.id, configKey);
  return { version, artifact: { id, type: 'schema', parentId, data: { ...data, config_key: configKey, version } } };
}
