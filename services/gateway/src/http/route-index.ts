import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';

/** What a router layer exposes about its path (router 2.x keeps the pattern as given, in `rawPath`). */
interface LayerPath { rawPath?: unknown }

/**
 * One route lookup for many route modules. Mounted one by one with app.use, every request walks every
 * module's router: each one tests all its layers, and a router with no match hands over through
 * setImmediate, so a GET /job/{id} crossed half a dozen event-loop turns before reaching its handler.
 * Here the modules are indexed by the first path segment of each of their routes and middleware
 * (`/job/:jobId` → `job`); a request enters only the modules that have a layer under its first segment,
 * in registration order, plus any module whose patterns do not start with a literal segment (entered
 * for every request). The index only leaves out modules that cannot match, so behaviour is that of
 * app.use(module) for each: a module that calls next() passes on to the following candidate, an
 * error goes straight to the error handlers.
 *
 * Segments are compared lower-cased (express routing is case-insensitive by default; for a
 * case-sensitive router that only means entering it when it cannot match). The index is built on the
 * first request, once every module has registered its routes.
 */
export function routeIndex(modules: Router[]): RequestHandler {
  let index: { bySegment: Map<string, Router[]>; everywhere: Router[] } | undefined;
  return (req, res, next) => {
    index ??= buildIndex(modules);
    const candidates = index.bySegment.get(firstSegment(req.path)) ?? index.everywhere;
    if (candidates.length === 0) { next(); return; }
    dispatch(candidates, 0, req, res, next);
  };
}

function dispatch(candidates: Router[], i: number, req: Request, res: Response, next: NextFunction): void {
  if (i >= candidates.length) { next(); return; }
  candidates[i](req, res, (err?: unknown) => {
    if (err !== undefined && err !== null && err !== 'router') next(err);
    else dispatch(candidates, i + 1, req, res, next);
  });
}

function buildIndex(modules: Router[]) {
  const segmentsOf = modules.map(literalFirstSegments); // undefined: a pattern that may match any path
  const everywhere = modules.filter((_, i) => segmentsOf[i] === undefined);
  const bySegment = new Map<string, Router[]>();
  for (const segment of new Set(segmentsOf.flatMap((s) => (s ? [...s] : [])))) {
    // registration order, the modules under this segment together with those that match anywhere
    bySegment.set(segment, modules.filter((_, i) => segmentsOf[i] === undefined || segmentsOf[i]!.has(segment)));
  }
  return { bySegment, everywhere };
}

/** The literal first segments of every layer's pattern, or undefined when one of them is not literal. */
function literalFirstSegments(router: Router): Set<string> | undefined {
  const out = new Set<string>();
  for (const layer of router.stack as unknown as LayerPath[]) {
    const patterns = Array.isArray(layer.rawPath) ? (layer.rawPath as unknown[]).flat(Infinity) : [layer.rawPath];
    for (const p of patterns) {
      const segment = typeof p === 'string' ? literalSegment(p) : undefined;
      if (segment === undefined) return undefined;
      out.add(segment);
    }
  }
  return out;
}

/** `/job/:jobId` → `job`; undefined for `/`, `/:x…`, `/*…`, `/{…}`, `/(…)` and anything else not a plain word. */
function literalSegment(pattern: string): string | undefined {
  const m = /^\/([A-Za-z0-9._~-]+)(?:\/|$)/.exec(pattern);
  return m ? m[1].toLowerCase() : undefined;
}

function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return (end < 0 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}
