import { z } from 'zod';
import {
  ExtractOptionsSchema, ExtractResultSchema, JobAcceptedSchema, JobSchema, CancelResponseSchema, UsageSchema, UsageQuerySchema, type RouteDoc,
  FormRequestSchema, FormResultSchema, TablesRequestSchema, TablesResultSchema,
  ClassifyOptionsSchema, ClassifyResultSchema, SplitOptionsSchema, SplitResultSchema, PipelineInputSchema, PipelineUpdateSchema, PipelineSchema, PipelineListSchema,
  ChartsRequestSchema, ChartsResultSchema, BatchAcceptedSchema, BatchResultSchema, BatchSchemaRequestSchema, BatchSplitRequestSchema, BatchTablesRequestSchema,
  SchemaRequestSchema, SchemaResultSchema, SchemaConfigCreateSchema, SchemaConfigUpdateSchema, SchemaConfigRecordSchema, SchemaConfigListSchema, SchemaVersionListSchema, SchemaRecordSchema,
} from '@quire/contracts';
import { DeliveryView, EndpointView, NewEndpoint, PatchEndpoint } from './routes/webhooks.js';

const Accepted = { description: 'Accepted (async=true): poll GET /job/{job_id}', schema: JobAcceptedSchema };
const AnyJson = z.record(z.string(), z.unknown());
const JobDoc = JobSchema.extend({ result: z.union([BatchResultSchema, z.record(z.string(), z.unknown())]).optional().describe('The step\'s result; a batch parent\'s is a BatchResult; large results are {is_url, url}') });
const BatchAccepted = { description: 'Accepted: poll GET /job/{job_id}; its result is a BatchResult once every child has settled', schema: BatchAcceptedSchema };
const FORM_SUMMARY = {
  detect: 'Detect form cells on a PDF; returns a reusable form_id (1 credit/page)',
  fill: 'Fill a PDF form from natural-language instructions (3 credits/page)',
  clear: 'Strip filled-in values, keeping the printed template (3 credits/page)',
} as const;

/**
 * Every path of the spec (legacy ones included) plus Quire's operational ones. Step paths whose
 * job kind has no worker yet are marked implemented:false and answer 501 GENERAL_005.
 */
