import { Router, type RequestHandler } from 'express';
import { QuireError } from '@quire/core';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Every id Quire hands out in a path (jobs, and so extraction/schema/form ids; pipelines; saved schema
 * configurations; hosted files of POST /convert) is a UUID made with randomUUID. A path whose id cannot be one is a malformed parameter,
 * 400 REQ_003, not a record that was not found; checked once per prefix, routes added there later included.
 * `/schema/configs` is a collection of its own, not a schema id.
 */
const ID_PATHS: { paths: string[]; field: string; what: string; skip?: string[] }[] = [
  { paths: ['/job/:id', '/results/:id', '/cancel/:id'], field: 'job_id', what: 'job id' },
  { paths: ['/pipelines/:id'], field: 'pipeline_id', what: 'pipeline id' },
  { paths: ['/schema/configs/:id'], field: 'schema_config_id', what: 'schema configuration id' },
  { paths: ['/schema/:id'], field: 'schema_id', what: 'schema id', skip: ['configs'] },
  { paths: ['/files/:id'], field: 'file_id', what: 'file id' },
];

/** The same check where a route is answered before authentication (GET /files/{id}?token=). */
export function checkPathId(id: string, field: string, what: string): void {
  if (!UUID.test(id)) throw malformedId(id, field, what);
}

const malformedId = (id: string, field: string, what: string) =>
  new QuireError('REQ_003', `Invalid ${what}: expected a UUID as Quire returned it`, { field, value: id.slice(0, 100) });

export function pathIdGuard(): Router {
  const r = Router();
  for (const { paths, field, what, skip } of ID_PATHS) {
    const check: RequestHandler = (req, _res, next) => {
      const id = String(req.params.id);
      if (UUID.test(id) || skip?.includes(id)) { next(); return; }
      next(malformedId(id, field, what));
    };
    r.use(paths, check);
  }
  return r;
}
