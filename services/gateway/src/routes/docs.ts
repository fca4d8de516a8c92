import { createRequire } from 'node:module';
import path from 'node:path';
import { Router } from 'express';
import { buildOpenApi, type RecordedExamples, type RouteDoc } from '@quire/contracts';

/**
 * Swagger UI's files, served from the swagger-ui-dist package installed with the gateway (nothing from a
 * CDN): the page works offline and its version is the one in the lockfile.
 */
const SWAGGER_UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const SWAGGER_UI_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css',
  'swagger-ui-bundle.js': 'text/javascript',
};

/** Starts Swagger UI on /openapi.json. A file rather than an inline script, so a strict CSP can allow 'self' only. */
const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    displayOperationId: true,
    defaultModelsExpandDepth: 0,
    persistAuthorization: false,
    presets: [SwaggerUIBundle.presets.apis],
  });
});
`;

const DOCS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Quire API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head><body>
<div id="swagger-ui"><noscript>The machine-readable contract is at <a href="/openapi.json">/openapi.json</a>.</noscript></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/quire-docs.js"></script>
</body></html>
`;

/**
 * GET /openapi.json (OpenAPI 3.1 generated from the same zod schemas the gateway validates with, with
 * the examples recorded from real runs), GET /docs (Swagger UI on that document: every operation with
 * its schemas, examples and curl / SDK snippets) and the page's assets under /docs/assets/.
 */
export function docsRoutes(routes: RouteDoc[], examples: RecordedExamples): Router {
  const r = Router();
  // Built on first request (~0.2 s of schema conversion a server start need not pay) and kept serialized.
  let json: string | undefined;
  r.get('/openapi.json', (_req, res) => {
    json ??= JSON.stringify(buildOpenApi(routes, examples));
    res.type('application/json').send(json);
  });
  r.get('/docs', (_req, res) => { res.type('html').send(DOCS_PAGE); });
  r.get('/docs/assets/:file', (req, res, next) => {
    const file = req.params.file;
    const cacheControl = 'public, max-age=86400';
    if (file === 'quire-docs.js') { res.type('text/javascript').setHeader('Cache-Control', cacheControl); res.send(INIT_SCRIPT); return; }
    const type = Object.hasOwn(SWAGGER_UI_FILES, file) ? SWAGGER_UI_FILES[file] : undefined;
    if (!type) { next(); return; } // not an asset: the gateway's 404
    // relative to `root`: send refuses dot-directories in the part it checks, and the store path has one (.pnpm)
    res.sendFile(file, { root: SWAGGER_UI_DIR, headers: { 'Content-Type': type, 'Cache-Control': cacheControl } }, (err) => { if (err) next(err); });
  });
  return r;
}
