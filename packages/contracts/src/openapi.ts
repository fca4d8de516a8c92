import { z } from 'zod';
import { ERROR_CODES } from '@quire/core';
import { ErrorBodySchema } from './common.js';
import { ComponentSchemas } from './openapi-components.js';
import { SDK_OPERATIONS } from './sdk-operations.js';


/** One route as the OpenAPI document describes it. The gateway registers the same schemas it validates with. */
export interface RouteDoc {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express pattern (`/job/:jobId`). */
  path: string;
  /** Stable, unique (OpenAPI's operationId; the SDK's methods are in SDK_OPERATIONS). */
  operationId: string;
  summary: string;
  tag: string;
  json?: z.ZodType;
  multipart?: z.ZodType;
  query?: z.ZodType;
  /** Answers other than the error body: the success statuses, and any status whose body has its own shape. */
  responses: Partial<Record<number, { description: string; schema?: z.ZodType; contentType?: string; eventSchema?: z.ZodType }>>;
  errors?: number[];
  deprecated?: boolean;
  /**
   * How the caller authenticates (default apiKey): the webhook portal uses its portal token; health probes none;
   * hosted files either the key or the token in their URL.
   */
  auth?: 'apiKey' | 'portalToken' | 'apiKeyOrUrlToken' | 'none';
}

/** A request and its response, recorded from a real run against the embedded server (see openapi-examples.json). */
export interface RecordedExample {
  /** The path as requested, parameters filled in (and its query string, if any). */
  path: string;
  request?: { json?: unknown; multipart?: { fields: Record<string, string>; file?: string } };
  status: number;
  /** A JSON body as received, or for other content types what came back. */
  response: { json: unknown } | { contentType: string; bytes: number; text?: string };
}

export type RecordedExamples = Record<string, RecordedExample>;

/**
 * The SDK methods whose call sdkSnippet knows how to write from a recorded example: the document first
 * (SOURCE_FIRST), one id from the path, or the JSON body. The method is looked up in SDK_OPERATIONS.
 */
const SNIPPET_METHODS = new Set(['extract', 'schema', 'tables', 'split', 'classify', 'charts', 'formDetect', 'formFill', 'formClear', 'getJob', 'getResult']);

/** Express `/job/:jobId` → OpenAPI `/job/{jobId}`. */
export const openApiPath = (expressPath: string) => expressPath.replace(/:(\w+)/g, '{$1}');

const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The OpenAPI 3.1 document: every route, its request body (JSON and/or multipart upload), its responses
 * with the error responses of the one error table (packages/core), and the recorded example of each
 * operation with curl and SDK snippets. Every schema is a component; see ComponentSchemas.
 */
