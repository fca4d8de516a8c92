import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { QuireError } from '@quire/core';
import { SchemaConfigCreateSchema, SchemaConfigUpdateSchema, SchemaRequestSchema, type SchemaConfig } from '@quire/contracts';
import type { Artifact, SchemaConfigRecord } from '@quire/storage';
import type { GatewayDeps } from '../deps.js';
import { respondWithJob } from '../http/job-responses.js';
import { parseOrThrow } from '../http/validate.js';
import { requireArtifact } from '../http/artifacts.js';
import { planSchemaJob, resolveConfig, schemaLimitsOf } from '../schema/plan-schema-job.js';

/**
 * POST /schema (single, composite and split modes), saved schema configurations
 * (POST/GET /schema/configs, GET/PUT /schema/configs/{id}), the versions created with a
 * configuration, and the saved record of one call (GET /schema/{schema_id}, …/versions).
 */
export function schemaRoutes(deps: GatewayDeps): Router {
  const r = Router();

  r.post('/schema', async (req, res) => {
    const org = req.org!;
    const body = parseOrThrow(SchemaRequestSchema, req.body);
    const plan = await planSchemaJob(deps, org, body);
    const isAsync = body.async === true;
    const job = await deps.jobs.submit({
      org, key: req.apiKey!, kind: 'schema', jobId: randomUUID(), async: isAsync,
      request: plan.request, input: plan.input,
      quoteCredits: plan.quoteCredits, quotePages: plan.quotePages, parentId: plan.parentId,
    });
    await respondWithJob(req, res, deps, job, isAsync, { schema_id: job.id });
  });

  r.post('/schema/configs', async (req, res) => {
    const body = parseOrThrow(SchemaConfigCreateSchema, req.body);
    resolveConfig(body.schema_config, 'schema_config', schemaLimitsOf(deps));
    const rec = await deps.store.configs.createSchemaConfig(req.org!.id, body.name ?? '', body.schema_config);
    res.status(201).json(configView(rec));
  });

  r.get('/schema/configs', async (req, res) => {
    res.json({ schema_configs: (await deps.store.configs.listSchemaConfigs(req.org!.id)).map(configView) });
  });

  r.get('/schema/configs/:configId', async (req, res) => {
    res.json(configView(await requireConfig(deps, req.org!.id, req.params.configId)));
  });

  r.put('/schema/configs/:configId', async (req, res) => {
    const body = parseOrThrow(SchemaConfigUpdateSchema, req.body);
    if (body.schema_config) resolveConfig(body.schema_config, 'schema_config', schemaLimitsOf(deps));
    await requireConfig(deps, req.org!.id, req.params.configId);
    const rec = await deps.store.configs.updateSchemaConfig(req.org!.id, req.params.configId, { name: body.name, config: body.schema_config });
    res.json(configView(rec!));
  });

  r.get('/schema/configs/:configId/versions', async (req, res) => {
    const rec = await requireConfig(deps, req.org!.id, req.params.configId);
    const versions = await deps.store.artifacts.listSchemaVersions(req.org!.id, `config:${rec.id}`);
    res.json({ schema_config_id: rec.id, versions: versions.map(versionView) });
  });

  r.get('/schema/:schemaId', async (req, res) => {
    const a = await requireArtifact(deps, req.org!, 'schema', req.params.schemaId);
    res.json(recordView(a));
  });

  r.get('/schema/:schemaId/versions', async (req, res) => {
    const a = await requireArtifact(deps, req.org!, 'schema', req.params.schemaId);
    const versions = await deps.store.artifacts.listSchemaVersions(req.org!.id, String(a.data.config_key));
    const configId = typeof a.data.schema_config_id === 'string' ? a.data.schema_config_id : undefined;
    res.json({ ...(configId ? { schema_config_id: configId } : {}), versions: versions.map(versionView) });
  });

  return r;
}

async function requireConfig(deps: GatewayDeps, orgId: string, id: string): Promise<SchemaConfigRecord> {
  const rec = await deps.store.configs.getSchemaConfig(orgId, id);
  if (!rec) throw new QuireError('STORAGE_002', `schema_config_id ${id} not found`, { field: 'schema_config_id', id });
  return rec;
}

const iso = (d: Date | string) => new Date(d).toISOString();

function configView(rec: SchemaConfigRecord) {
  return {
    schema_config_id: rec.id, name: rec.name, schema_config: rec.config as SchemaConfig,
    config_version: rec.version, created_at: iso(rec.created_at), updated_at: iso(rec.updated_at),
  };
}

function versionView(a: Artifact) {
  const d = a.data;
  return {
    schema_id: a.id, version: Number(d.version), created_at: iso(a.created_at),
    expired: a.expired || a.expires_at.getTime() <= Date.now(),
    ...(typeof d.config_version === 'number' ? { config_version: d.config_version } : {}),
    ...(Array.isArray(d.extraction_ids) ? { extraction_ids: d.extraction_ids as string[] } : {}),
    ...(typeof d.split_id === 'string' ? { split_id: d.split_id } : {}),
  };
}

function recordView(a: Artifact) {
  const d = a.data;
  return {
    ...versionView(a),
    ...(d.schema_output ? { schema_output: d.schema_output } : {}),
    ...(d.results ? { results: d.results } : {}),
    ...(typeof d.schema_config_id === 'string' ? { schema_config_id: d.schema_config_id } : {}),
  };
}
