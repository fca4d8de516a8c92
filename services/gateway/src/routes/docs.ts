import { Router } from 'express';
import { buildOpenApi, type RouteDoc } from '@quire/contracts';

/** GET /openapi.json (OpenAPI 3.1 generated from the same zod schemas the gateway validates with) and GET /docs (a readable page, no CDN). */
export function docsRoutes(routes: RouteDoc[]): Router {
  const r = Router();
  const doc = buildOpenApi(routes);
  const html = renderDocsPage(doc);
  r.get('/openapi.json', (_req, res) => { res.json(doc); });
  r.get('/docs', (_req, res) => { res.type('html').send(html); });
  return r;
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function renderDocsPage(doc: Record<string, unknown>): string {
  const paths = doc.paths as Record<string, Record<string, { summary: string; tags: string[]; deprecated?: boolean; requestBody?: unknown; responses: Record<string, { description: string }> }>>;
  const rows = Object.entries(paths).flatMap(([p, ops]) => Object.entries(ops).map(([m, op]) => `
    <section${op.deprecated ? ' class="dep"' : ''}><h3><code>${m.toUpperCase()} ${esc(p)}</code> <small>${esc(op.tags.join(', '))}</small></h3>
    <p>${esc(op.summary)}${op.deprecated ? ' <em>(deprecated)</em>' : ''}</p>
    ${op.requestBody ? `<details><summary>Request body schema</summary><pre>${esc(JSON.stringify(op.requestBody, null, 2))}</pre></details>` : ''}
    <p>Responses: ${Object.entries(op.responses).map(([c, r]) => `<code>${c}</code> ${esc(r.description)}`).join(' · ')}</p></section>`));
  const codes = Object.entries(doc['x-error-codes'] as Record<string, { status: number; message: string }>).map(([c, v]) => `<tr><td><code>${c}</code></td><td>${v.status}</td><td>${esc(v.message)}</td></tr>`).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Quire API</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2em auto;padding:0 1em}section{border-top:1px solid #ddd;padding:.5em 0}h3{margin:.3em 0}small{color:#777;font-weight:normal}.dep{opacity:.7}pre{background:#f6f6f6;padding:1em;overflow:auto;font-size:12px}td{padding:2px 8px}</style>
</head><body><h1>Quire API ${esc(String((doc.info as { version: string }).version))}</h1>
<p>Every request needs the <code>x-api-key</code> header. Machine-readable contract: <a href="/openapi.json">/openapi.json</a>. Errors are <code>{"error":{"code","message","details?"}}</code>.</p>
${rows.join('')}<h2>Error codes</h2><table>${codes}</table></body></html>`;
}