export function routeDocs(implemented: ReadonlySet<string>): RouteDoc[] {
  const step = (kind: string) => implemented.has(kind);
  return [
    { method: 'post', path: '/extract', tag: 'Extract', summary: 'Parse a document into markdown, layout, tables, figures, chunks and an extraction_id', multipart: ExtractOptionsSchema, json: ExtractOptionsSchema, responses: { 200: { description: 'Extraction', schema: ExtractResultSchema }, 202: Accepted }, errors: [400, 403, 404, 408, 413, 402, 501], implemented: step('extract') },
    { method: 'post', path: '/extract_async', tag: 'Extract', summary: 'Deprecated: /extract with async=true', multipart: ExtractOptionsSchema, json: ExtractOptionsSchema, responses: { 202: Accepted }, errors: [400, 413], deprecated: true, implemented: step('extract') },
    { method: 'post', path: '/classify', tag: 'Classify', summary: 'Route a document (file, file_url or extraction_id) to a pipeline_id, with every candidate\'s score', multipart: ClassifyOptionsSchema, json: ClassifyOptionsSchema, responses: { 200: { description: 'Classification', schema: ClassifyResultSchema }, 202: Accepted }, errors: [400, 402, 403, 404, 408, 413], implemented: step('classify') },
    { method: 'post', path: '/pipelines', tag: 'Classify', summary: 'Create a classify pipeline for the organization', json: PipelineInputSchema, responses: { 201: { description: 'Pipeline', schema: PipelineSchema } }, errors: [400] },
    { method: 'get', path: '/pipelines', tag: 'Classify', summary: 'List the organization\'s pipelines', responses: { 200: { description: 'Pipelines', schema: PipelineListSchema } } },
    { method: 'get', path: '/pipelines/:id', tag: 'Classify', summary: 'One pipeline', responses: { 200: { description: 'Pipeline', schema: PipelineSchema } }, errors: [404] },
    { method: 'put', path: '/pipelines/:id', tag: 'Classify', summary: 'Replace a pipeline (omitted description/keywords become empty)', json: PipelineInputSchema, responses: { 200: { description: 'Pipeline', schema: PipelineSchema } }, errors: [400, 404] },
    { method: 'patch', path: '/pipelines/:id', tag: 'Classify', summary: 'Change some fields of a pipeline', json: PipelineUpdateSchema, responses: { 200: { description: 'Pipeline', schema: PipelineSchema } }, errors: [400, 404] },
    { method: 'delete', path: '/pipelines/:id', tag: 'Classify', summary: 'Delete a pipeline', responses: { 200: { description: 'Deleted', schema: z.object({ pipeline_id: z.string(), deleted: z.literal(true) }) } }, errors: [404] },
    { method: 'post', path: '/schema', tag: 'Schema', summary: 'Apply a JSON schema to one extraction (extraction_id), several combined (extraction_ids) or the topics of a split (split_id + split_schema_config)', json: SchemaRequestSchema, responses: { 200: { description: 'Schema result (split mode: results keyed by topic)', schema: SchemaResultSchema }, 202: Accepted }, errors: [400, 402, 403, 404], implemented: step('schema') },
    { method: 'post', path: '/schema/configs', tag: 'Schema', summary: 'Save a schema configuration (use its schema_config_id in POST /schema)', json: SchemaConfigCreateSchema, responses: { 201: { description: 'Saved configuration', schema: SchemaConfigRecordSchema } }, errors: [400], implemented: step('schema') },
    { method: 'get', path: '/schema/configs', tag: 'Schema', summary: 'List saved schema configurations', responses: { 200: { description: 'Configurations', schema: SchemaConfigListSchema } }, implemented: step('schema') },
    { method: 'get', path: '/schema/configs/:configId', tag: 'Schema', summary: 'Read a saved schema configuration', responses: { 200: { description: 'Configuration', schema: SchemaConfigRecordSchema } }, errors: [404], implemented: step('schema') },
    { method: 'put', path: '/schema/configs/:configId', tag: 'Schema', summary: 'Edit a saved schema configuration (config_version counts up)', json: SchemaConfigUpdateSchema, responses: { 200: { description: 'Configuration', schema: SchemaConfigRecordSchema } }, errors: [400, 404], implemented: step('schema') },
    { method: 'get', path: '/schema/configs/:configId/versions', tag: 'Schema', summary: 'Schema records (versions) created with a saved configuration, oldest first', responses: { 200: { description: 'Versions', schema: SchemaVersionListSchema } }, errors: [404], implemented: step('schema') },
    { method: 'get', path: '/schema/:schemaId', tag: 'Schema', summary: 'The saved record of one /schema call (schema_id)', responses: { 200: { description: 'Schema record', schema: SchemaRecordSchema } }, errors: [404], implemented: step('schema') },
    { method: 'get', path: '/schema/:schemaId/versions', tag: 'Schema', summary: 'Every version of the lineage a schema_id belongs to (same saved configuration, or the same inline configuration)', responses: { 200: { description: 'Versions', schema: SchemaVersionListSchema } }, errors: [404], implemented: step('schema') },
    { method: 'post', path: '/tables', tag: 'Tables', summary: 'Table-first output from a saved extraction (tables_endpoint flag): spans, multi-level headers, cross-page merging, chart series as tables', json: TablesRequestSchema, responses: { 200: { description: 'Tables result', schema: TablesResultSchema }, 202: Accepted }, errors: [400, 403, 404], implemented: step('tables') },
    { method: 'post', path: '/charts', tag: 'Charts', summary: 'Reconstruct chart series, axes, source boxes and CSV exports from a saved extraction (1 credit per chart; charts without stored series are listed under not_converted)', json: ChartsRequestSchema, responses: { 200: { description: 'Charts result', schema: ChartsResultSchema }, 202: Accepted }, errors: [400, 402, 403, 404], implemented: step('charts') },
    { method: 'post', path: '/split', tag: 'Split', summary: 'Divide a saved extraction into topic-based page groups (split_id for /schema split mode)', json: SplitOptionsSchema, responses: { 200: { description: 'Split result', schema: SplitResultSchema }, 202: Accepted }, errors: [400, 402, 403, 404, 408], implemented: step('split') },
    { method: 'post', path: '/batch/extract', tag: 'Batch', summary: 'Extract several documents (multipart files and/or file_urls, at most 50) with one set of /extract options: a parent job (result: BatchResult) and one child extraction each', multipart: ExtractOptionsSchema, responses: { 202: BatchAccepted }, errors: [400, 402, 403, 404, 413], implemented: step('extract') },
    { method: 'post', path: '/batch/schema', tag: 'Batch', summary: 'One /schema per extraction (extraction_ids or batch_id, with schema_config or schema_config_id) or per split (split_ids with split_schema_config); parent result: BatchResult with schema_id per child', json: BatchSchemaRequestSchema, responses: { 202: BatchAccepted }, errors: [400, 402, 403, 404, 409], implemented: step('schema') },
    { method: 'post', path: '/batch/tables', tag: 'Batch', summary: 'One /tables per extraction (extraction_ids or batch_id) with shared tables_config (tables_endpoint flag); parent result: BatchResult with tables_id per child', json: BatchTablesRequestSchema, responses: { 202: BatchAccepted }, errors: [400, 402, 403, 404, 409], implemented: step('tables') },
    { method: 'post', path: '/batch/split', tag: 'Batch', summary: 'One /split per extraction (extraction_ids or batch_id) with shared split_config; parent result: BatchResult with split_id per child', json: BatchSplitRequestSchema, responses: { 202: BatchAccepted }, errors: [400, 402, 403, 404, 409], implemented: step('split') },
    ...(['detect', 'fill', 'clear'] as const).map((s): RouteDoc => ({ method: 'post', path: `/form/${s}`, tag: 'Forms', summary: FORM_SUMMARY[s], multipart: FormRequestSchema, json: FormRequestSchema, responses: { 200: { description: 'FormResult', schema: FormResultSchema }, 202: Accepted }, errors: [400, 403, 404, 413], implemented: step(`form_${s}`) })),
    { method: 'get', path: '/job/:jobId', tag: 'Jobs', summary: 'Poll a job', responses: { 200: { description: 'Job (a batch parent\'s result is a BatchResult)', schema: JobDoc } }, errors: [404, 410] },
    { method: 'delete', path: '/job/:jobId', tag: 'Jobs', summary: 'Cancel a pending or processing job', responses: { 200: { description: 'Canceled', schema: CancelResponseSchema } }, errors: [404, 409, 410] },
    { method: 'post', path: '/cancel/:jobId', tag: 'Jobs', summary: 'Deprecated: cancel a job', responses: { 200: { description: 'Canceled', schema: CancelResponseSchema } }, errors: [404, 409], deprecated: true },
    { method: 'get', path: '/results/:jobId', tag: 'Results', summary: 'Download a result (large results; ?token= URLs are single-use)', responses: { 200: { description: 'The result JSON', schema: AnyJson } }, errors: [404, 409, 410] },
    { method: 'get', path: '/results/:jobId/pdf', tag: 'Results', summary: 'PDF produced by a form workflow', responses: { 200: { description: 'PDF bytes', contentType: 'application/pdf' } }, errors: [404, 410] },
    { method: 'get', path: '/results/:jobId/images/:filename', tag: 'Results', summary: 'Figure image emitted by an extraction', responses: { 200: { description: 'PNG or JPEG bytes', contentType: 'image/png' } }, errors: [404, 410] },
    { method: 'post', path: '/webhook', tag: 'Webhooks', summary: 'Link to the webhook portal', responses: { 200: { description: 'Portal link', schema: z.object({ link: z.string(), expires_in: z.number().int() }) } } },
    { method: 'get', path: '/webhook-portal', tag: 'Webhooks', summary: 'The webhook portal page (HTML; open the link from POST /webhook)', auth: 'none', responses: { 200: { description: 'HTML page', contentType: 'text/html' } } },
    { method: 'get', path: '/webhook-portal/api/event-types', tag: 'Webhooks', summary: 'Portal: the event types an endpoint can subscribe to', auth: 'portalToken', responses: { 200: { description: 'Event types', schema: z.object({ event_types: z.array(z.string()) }) } }, errors: [] },
    { method: 'get', path: '/webhook-portal/api/endpoints', tag: 'Webhooks', summary: 'Portal: the organization\'s webhook endpoints', auth: 'portalToken', responses: { 200: { description: 'Endpoints', schema: z.object({ endpoints: z.array(EndpointView) }) } } },
    { method: 'post', path: '/webhook-portal/api/endpoints', tag: 'Webhooks', summary: 'Portal: add an endpoint (URL, description, event filter, custom headers); a signing secret is generated', auth: 'portalToken', json: NewEndpoint, responses: { 201: { description: 'Endpoint', schema: EndpointView } }, errors: [400] },
    { method: 'get', path: '/webhook-portal/api/endpoints/:id', tag: 'Webhooks', summary: 'Portal: one endpoint', auth: 'portalToken', responses: { 200: { description: 'Endpoint', schema: EndpointView } }, errors: [404] },
    { method: 'patch', path: '/webhook-portal/api/endpoints/:id', tag: 'Webhooks', summary: 'Portal: change an endpoint (url, description, event_types, headers, disabled)', auth: 'portalToken', json: PatchEndpoint, responses: { 200: { description: 'Endpoint', schema: EndpointView } }, errors: [400, 404] },
    { method: 'delete', path: '/webhook-portal/api/endpoints/:id', tag: 'Webhooks', summary: 'Portal: delete an endpoint', auth: 'portalToken', responses: { 200: { description: 'Deleted', schema: z.object({ deleted: z.string() }) } }, errors: [404] },
    { method: 'post', path: '/webhook-portal/api/endpoints/:id/test', tag: 'Webhooks', summary: 'Portal: queue a test event (webhook.test) to the endpoint', auth: 'portalToken', responses: { 202: { description: 'Queued delivery', schema: z.object({ delivery_id: z.string(), msg_id: z.string(), status: z.string() }) } }, errors: [404] },
    { method: 'get', path: '/webhook-portal/api/endpoints/:id/deliveries', tag: 'Webhooks', summary: 'Portal: the endpoint\'s delivery log with every attempt', auth: 'portalToken', responses: { 200: { description: 'Deliveries', schema: z.object({ deliveries: z.array(DeliveryView) }) } }, errors: [404] },
    { method: 'get', path: '/usage', tag: 'Usage', summary: 'Billing-period status, totals and a day/week/month timeline', query: UsageQuerySchema, responses: { 200: { description: 'Usage', schema: UsageSchema } }, errors: [400] },
    { method: 'post', path: '/convert', tag: 'Legacy', summary: 'Deprecated: upload a file and receive a hosted URL', multipart: AnyJson, responses: { 200: { description: 'Hosted URL', schema: AnyJson } }, deprecated: true },
    { method: 'get', path: '/files/:fileId', tag: 'Legacy', summary: 'A document hosted by POST /convert (its ?token= URL, or the organization\'s key)', responses: { 200: { description: 'The document bytes', contentType: 'application/octet-stream' } }, errors: [404, 410] },
    { method: 'get', path: '/healthz', tag: 'Operations', summary: 'Liveness', responses: { 200: { description: 'ok' } } },
    { method: 'get', path: '/readyz', tag: 'Operations', summary: 'Readiness: metadata store, queue and blob store reachable; 503 from the start of a graceful stop', responses: { 200: { description: 'ready' } }, errors: [503] },
    { method: 'get', path: '/metrics', tag: 'Operations', summary: 'Prometheus metrics', responses: { 200: { description: 'text exposition', contentType: 'text/plain' } } },
  ];
}