export function buildOpenApi(routes: readonly RouteDoc[], examples: RecordedExamples = {}, opts: { version?: string; closedResponses?: boolean } = {}): Record<string, unknown> {
  const version = opts.version ?? '0.1.0';
  const components = new ComponentSchemas({ closedResponses: opts.closedResponses });
  const errorRef = components.ref(ErrorBodySchema, 'output', 'Error');
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const r of routes) {
    const oasPath = openApiPath(r.path);
    const name = pascal(r.operationId);
    const example = examples[r.operationId];
    const params = [...r.path.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1], in: 'path', required: true, schema: { type: 'string' },
      ...(example ? { example: pathParam(r.path, example.path, m[1]) } : {}),
    }));
    const queryParams = r.query ? queryParameters(r.query) : [];
    const content: Record<string, unknown> = {};
    // the upload first where a route takes both: renderers show the first body type
    if (r.multipart) content['multipart/form-data'] = { schema: components.ref(r.multipart, 'upload', `${name}Request`), ...(example?.request?.multipart ? { example: multipartExample(example.request.multipart) } : {}) };
    if (r.json) content['application/json'] = { schema: components.ref(r.json, 'input', `${name}Request`), ...(example?.request?.json !== undefined ? { example: example.request.json } : {}) };
    const responses: Record<string, unknown> = {};
    for (const [code, resp] of Object.entries(r.responses)) {
      if (!resp) continue;
      const recorded = example && String(example.status) === code ? example.response : undefined;
      const type = resp.contentType ?? 'application/json';
      const media: Record<string, unknown> = resp.schema ? { schema: components.ref(resp.schema, 'output', `${name}Response`) } : {};
      // an event stream is text; one event's shape goes with it as JSON Schema's contentSchema (OpenAPI 3.2's itemSchema)
      if (resp.eventSchema) media.schema = { type: 'string', contentMediaType: type, contentSchema: components.ref(resp.eventSchema, 'output', `${name}Event`) };
      if (recorded && 'json' in recorded) media.example = recorded.json;
      else if (recorded) media.examples = { recorded: { summary: `Recorded run: ${recorded.bytes} bytes of ${recorded.contentType}`, ...(recorded.text !== undefined ? { value: recorded.text } : {}) } };
      responses[code] = { description: resp.description, content: { [type]: media } };
    }
    const always = r.auth === 'none' ? [500] : r.auth === 'portalToken' ? [401, 500] : [401, 429, 500];
    for (const status of [...new Set([...always, ...(r.errors ?? [])])].sort()) {
      responses[String(status)] = { description: errorDescription(status), content: { 'application/json': { schema: errorRef } } };
    }
    tags.add(r.tag);
    paths[oasPath] ??= {};
    paths[oasPath][r.method] = {
      operationId: r.operationId,
      summary: r.summary,
      tags: [r.tag],
      ...(example ? { description: snippetsMarkdown(r, example) } : {}),
      ...(r.deprecated ? { deprecated: true } : {}),
      ...(r.auth === 'portalToken' ? { security: [{ portalToken: [] }] } : r.auth === 'none' ? { security: [] } : r.auth === 'apiKeyOrUrlToken' ? { security: [{ apiKey: [] }, {}] } : {}),
      ...(params.length + queryParams.length ? { parameters: [...params, ...queryParams] } : {}),
      ...(Object.keys(content).length ? { requestBody: { required: true, content } } : {}),
      responses,
      ...(example ? { 'x-codeSamples': codeSamples(r, example) } : {}),
    };
  }
  const { schemas, resolve } = components.build();
  return resolve({
    openapi: '3.1.0',
    info: {
      title: 'Quire document processing API', version,
      description: 'Self-hostable document processing. Authenticate with the `x-api-key` header. Errors are `{"error":{"code","message","details?"}}` with the codes listed under `x-error-codes`.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Quire' },
    },
    servers: [{ url: '/', description: 'This Quire server' }],
    security: [{ apiKey: [] }],
    tags: [...tags].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'The organization\'s API key' },
        portalToken: { type: 'http', scheme: 'bearer', description: 'Webhook portal token from POST /webhook (also accepted as ?token=)' },
      },
      schemas,
    },
    'x-error-codes': Object.fromEntries(Object.entries(ERROR_CODES).map(([code, v]) => [code, v])),
  });
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  Extract: 'Parse documents into markdown, layout, tables and figures',
  Classify: 'Route documents to pipelines',
  Schema: 'Extract structured data with a JSON schema',
  Tables: 'Table-first output from a saved extraction',
  Charts: 'Chart series reconstructed from a saved extraction',
  Split: 'Divide an extraction into topic-based page groups',
  Batch: 'Run a step across many inputs',
  Forms: 'Detect, fill and clear PDF forms',
  Jobs: 'Poll and cancel asynchronous jobs',
  Results: 'Download results, form PDFs and figure images',
  Webhooks: 'Webhook portal and its API',
  Usage: 'Credits, pages and the usage timeline',
  Legacy: 'Deprecated endpoints kept for older clients',
  Operations: 'Health, readiness, metrics and this document',
};

/** Query parameters, one per property of the (flat) query schema. */
function queryParameters(query: z.ZodType): unknown[] {
  const schema = z.toJSONSchema(query, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown>; required?: string[]; $defs?: unknown };
  if (schema.$defs) throw new Error('query schemas must be flat (no named nested schemas)');
  return Object.entries(schema.properties ?? {}).map(([name, s]) => ({ name, in: 'query', required: schema.required?.includes(name) ?? false, schema: s }));
}

function pathParam(pattern: string, actual: string, name: string): string {
  const parts = pattern.split('/');
  const values = actual.split('?')[0].split('/');
  return decodeURIComponent(values[parts.indexOf(`:${name}`)] ?? '');
}

/** A multipart example: object and array fields (sent as JSON text) as the values they encode, as OpenAPI encodes such parts. */
function multipartExample(m: { fields: Record<string, string>; file?: string }): Record<string, unknown> {
  const value = (v: string) => {
    try { const parsed: unknown = JSON.parse(v); return parsed !== null && typeof parsed === 'object' ? parsed : v; } catch { return v; }
  };
  return { ...(m.file ? { file: `(the bytes of ${m.file})` } : {}), ...Object.fromEntries(Object.entries(m.fields).map(([k, v]) => [k, value(v)])) };
}

