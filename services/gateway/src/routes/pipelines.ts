import { Router, type Request } from 'express';
import { QuireError } from '@quire/core';
import { PipelineInputSchema, PipelineUpdateSchema } from '@quire/contracts';
import type { PipelineRecord } from '@quire/storage';
import type { GatewayDeps } from '../deps.js';
import { parseOrThrow } from '../http/validate.js';

const pipelineView = (p: PipelineRecord) => ({
  pipeline_id: p.id, name: p.name, description: p.description, keywords: p.keywords, created_at: new Date(p.created_at).toISOString(),
});

const notFound = (id: string) => new QuireError('STORAGE_002', `pipeline ${id} not found`, { field: 'pipeline_id', id });

/**
 * Classify's routing targets, per organization: POST/GET /pipelines, GET/PUT/PATCH/DELETE
 * /pipelines/{id}. PUT replaces the pipeline (omitted description/keywords become empty), PATCH
 * changes only the fields sent. Another organization's id answers 404 like an unknown one.
 */
export function pipelineRoutes(deps: GatewayDeps): Router {
  const r = Router();
  const configs = deps.store.configs;
  r.post('/pipelines', async (req, res) => {
    const body = parseOrThrow(PipelineInputSchema, req.body);
    res.status(201).json(pipelineView(await configs.createPipeline(req.org!.id, body)));
  });
  r.get('/pipelines', async (req, res) => {
    res.json({ pipelines: (await configs.listPipelines(req.org!.id)).map(pipelineView) });
  });
  r.get('/pipelines/:id', async (req: Request<{ id: string }>, res) => {
    const p = await configs.getPipeline(req.org!.id, req.params.id);
    if (!p) throw notFound(req.params.id);
    res.json(pipelineView(p));
  });
  r.put('/pipelines/:id', async (req: Request<{ id: string }>, res) => {
    const body = parseOrThrow(PipelineInputSchema, req.body);
    const p = await configs.updatePipeline(req.org!.id, req.params.id, { name: body.name, description: body.description ?? '', keywords: body.keywords ?? [] });
    if (!p) throw notFound(req.params.id);
    res.json(pipelineView(p));
  });
  r.patch('/pipelines/:id', async (req: Request<{ id: string }>, res) => {
    const body = parseOrThrow(PipelineUpdateSchema, req.body);
    const p = await configs.updatePipeline(req.org!.id, req.params.id, body);
    if (!p) throw notFound(req.params.id);
    res.json(pipelineView(p));
  });
  r.delete('/pipelines/:id', async (req: Request<{ id: string }>, res) => {
    if (!(await configs.deletePipeline(req.org!.id, req.params.id))) throw notFound(req.params.id);
    res.json({ pipeline_id: req.params.id, deleted: true });
  });
  return r;
}
