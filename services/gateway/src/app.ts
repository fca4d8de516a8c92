import express from 'express';
import type { GatewayDeps } from './deps.js';
import { errorHandler, unmatchedRoute, wrongMethodOnPublicRoute } from './http/errors.js';
import { RouteTable, type MountedRoute } from './http/route-table.js';
import { pathIdGuard } from './http/path-ids.js';
import { requestContext } from './http/request-context.js';
import { authenticate, eventStreamCredentials, rateLimit } from './http/auth.js';
import { recordedExamples, routeDocs } from './route-docs.js';
import { routeIndex } from './http/route-index.js';
import { docsRoutes } from './routes/docs.js';
import { operationsRoutes } from './routes/operations.js';
import { extractRoutes } from './routes/extract.js';
import { formRoutes } from './routes/forms.js';
import { jobRoutes } from './routes/jobs.js';
import { jobEventRoutes } from './routes/job-events.js';
import { resultRoutes } from './routes/results.js';
import { usageRoutes } from './routes/usage.js';
import { tablesRoutes } from './routes/tables.js';
import { classifyRoutes } from './routes/classify.js';
import { splitRoutes } from './routes/split.js';
import { pipelineRoutes } from './routes/pipelines.js';
import { schemaRoutes } from './routes/schema.js';
import { webhookPortalRoutes, webhookRoutes } from './routes/webhooks.js';
import { batchRoutes } from './routes/batch.js';
import { chartsRoutes } from './routes/charts.js';
import { convertRoutes, hostedFileRoutes } from './routes/convert.js';
import { playgroundRoutes } from './routes/playground.js';
import { pageImageRoutes } from './routes/page-images.js';

type RouteModule = (deps: GatewayDeps) => express.Router;

/**
 * The gateway: validates keys and requests, stores inputs, enqueues ids and (for sync calls) waits
 * for the job.
 */
export function createGatewayApp(deps: GatewayDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use(requestContext(deps.log, deps.metrics));
  // Each group is one routeIndex: a request enters only the modules with a route under its first path segment.
  const publicModules = [
    operationsRoutes(deps),
    docsRoutes(routeDocs(), recordedExamples()),
    webhookPortalRoutes(deps), // portal token, not an API key
    hostedFileRoutes(deps), // /files/{id}?token= (POST /convert URLs)
    playgroundRoutes(), // the page and its bundle; its API calls carry the key pasted into it
  ];
  app.use(routeIndex(publicModules));
  app.use(wrongMethodOnPublicRoute(new RouteTable(publicModules)));
  app.use(eventStreamCredentials);
  app.use(authenticate(deps.store, deps.config.authCacheMs));
  app.use(rateLimit(deps.limiter, deps.config.rateLimitPerMinute));
  app.use(express.json({ limit: '5mb', type: ['application/json', 'application/*+json'] }));
  app.use(express.urlencoded({ extended: false, limit: '1mb' }));
  const routes: RouteModule[] = [
    extractRoutes,
    formRoutes,
    jobRoutes,
    jobEventRoutes,
    resultRoutes,
    pageImageRoutes,
    usageRoutes,
    tablesRoutes,
    classifyRoutes,
    splitRoutes,
    pipelineRoutes,
    schemaRoutes,
    webhookRoutes,
    batchRoutes,
    convertRoutes,
    chartsRoutes,
  ];
  const keyedModules = routes.map((mod) => mod(deps));
  app.use(routeIndex([pathIdGuard(), ...keyedModules]));
  const routeTable = new RouteTable([...publicModules, ...keyedModules]);
  app.locals.routeTable = routeTable;
  app.use(unmatchedRoute(routeTable));
  app.use(errorHandler(deps.log, deps.config.debugErrors));
  return app;
}

/** The routes an app made by createGatewayApp mounts (method + express pattern), read from its routers. */
export function mountedRoutes(app: express.Express): MountedRoute[] {
  return (app.locals.routeTable as RouteTable).routes();
}