function errorDescription(status: number): string {
  const codes = Object.entries(ERROR_CODES).filter(([, v]) => v.status === status).map(([c]) => c);
  return codes.length ? `Error (${codes.join(', ')})` : 'Error';
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function curlSnippet(r: RouteDoc, ex: RecordedExample): string {
  const lines = [`curl -X ${r.method.toUpperCase()} "$QUIRE_URL${ex.path}"`];
  if (r.auth === 'portalToken') lines.push('-H "Authorization: Bearer $QUIRE_PORTAL_TOKEN"');
  else if (r.auth !== 'none' && !(r.auth === 'apiKeyOrUrlToken' && ex.path.includes('token='))) lines.push('-H "x-api-key: $QUIRE_API_KEY"');
  if (ex.request?.json !== undefined) lines.push("-H 'content-type: application/json'", `-d ${shellQuote(JSON.stringify(ex.request.json))}`);
  if (ex.request?.multipart) {
    if (ex.request.multipart.file) lines.push(`-F file=@${ex.request.multipart.file}`);
    for (const [k, v] of Object.entries(ex.request.multipart.fields)) lines.push(`-F ${shellQuote(`${k}=${v}`)}`);
  }
  return lines.join(' \\\n  ');
}

function sdkSnippet(r: RouteDoc, ex: RecordedExample): string | undefined {
  const method: string | undefined = (SDK_OPERATIONS as Record<string, string>)[`${r.method.toUpperCase()} ${openApiPath(r.path)}`];
  if (!method || !SNIPPET_METHODS.has(method)) return undefined;
  let args: string;
  if (r.path.includes(':')) args = JSON.stringify(pathParam(r.path, ex.path, r.path.match(/:(\w+)/)![1]));
  else if (SOURCE_FIRST.has(method)) {
    // extract/classify/form calls take the document first (a path, bytes, a URL, or a saved id), then options
    const multipart = ex.request?.multipart;
    const fields: Record<string, unknown> = multipart
      ? Object.fromEntries(Object.entries(multipart.fields).map(([k, v]) => [k, parseJsonish(v)]))
      : { ...((ex.request?.json ?? {}) as Record<string, unknown>) };
    const savedId = (['form_id', 'extraction_id'] as const).find((k) => typeof fields[k] === 'string');
    const source = multipart?.file ? `'./${multipart.file}'` : savedId ? `{ ${savedId}: ${JSON.stringify(fields[savedId])} }` : "'./document.pdf'";
    if (savedId) delete fields[savedId];
    const parts = [source];
    if (method === 'formFill') { parts.push(JSON.stringify(fields.instructions ?? '')); delete fields.instructions; }
    if (Object.keys(fields).length) parts.push(JSON.stringify(fields));
    args = parts.join(', ');
  } else args = JSON.stringify(ex.request?.json ?? {}, null, 2);
  return [
    "import { Quire } from '@quire/sdk';",
    '',
    'const quire = new Quire({ baseUrl: process.env.QUIRE_URL, apiKey: process.env.QUIRE_API_KEY });',
    `const result = await quire.${method}(${args});`,
  ].join('\n');
}

/** SDK methods whose first argument is the document (FileInput or a saved extraction/form id). */
const SOURCE_FIRST = new Set(['extract', 'classify', 'formDetect', 'formFill', 'formClear']);

/** A multipart field as the value the SDK takes (JSON text becomes the object it encodes). */
function parseJsonish(v: string): unknown {
  try { return JSON.parse(v); } catch { return v; }
}

function codeSamples(r: RouteDoc, ex: RecordedExample): { lang: string; label: string; source: string }[] {
  const sdk = sdkSnippet(r, ex);
  return [{ lang: 'Shell', label: 'curl', source: curlSnippet(r, ex) }, ...(sdk ? [{ lang: 'TypeScript', label: '@quire/sdk', source: sdk }] : [])];
}

function snippetsMarkdown(r: RouteDoc, ex: RecordedExample): string {
  return codeSamples(r, ex).map((s) => `**${s.label}**\n\n\`\`\`${s.lang === 'Shell' ? 'sh' : 'ts'}\n${s.source}\n\`\`\``).join('\n\n');
}
