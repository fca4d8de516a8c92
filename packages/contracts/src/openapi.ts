import { z } from 'zod';
import { ERROR_CODES } from '@quire/core';
import { ErrorBodySchema } from './common.js';

/** One route as the OpenAPI document describes it. The gateway registers the same schemas it validates with. */
export interface RouteDoc {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  summary: string;
  tag: string;
  json?: z.ZodType;
  multipart?: z.ZodType;
  query?: z.ZodType;
  responses: Partial<Record<200 | 201 | 202 | 204, { description: string; schema?: z.ZodType; contentType?: string }>>;
  errors?: number[];
  deprecated?: boolean;
  /** How the caller authenticates (default apiKey): the webhook portal uses its portal token; health probes none. */
  auth?: 'apiKey' | 'portalToken' | 'none';
}

const toSchema = (s: z.ZodType) => z.toJSONSchema(s, { target: 'draft-2020-12', unrepresentable: 'any', io: 'input', reused: 'inline' }) as Record<string, unknown>;

export function buildOpenApi(routes: readonly RouteDoc[], version = '0.1.0'): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const oasPath = r.path.replace(/:(\w+)/g, '{$1}');
    const params = [...r.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const queryParams = r.query ? Object.entries((toSchema(r.query).properties ?? {}) as Record<string, unknown>).map(([name, schema]) => ({ name, in: 'query', required: false, schema })) : [];
    const content: Record<string, unknown> = {};
    if (r.json) content['application/json'] = { schema: toSchema(r.json) };
    if (r.multipart) content['multipart/form-data'] = { schema: withFile(toSchema(r.multipart)) };
    const responses: Record<string, unknown> = {};
    for (const [code, resp] of Object.entries(r.responses)) {
      responses[code] = { description: resp.description, ...(resp.schema ? { content: { [resp.contentType ?? 'application/json']: { schema: toSchema(resp.schema) } } } : resp.contentType ? { content: { [resp.contentType]: {} } } : {}) };
    }
    for (const status of [...new Set([401, 429, 500, ...(r.errors ?? [])])]) {
      responses[String(status)] = { description: errorDescription(status), content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
    }
    paths[oasPath] ??= {};
    paths[oasPath][r.method] = {
      summary: r.summary,
      tags: [r.tag], operationId: `${r.method}${oasPath.replace(/[{}]/g, '').replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string) => (c ? c.toUpperCase() : ''))}`,
      ...(r.deprecated ? { deprecated: true } : {}),
      ...(r.auth === 'portalToken' ? { security: [{ portalToken: [] }] } : r.auth === 'none' ? { security: [] } : {}),
      parameters: [...params, ...queryParams],
      ...(Object.keys(content).length ? { requestBody: { required: true, content } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Quire document processing API', version, description: 'Self-hostable document processing. Authenticate with the x-api-key header.' },
    servers: [{ url: '/' }],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        portalToken: { type: 'http', scheme: 'bearer', description: 'Webhook portal token from POST /webhook (also accepted as ?token=)' },
      },
      schemas: { Error: toSchema(ErrorBodySchema) },
    },
    paths,
    'x-error-codes': Object.fromEntries(Object.entries(ERROR_CODES).map(([code, v]) => [code, v])),
  };
}

function withFile(schema: Record<string, unknown>): Record<string, unknown> {
  const props = (schema.properties ?? {}) as Record<string, unknown>;
  return { ...schema, properties: { file: { type: 'string', format: 'binary', description: 'The document (PDF, PNG, JPEG, TIFF, DOCX, PPTX, XLSX, HTML)' }, ...props } };
}

function errorDescription(status: number): string {
  const codes = Object.entries(ERROR_CODES).filter(([, v]) => v.status === status).map(([c]) => c);
  return codes.length ? `Error (${codes.join(', ')})` : 'Error';
}
