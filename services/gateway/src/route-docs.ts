import fs from 'node:fs';
import { z } from 'zod';
import {
  ExtractOptionsSchema, ExtractResultSchema, JobAcceptedSchema, JobSchema, CancelResponseSchema, UsageSchema, UsageQuerySchema, type RouteDoc,
  FormRequestSchema, FormResultSchema, TablesRequestSchema, TablesResultSchema,
  ClassifyOptionsSchema, ClassifyResultSchema, SplitOptionsSchema, SplitResultSchema, PipelineInputSchema, PipelineUpdateSchema, PipelineSchema, PipelineListSchema,
  type RecordedExamples, ChartsRequestSchema, ChartsResultSchema, BatchAcceptedSchema, BatchResultSchema, BatchSchemaRequestSchema, BatchSplitRequestSchema, BatchTablesRequestSchema,
  JobEventSchema, SchemaRequestSchema, SchemaResultSchema, SchemaConfigCreateSchema, SchemaConfigUpdateSchema, SchemaConfigRecordSchema, SchemaConfigListSchema, SchemaVersionListSchema, SchemaRecordSchema,
} from '@quire/contracts';
import { DeliveryView as Delivery, EndpointView as Endpoint, NewEndpoint as CreateEndpoint, PatchEndpoint as UpdateEndpoint } from './routes/webhooks.js';

// The portal's schemas, named as components (copies of the ones its routes validate with, plus an id).
const EndpointView = Endpoint.meta({ id: 'WebhookEndpoint' });
const DeliveryView = Delivery.meta({ id: 'WebhookDelivery' });
const NewEndpoint = CreateEndpoint.meta({ id: 'WebhookEndpointCreate' });
const PatchEndpoint = UpdateEndpoint.meta({ id: 'WebhookEndpointUpdate' });

const Accepted = { description: 'Accepted (async=true): poll GET /job/{job_id}', schema: JobAcceptedSchema };
const ResultJson = z.record(z.string(), z.unknown()).meta({ id: 'ResultJson', description: 'The result of the job\'s step, as GET /job/{jobId} would have carried it inline (ExtractResult, SchemaResult, TablesResult, …)' });
const JobDoc = JobSchema.extend({ result: z.union([BatchResultSchema, z.record(z.string(), z.unknown())]).optional().describe('The step\'s result; a batch parent\'s is a BatchResult; large results are {is_url, url}') }).meta({ id: 'JobView' });
const ConvertUpload = z.object({ file_url: z.string().optional() }).meta({ id: 'Convert' });
const HostedFile = z.object({
  file_id: z.string(), url: z.string().describe('Single-use-token URL, usable as file_url'), filename: z.string().nullable(), size: z.number().int(),
  format: z.string(), page_count: z.number().int(), expires_at: z.string(),
}).meta({ id: 'HostedFile' });
const BatchAccepted = { description: 'Accepted: poll GET /job/{job_id}; its result is a BatchResult once every child has settled', schema: BatchAcceptedSchema };
const JobEventDoc = JobEventSchema.meta({ id: 'JobEvent', description: 'One event of GET /job/{jobId}/events: `type` is its `event:` line, `data` its `data:` line' });
const Liveness = z.object({ status: z.literal('ok') }).meta({ id: 'Liveness' });
const Readiness = z.object({
  status: z.enum(['ready', 'not ready', 'draining']),
  checks: z.object({ database: z.string(), queue: z.string(), blobs: z.string() }).optional().describe('"ok" or "error: …" for each store (absent while draining)'),
}).meta({ id: 'Readiness' });
const ResultTokenQuery = z.object({ token: z.string().optional().describe('The single-use token of a result URL ({is_url, url}); the key is still required') });
const FileTokenQuery = z.object({ token: z.string().optional().describe('The token of the URL POST /convert returned; with it no API key is needed') });
const FORM_SUMMARY = {
  detect: 'Detect form cells on a PDF; returns a reusable form_id (1 credit/page)',
  fill: 'Fill a PDF form from natural-language instructions (3 credits/page)',
  clear: 'Strip filled-in values, keeping the printed template (3 credits/page)',
} as const;

/**
 * One request and response per operation, recorded from a real run against the embedded server
 * (tests/e2e/openapi-examples.test.ts writes it with QUIRE_RECORD_EXAMPLES=1 and checks it is current).
 */
export function recordedExamples(): RecordedExamples {
  return JSON.parse(fs.readFileSync(new URL('./openapi-examples.json', import.meta.url), 'utf8')) as RecordedExamples;
}

