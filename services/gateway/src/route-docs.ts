import { z } from 'zod';
import { ExtractOptionsSchema, ExtractResultSchema, JobAcceptedSchema, JobSchema, CancelResponseSchema, UsageSchema, UsageQuerySchema, type RouteDoc } from '@quire/contracts';

const Accepted = { description: 'Accepted (async=true): poll GET /job/{job_id}', schema: JobAcceptedSchema };
const AnyJson = z.record(z.string(), z.unknown());

/**
 * Every path of the spec (legacy ones included) plus Quire's operational ones. Step paths whose
 * job kind has no worker yet are marked implemented:false and answer 501 GENERAL_005.
 */
export function routeDocs(implemented: ReadonlySet<string>): RouteDoc[] {
  const step = (kind: string) => implemented.has(kind);
  return [
    { method: 'post', path: '/extract', tag: 'Extract', summary: 'Parse a document into markdown, layout, tables, figures, chunks and an extraction_id', multipart: ExtractOptionsSchema, json: ExtractOptionsSchema, responses: { 200: { description: 'Extraction', schema: ExtractResultSchema }, 202: Accepted }, errors: [400, 403, 404, 408, 413, 402, 501], implemented: step('extract') },
    { method: 'post', path: '/extract_async', tag: 'Extract', summary: 'Deprecated: /extract with async=true', multipart: ExtractOptionsSchema, json: ExtractOptionsSchema, responses: { 202: Accepted }, errors: [400, 413], deprecated: true, implemented: step('extract') },
    { method: 'post', path: '/classify', tag: 'Classify', summary: 'Route a document to a pipeline_id', responses: { 200: { description: 'Classification', schema: AnyJson }, 202: Accepted }, errors: [400], implemented: step('classify') },
    { method: 'post', path: '/schema', tag: 'Schema', summary: 'Apply a JSON schema to extractions or split topics', json: AnyJson, responses: { 200: { description: 'Schema result', schema: AnyJson }, 202: Accepted }, errors: [400, 403, 404], implemented: step('schema') },
    { method: 'post', path: '/tables', tag: 'Tables', summary: 'Table-first output from a saved extraction', json: AnyJson, responses: { 200: { description: 'Tables result', schema: AnyJson }, 202: Accepted }, errors: [400, 403, 404], implemented: step('tables') },
    { method: 'post', path: '/charts', tag: 'Charts', summary: 'Reconstruct chart series from a saved extraction', json: AnyJson, responses: { 200: { description: 'Charts result', schema: AnyJson }, 202: Accepted }, errors: [400, 404], implemented: step('charts') },
    { method: 'post', path: '/split', tag: 'Split', summary: 'Divide a document into topic-based page groups', json: AnyJson, responses: { 200: { description: 'Split result', schema: AnyJson }, 202: Accepted }, errors: [400, 404], implemented: step('split') },
    ...['extract', 'schema', 'tables', 'split'].map((s): RouteDoc => ({ method: 'post', path: `/batch/${s}`, tag: 'Batch', summary: `Run ${s} across many inputs`, json: AnyJson, responses: { 202: Accepted }, errors: [400], implemented: s === 'extract' ? step('extract') : step(`batch_${s}`) })),
    ...(['detect', 'fill', 'clear'] as const).map((s): RouteDoc => ({ method: 'post', path: `/form/${s}`, tag: 'Forms', summary: `Form ${s}`, multipart: AnyJson, json: AnyJson, responses: { 200: { description: 'FormResult', schema: AnyJson }, 202: Accepted }, errors: [400, 403, 404], implemented: step(`form_${s}`) })),
    { method: 'get', path: '/job/:jobId', tag: 'Jobs', summary: 'Poll a job', responses: { 200: { description: 'Job', schema: JobSchema } }, errors: [404, 410] },
    { method: 'delete', path: '/job/:jobId', tag: 'Jobs', summary: 'Cancel a pending or processing job', responses: { 200: { description: 'Canceled', schema: CancelResponseSchema } }, errors: [404, 409, 410] },
    { method: 'post', path: '/cancel/:jobId', tag: 'Jobs', summary: 'Deprecated: cancel a job', responses: { 200: { description: 'Canceled', schema: CancelResponseSchema } }, errors: [404, 409], deprecated: true },
    { method: 'get', path: '/results/:jobId', tag: 'Results', summary: 'Download a result (large results; ?token= URLs are single-use)', responses: { 200: { description: 'The result JSON', schema: AnyJson } }, errors: [404, 409, 410] },
    { method: 'get', path: '/results/:jobId/pdf', tag: 'Results', summary: 'PDF produced by a form workflow', responses: { 200: { description: 'PDF bytes', contentType: 'application/pdf' } }, errors: [404, 410] },
    { method: 'get', path: '/results/:jobId/images/:filename', tag: 'Results', summary: 'Figure image emitted by an extraction', responses: { 200: { description: 'PNG or JPEG bytes', contentType: 'image/png' } }, errors: [404, 410] },
    { method: 'post', path: '/webhook', tag: 'Webhooks', summary: 'Link to the webhook portal', responses: { 200: { description: 'Portal link', schema: z.object({ link: z.string(), expires_in: z.number().int() }) } } },
    { method: 'get', path: '/usage', tag: 'Usage', summary: 'Billing-period status, totals and a day/week/month timeline', query: UsageQuerySchema, responses: { 200: { description: 'Usage', schema: UsageSchema } }, errors: [400] },
    { method: 'post', path: '/convert', tag: 'Legacy', summary: 'Deprecated: upload a file and receive a hosted URL', multipart: AnyJson, responses: { 200: { description: 'Hosted URL', schema: AnyJson } }, deprecated: true },
    { method: 'get', path: '/files/:fileId', tag: 'Legacy', summary: 'A document hosted by POST /convert (its ?token= URL, or the organization\'s key)', responses: { 200: { description: 'The document bytes', contentType: 'application/octet-stream' } }, errors: [404, 410] },
    { method: 'get', path: '/healthz', tag: 'Operations', summary: 'Liveness', responses: { 200: { description: 'ok' } } },
    { method: 'get', path: '/readyz', tag: 'Operations', summary: 'Readiness: metadata store, queue and blob store', responses: { 200: { description: 'ready' } }, errors: [503] },
    { method: 'get', path: '/metrics', tag: 'Operations', summary: 'Prometheus metrics', responses: { 200: { description: 'text exposition', contentType: 'text/plain' } } },
  ];
}
