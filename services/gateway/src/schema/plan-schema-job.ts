import { createHash } from 'node:crypto';
import { QuireError, creditsFor } from '@quire/core';
import type { SchemaConfig, SchemaRequest, TopicSchemaConfig } from '@quire/contracts';
import type { ResolvedSchemaConfig } from '@quire/queue';
import { type SchemaLimits, validateSchemaInput } from '@quire/schema';
import type { Organization } from '@quire/storage';
import type { GatewayDeps } from '../deps.js';
import { requireArtifact } from '../http/artifacts.js';
import { batchExtractionIds } from '../http/batch-parent.js';
import type { StepPlan } from '../routes/step-plan.js';

/**
 * POST /schema before any work: infer the mode, resolve the configuration (inline or saved),
 * validate every JSON Schema (SCHEMA_001/003/004), check the agentic_confidence flag, check that
 * the chained ids exist, and quote the credits. The job carries the resolved configuration, so a
 * saved configuration edited later does not change an accepted job.
 */

export interface SchemaJobPlan extends StepPlan<'schema'> {
  parentId: string;
}

/** Stable JSON (sorted keys) so equal configurations hash equal. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(v ?? null);
}

const hash = (v: unknown) => createHash('sha256').update(canonicalJson(v)).digest('hex').slice(0, 32);

/** The lineage of an inline configuration: equal configurations share versions. */
export const inlineConfigKey = (config: unknown) => `inline:${hash(config)}`;

/** The schema limits the operator set (QUIRE_SCHEMA_MAX_PROPERTIES). */
export const schemaLimitsOf = (deps: Pick<GatewayDeps, 'config'>): SchemaLimits => ({ maxProperties: deps.config.schemaMaxProperties });

export function resolveConfig(c: SchemaConfig | TopicSchemaConfig, where: string, limits: SchemaLimits): ResolvedSchemaConfig {
  const schema = 'input_schema' in c && c.input_schema ? c.input_schema : (c as TopicSchemaConfig).schema;
  if (schema === undefined) throw new QuireError('REQ_004', `Missing required parameter: ${where}.input_schema`, { field: `${where}.input_schema` });
  try {
    validateSchemaInput(schema, limits);
  } catch (e) {
    if (e instanceof QuireError) throw new QuireError(e.code, `${where}: ${e.message}`, { ...(e.details ?? {}), field: where });
    throw e;
  }
  return { input_schema: schema, schema_prompt: c.schema_prompt, effort: c.effort === true, agentic_confidence: c.agentic_confidence === true };
}

function requireConfidenceFlag(org: Organization, configs: ResolvedSchemaConfig[]): void {
  if (configs.some((c) => c.agentic_confidence) && !org.flags?.agentic_confidence) {
    throw new QuireError('AUTH_004', 'The agentic_confidence feature is not enabled for this organization', { flag: 'agentic_confidence' });
  }
}

const pagesOf = (data: Record<string, unknown>) => Number(data.pages_processed ?? data.page_count ?? 0);

