import { Router } from 'express';
import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { QuireError } from '@quire/core';

/**
 * The bundle scripts/build.mjs writes (services/gateway/playground → dist/playground). The same path
 * from src/routes (jest) and dist/routes (a built server): both are two levels under the package.
 */
const BUNDLE_DIR = fileURLToPath(new URL('../../dist/playground/', import.meta.url));
const ASSETS: Record<string, string> = { 'app.js': 'text/javascript; charset=utf-8', 'app.css': 'text/css; charset=utf-8' };

/**
 * Everything the browser loads comes from here (no CDN): the script may only talk to this origin, and
 * page images arrive as blob: URLs (fetched with the key, which an <img src> could not send).
 */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Quire playground</title><link rel="stylesheet" href="/playground/app.css"></head>
<body><div id="app"><noscript>The playground needs JavaScript.</noscript></div><script type="module" src="/playground/app.js"></script></body></html>`;

/**
 * GET /playground: a page to try the API from a browser. The page and its assets need no key; every
 * call it makes sends the key the person pastes (kept in sessionStorage), so it can do nothing a
 * client with that key could not.
 */
export function playgroundRoutes(): Router {
  const r = Router();
  r.get('/playground', (_req, res) => {
    res.setHeader('content-security-policy', CSP);
    res.type('html').send(PAGE);
  });
  r.get('/playground/:asset', async (req, res) => {
    const type = ASSETS[req.params.asset];
    if (!type) throw new QuireError('STORAGE_002', 'No such playground file', { file: req.params.asset });
    const body = await fs.readFile(BUNDLE_DIR + req.params.asset).catch(() => {
      throw new QuireError('PROC_003', 'The playground is not built: run `node scripts/build.mjs` (it bundles services/gateway/playground)');
    });
    res.setHeader('cache-control', 'no-cache');
    res.type(type).send(body);
  });
  return r;
}