/**
 * Every path of the spec (legacy ones included) plus Quire's operational ones: what GET /openapi.json
 * describes. A route mounted by the gateway needs an entry here (tests/e2e/openapi-examples.test.ts
 * fails otherwise) and a recorded example (the same test drives it).
 */
export function routeDocs(): RouteDoc[] {
  return [
    { method: 'post', path: '/extract', operationId: 'extract', tag: 'Extract', summary: 'Parse a document into markdown, layout, tables, figures, chunks and an extraction_id', multipart: ExtractOptionsSchema, json: ExtractOptionsSchema, responses: { 200: { description: 'Extraction', schema: ExtractResultSchema }, 202: Accepted }, errors: [400, 403, 404, 408, 413, 402, 501] },
    { method: 'post', path: '/extract_async', operationId: 'extractAsync', tag: 'Extract', summary: 'Deprecated: /extract with async=true', multipart: ExtractOptionsSchema, json: ExtractOptionsSchema, responses: { 202: Accepted }, errors: [400, 413], deprecated: true },
    { method: 'post', path: '/classify', operationId: 'classify', tag: 'Classify', summary: 'Route a document (file, file_url or extraction_id) to a pipeline_id, with every candidate\'s score', multipart: ClassifyOptionsSchema, json: ClassifyOptionsSchema, responses: { 200: { description: 'Classification', schema: ClassifyResultSchema }, 202: Accepted }, errors: [400, 402, 403, 404, 408, 413] },
    { method: 'post', path: '/pipelines', operationId: 'createPipeline', tag: 'Classify', summary: 'Create a classify pipeline for the organization', json: PipelineInputSchema, responses: { 201: { description: 'Pipeline', schema: PipelineSchema } }, errors: [400] },
    { method: 'get', path: '/pipelines', operationId: 'listPipelines', tag: 'Classify', summary: 'List the organization\'s pipelines', responses: { 200: { description: 'Pipelines', schema: PipelineListSchema } } },
    { method: 'get', path: '/pipelines/:id', operationId: 'getPipeline', tag: 'Classify', summary: 'One pipeline', responses: { 200: { description: 'Pipeline', schema: PipelineSchema } }, errors: [400, 404] },
    { method: 'put', path: '/pipelines/:id', operationId: 'replacePipeline', tag: 'Classify', summary: 'Replace a pipeline (omitted description/keywords become empty)', json: PipelineInputSchema, responses: { 200: { description: 'Pipeline', schema: PipelineSchema } }, errors: [400, 404] },
    { method: 'patch', path: '/pipelines/:id', operationId: 'updatePipeline', tag: 'Classify', summary: 'Change some fields of a pipeline', json: PipelineUpdateSchema, responses: { 200: { description: 'Pipeline', schema: PipelineSchema } }, errors: [400, 404] },
    { method: 'delete', path: '/pipelines/:id', operationId: 'deletePipeline', tag: 'Classify', summary: 'Delete a pipeline', responses: { 200: { description: 'Deleted', schema: z.object({ pipeline_id: z.string(), deleted: z.literal(true) }) } }, errors: [400, 404] },
    { method: 'post', path: '/schema', operationId: 'schema', tag: 'Schema', summary: 'Apply a JSON schema to one extraction (extraction_id), several combined (extraction_ids) or the topics of a split (split_id + split_schema_config)', json: SchemaRequestSchema, responses: { 200: { description: 'Schema result (split mode: results keyed by topic)', schema: SchemaResultSchema }, 202: Accepted }, errors: [400, 402, 403, 404] },
    { method: 'post', path: '/schema/configs', operationId: 'createSchemaConfig', tag: 'Schema', summary: 'Save a schema configuration (use its schema_config_id in POST /schema)', json: SchemaConfigCreateSchema, responses: { 201: { description: 'Saved configuration', schema: SchemaConfigRecordSchema } }, errors: [400] },
    { method: 'get', path: '/schema/configs', operationId: 'listSchemaConfigs', tag: 'Schema', summary: 'List saved schema configurations', responses: { 200: { description: 'Configurations', schema: SchemaConfigListSchema } } },
    { method: 'get', path: '/schema/configs/:configId', operationId: 'getSchemaConfig', tag: 'Schema', summary: 'Read a saved schema configuration', responses: { 200: { description: 'Configuration', schema: SchemaConfigRecordSchema } }, errors: [400, 404] },
    { method: 'put', path: '/schema/configs/:configId', operationId: 'updateSchemaConfig', tag: 'Schema', summary: 'Edit a saved schema configuration (config_version counts up)', json: SchemaConfigUpdateSchema, responses: { 200: { description: 'Configuration', schema: SchemaConfigRecordSchema } }, errors: [400, 404] },
    { method: 'get', path: '/schema/configs/:configId/versions', operationId: 'listSchemaConfigVersions', tag: 'Schema', summary: 'Schema records (versions) created with a saved configuration, oldest first', responses: { 200: { description: 'Versions', schema: SchemaVersionListSchema } }, errors: [400, 404] },
    { method: 'get', path: '/schema/:schemaId', operationId: 'getSchemaRecord', tag: 'Schema', summary: 'The saved record of one /schema call (schema_id)', responses: { 200: { description: 'Schema record', schema: SchemaRecordSchema } }, errors: [400, 404] },
    { method: 'get', path: '/schema/:schemaId/versions', operationId: 'listSchemaVersions', tag: 'Schema', summary: 'Every version of the lineage a schema_id belongs to (same saved configuration, or the same inline configuration)', responses: { 200: { description: 'Versions', schema: SchemaVersionListSchema } }, errors: [400, 404] },
    { method: 'post', path: '/tables', operationId: 'tables', tag: 'Tables', summary: 'Table-first output from a saved extraction (tables_endpoint flag): spans, multi-level headers, cross-page merging, chart series as tables', json: TablesRequestSchema, responses: { 200: { description: 'Tables result', schema: TablesResultSchema }, 202: Accepted }, errors: [400, 403, 404] },
    { method: 'post', path: '/charts', operationId: 'charts', tag: 'Charts', summary: 'Reconstruct chart series, axes, source boxes and CSV exports from a saved extraction (1 credit per chart; charts without stored series are listed under not_converted)', json: ChartsRequestSchema, responses: { 200: { description: 'Charts result', schema: ChartsResultSchema }, 202: Accepted }, errors: [400, 402, 403, 404] },
    { method: 'post', path: '/split', operationId: 'split', tag: 'Split', summary: 'Divide a saved extraction into topic-based page groups (split_id for /schema split mode)', json: SplitOptionsSchema, responses: { 200: { description: 'Split result', schema: SplitResultSchema }, 202: Accepted }, errors: [400, 402, 403, 404, 408] },
    { method: 'post', path: '/batch/extract', operationId: 'batchExtract', tag: 'Batch', summary: 'Extract several documents (multipart files and/or file_urls, at most 50) with one set of /extract options: a parent job (result: BatchResult) and one child extraction each', multipart: ExtractOptionsSchema, responses: { 202: BatchAccepted }, errors: [400, 402, 403, 404, 413] },
    { method: 'post', path: '/batch/schema', operationId: 'batchSchema', tag: 'Batch', summary: 'One /schema per extraction (extraction_ids or batch_id, with schema_config or schema_config_id) or per split (split_ids with split_schema_config); parent result: BatchResult with schema_id per child', json: BatchSchemaRequestSchema, responses: { 202: BatchAccepted }, errors: [400, 402, 403, 404, 409] },
    { method: 'post', path: '/batch/tables', operationId: 'batchTables', tag: 'Batch', summary: 'One /tables per extraction (extraction_ids or batch_id) with shared tables_config (tables_endpoint flag); parent result: BatchResult with tables_id per child', json: BatchTablesRequestSchema, responses: { 202: BatchAccepted }, errors: [400, 402, 403, 404, 409] },
    { method: 'post', path: '/batch/split', operationId: 'batchSplit', tag: 'Batch', summary: 'One /split per extraction (extraction_ids or batch_id) with shared split_config; parent result: BatchResult with split_id per child', json: BatchSplitRequestSchema, responses: { 202: BatchAccepted }, errors: [400, 402, 403, 404, 409] },
    ...(['detect', 'fill', 'clear'] as const).map((s): RouteDoc => ({ method: 'post', path: `/form/${s}`, operationId: `form${s.charAt(0).toUpperCase()}${s.slice(1)}`, tag: 'Forms', summary: FORM_SUMMARY[s], multipart: FormRequestSchema, json: FormRequestSchema, responses: { 200: { description: 'FormResult', schema: FormResultSchema }, 202: Accepted }, errors: [400, 403, 404, 413] })),
    { method: 'get', path: '/job/:jobId', operationId: 'getJob', tag: 'Jobs', summary: 'Poll a job', responses: { 200: { description: 'Job (a batch parent\'s result is a BatchResult)', schema: JobDoc } }, errors: [400, 404, 410] },
    { method: 'get', path: '/job/:jobId/events', operationId: 'getJobEvents', tag: 'Jobs', summary: 'Live progress as Server-Sent Events: status (first a snapshot), progress (pages done/total), page (with ?partial=true: each page\'s markdown and elements as soon as it is read; provisional for PDF and image pages), end (then the stream closes); reconnect with Last-Event-ID or ?last_event_id=. EventSource clients may pass the key as ?api_key=', query: z.object({ partial: z.enum(['true', 'false', '1', '0']).optional().describe('true: also send `page` events, each page\'s result as it finishes (extract jobs)'), last_event_id: z.coerce.number().int().min(0).optional(), api_key: z.string().optional() }), responses: { 200: { description: 'An event stream: per event an `id:` line, an `event:` line (the type below) and a `data:` line (its data as one line of JSON)', contentType: 'text/event-stream', eventSchema: JobEventDoc } }, errors: [400, 404, 410] },
    { method: 'delete', path: '/job/:jobId', operationId: 'cancelJob', tag: 'Jobs', summary: 'Cancel a pending or processing job', responses: { 200: { description: 'Canceled', schema: CancelResponseSchema } }, errors: [400, 404, 409, 410] },
    { method: 'post', path: '/cancel/:jobId', operationId: 'cancelJobLegacy', tag: 'Jobs', summary: 'Deprecated: cancel a job', responses: { 200: { description: 'Canceled', schema: CancelResponseSchema } }, errors: [400, 404, 409], deprecated: true },
    { method: 'get', path: '/results/:jobId', operationId: 'getResult', tag: 'Results', summary: 'Download a result (large results; ?token= URLs are single-use)', query: ResultTokenQuery, responses: { 200: { description: 'The result JSON', schema: ResultJson } }, errors: [400, 404, 409, 410] },
    { method: 'get', path: '/results/:jobId/pdf', operationId: 'getResultPdf', tag: 'Results', summary: 'PDF produced by a form workflow', responses: { 200: { description: 'PDF bytes', contentType: 'application/pdf' } }, errors: [400, 404, 410] },
    { method: 'get', path: '/results/:jobId/images/:filename', operationId: 'getResultImage', tag: 'Results', summary: 'Figure image emitted by an extraction', responses: { 200: { description: 'PNG or JPEG bytes', contentType: 'image/png' } }, errors: [400, 404, 410] },
    { method: 'get', path: '/results/:jobId/pages/:page.png', operationId: 'getPageImage', tag: 'Results', summary: 'Page n of the job\'s source document drawn as PNG (PDF and image sources; ?dpi= 36-300, default 110; ?of=output: the PDF a form fill or clear produced), for drawing result boxes over it', query: z.object({ dpi: z.coerce.number().int().min(36).max(300).optional(), of: z.enum(['source', 'output']).optional() }), responses: { 200: { description: 'PNG bytes; x-page-count header', contentType: 'image/png' } }, errors: [400, 404, 410] },
    { method: 'get', path: '/playground', operationId: 'playground', tag: 'Operations', summary: 'The browser playground (HTML): upload a document, watch progress, see every element\'s box over its page; its calls send the key pasted into it', auth: 'none', responses: { 200: { description: 'HTML page', contentType: 'text/html' } } },
    { method: 'get', path: '/playground/:asset', operationId: 'playgroundAsset', tag: 'Operations', summary: 'The playground\'s script or stylesheet (bundled at build time; nothing from a CDN)', auth: 'none', responses: { 200: { description: 'JavaScript or CSS', contentType: 'text/javascript' } }, errors: [404] },
    { method: 'post', path: '/webhook', operationId: 'webhookPortalLink', tag: 'Webhooks', summary: 'Link to the webhook portal', responses: { 200: { description: 'Portal link', schema: z.object({ link: z.string(), expires_in: z.number().int() }) } } },
    { method: 'get', path: '/webhook-portal', operationId: 'webhookPortalPage', tag: 'Webhooks', summary: 'The webhook portal page (HTML; open the link from POST /webhook)', auth: 'none', responses: { 200: { description: 'HTML page', contentType: 'text/html' } } },
    { method: 'get', path: '/webhook-portal/api/event-types', operationId: 'portalListEventTypes', tag: 'Webhooks', summary: 'Portal: the event types an endpoint can subscribe to', auth: 'portalToken', responses: { 200: { description: 'Event types', schema: z.object({ event_types: z.array(z.string()) }) } }, errors: [] },
    { method: 'get', path: '/webhook-portal/api/endpoints', operationId: 'portalListEndpoints', tag: 'Webhooks', summary: 'Portal: the organization\'s webhook endpoints', auth: 'portalToken', responses: { 200: { description: 'Endpoints', schema: z.object({ endpoints: z.array(EndpointView) }) } } },
    { method: 'post', path: '/webhook-portal/api/endpoints', operationId: 'portalCreateEndpoint', tag: 'Webhooks', summary: 'Portal: add an endpoint (URL, description, event filter, custom headers); a signing secret is generated', auth: 'portalToken', json: NewEndpoint, responses: { 201: { description: 'Endpoint', schema: EndpointView } }, errors: [400] },
    { method: 'get', path: '/webhook-portal/api/endpoints/:id', operationId: 'portalGetEndpoint', tag: 'Webhooks', summary: 'Portal: one endpoint', auth: 'portalToken', responses: { 200: { description: 'Endpoint', schema: EndpointView } }, errors: [404] },
    { method: 'patch', path: '/webhook-portal/api/endpoints/:id', operationId: 'portalUpdateEndpoint', tag: 'Webhooks', summary: 'Portal: change an endpoint (url, description, event_types, headers, disabled)', auth: 'portalToken', json: PatchEndpoint, responses: { 200: { description: 'Endpoint', schema: EndpointView } }, errors: [400, 404] },
    { method: 'delete', path: '/webhook-portal/api/endpoints/:id', operationId: 'portalDeleteEndpoint', tag: 'Webhooks', summary: 'Portal: delete an endpoint', auth: 'portalToken', responses: { 200: { description: 'Deleted', schema: z.object({ deleted: z.string() }) } }, errors: [404] },
    { method: 'post', path: '/webhook-portal/api/endpoints/:id/test', operationId: 'portalTestEndpoint', tag: 'Webhooks', summary: 'Portal: queue a test event (webhook.test) to the endpoint', auth: 'portalToken', responses: { 202: { description: 'Queued delivery', schema: z.object({ delivery_id: z.number().int(), msg_id: z.string(), status: z.string() }) } }, errors: [404] },
    { method: 'get', path: '/webhook-portal/api/endpoints/:id/deliveries', operationId: 'portalListDeliveries', tag: 'Webhooks', summary: 'Portal: the endpoint\'s delivery log with every attempt', auth: 'portalToken', responses: { 200: { description: 'Deliveries', schema: z.object({ deliveries: z.array(DeliveryView) }) } }, errors: [404] },
    { method: 'get', path: '/usage', operationId: 'getUsage', tag: 'Usage', summary: 'Billing-period status, totals and a day/week/month timeline', query: UsageQuerySchema, responses: { 200: { description: 'Usage', schema: UsageSchema } }, errors: [400] },
    { method: 'post', path: '/convert', operationId: 'convert', tag: 'Legacy', summary: 'Deprecated: upload a file and receive a hosted URL', multipart: ConvertUpload, responses: { 200: { description: 'Hosted URL', schema: HostedFile } }, deprecated: true },
    { method: 'get', path: '/files/:fileId', operationId: 'getHostedFile', tag: 'Legacy', summary: 'A document hosted by POST /convert (its ?token= URL, or the organization\'s key)', auth: 'apiKeyOrUrlToken', query: FileTokenQuery, responses: { 200: { description: 'The document bytes', contentType: 'application/octet-stream' } }, errors: [400, 404, 410] },
    { method: 'get', path: '/healthz', operationId: 'healthz', tag: 'Operations', summary: 'Liveness', auth: 'none', responses: { 200: { description: 'The process is up', schema: Liveness } } },
    { method: 'get', path: '/readyz', operationId: 'readyz', tag: 'Operations', summary: 'Readiness: metadata store, queue and blob store reachable; 503 from the start of a graceful stop', auth: 'none', responses: { 200: { description: 'Ready', schema: Readiness }, 503: { description: 'Not ready, or draining', schema: Readiness } } },
    { method: 'get', path: '/metrics', operationId: 'metrics', tag: 'Operations', summary: 'Prometheus metrics', auth: 'none', responses: { 200: { description: 'text exposition', contentType: 'text/plain' } } },
    { method: 'get', path: '/openapi.json', operationId: 'getOpenApi', tag: 'Operations', summary: 'This OpenAPI 3.1 document', auth: 'none', responses: { 200: { description: 'The OpenAPI document', contentType: 'application/json' } } },
    { method: 'get', path: '/docs', operationId: 'docsPage', tag: 'Operations', summary: 'The API reference for people (Swagger UI on /openapi.json)', auth: 'none', responses: { 200: { description: 'HTML page', contentType: 'text/html' } } },
    { method: 'get', path: '/docs/assets/:file', operationId: 'docsAsset', tag: 'Operations', summary: 'A script or stylesheet of the /docs page (served from the installed swagger-ui-dist package)', auth: 'none', responses: { 200: { description: 'JavaScript or CSS', contentType: 'text/javascript' } }, errors: [404] },
  ];
}