export async function planSchemaJob(deps: GatewayDeps, org: Organization, body: SchemaRequest): Promise<SchemaJobPlan> {
  const sources = [body.extraction_id, body.extraction_ids, body.split_id].filter((x) => x !== undefined).length;
  if (sources === 0) throw new QuireError('REQ_004', 'Missing required parameter: extraction_id, extraction_ids or split_id', { field: 'extraction_id' });
  if (sources > 1) throw new QuireError('REQ_003', 'Give exactly one of extraction_id, extraction_ids or split_id', { fields: ['extraction_id', 'extraction_ids', 'split_id'] });
  if (body.split_id !== undefined) return planSplit(deps, org, body);
  if (body.split_schema_config) throw new QuireError('REQ_003', 'split_schema_config goes with split_id', { field: 'split_schema_config' });
  if (body.schema_config && body.schema_config_id) throw new QuireError('REQ_003', 'Give schema_config or schema_config_id, not both', { fields: ['schema_config', 'schema_config_id'] });
  if (!body.schema_config && !body.schema_config_id) throw new QuireError('REQ_004', 'Missing required parameter: schema_config or schema_config_id', { field: 'schema_config' });

  let config: ResolvedSchemaConfig;
  let configKey: string;
  let saved: { id: string; version: number } | undefined;
  if (body.schema_config_id) {
    const rec = await deps.store.configs.getSchemaConfig(org.id, body.schema_config_id);
    if (!rec) throw new QuireError('STORAGE_002', `schema_config_id ${body.schema_config_id} not found`, { field: 'schema_config_id', id: body.schema_config_id });
    config = resolveConfig(rec.config as SchemaConfig, 'schema_config', schemaLimitsOf(deps));
    configKey = `config:${rec.id}`;
    saved = { id: rec.id, version: rec.version };
  } else {
    config = resolveConfig(body.schema_config!, 'schema_config', schemaLimitsOf(deps));
    configKey = inlineConfigKey(body.schema_config);
  }
  requireConfidenceFlag(org, [config]);

  // extraction_id may name a /batch/extract parent: its completed children are combined (composite mode).
  const fromBatch = body.extraction_id !== undefined ? await batchExtractionIds(deps, org, body.extraction_id, 'extraction_id') : undefined;
  const ids = fromBatch ?? (body.extraction_ids ? [...new Set(body.extraction_ids)] : [body.extraction_id!]);
  const field = body.extraction_ids ? 'extraction_ids' : 'extraction_id';
  let pages = 0;
  for (const id of ids) pages += pagesOf((await requireArtifact(deps, org, 'extraction', id, field)).data);
  return {
    request: {
      mode: body.extraction_ids || fromBatch ? 'composite' : 'single', config, config_key: configKey,
      ...(fromBatch ? { batch_id: body.extraction_id } : {}),
      ...(saved ? { schema_config_id: saved.id, config_version: saved.version } : {}),
    },
    input: { extraction_ids: ids },
    quoteCredits: creditsFor('schema', { pages, effort: config.effort, agenticConfidence: config.agentic_confidence }),
    quotePages: pages,
    parentId: ids[0],
  };
}

async function planSplit(deps: GatewayDeps, org: Organization, body: SchemaRequest): Promise<SchemaJobPlan> {
  if (body.schema_config || body.schema_config_id) throw new QuireError('REQ_003', 'Split mode takes split_schema_config (one config per topic), not schema_config', { field: 'schema_config' });
  const topicsIn = body.split_schema_config;
  if (!topicsIn || !Object.keys(topicsIn).length) throw new QuireError('REQ_004', 'Missing required parameter: split_schema_config', { field: 'split_schema_config' });
  const topics: Record<string, ResolvedSchemaConfig> = {};
  for (const [name, c] of Object.entries(topicsIn)) topics[name] = resolveConfig(c, `split_schema_config.${name}`, schemaLimitsOf(deps));
  requireConfidenceFlag(org, Object.values(topics));

  const split = await requireArtifact(deps, org, 'split', body.split_id);
  const extractionId = String(split.data.extraction_id ?? '');
  await requireArtifact(deps, org, 'extraction', extractionId);
  const groups = (split.data.groups ?? []) as { topic: string; pages: number[] }[];
  let credits = 0;
  let quotePages = 0;
  for (const [name, c] of Object.entries(topics)) {
    const pages = new Set(groups.filter((g) => g.topic === name).flatMap((g) => g.pages)).size;
    quotePages += pages;
    credits += creditsFor('schema', { pages, effort: c.effort, agenticConfidence: c.agentic_confidence });
  }
  return {
    request: { mode: 'split', topics, config_key: `split:${hash(topicsIn)}` },
    input: { extraction_ids: [extractionId], split_id: split.id },
    quoteCredits: Math.round(credits * 1000) / 1000,
    quotePages,
    parentId: split.id,
  };
}
