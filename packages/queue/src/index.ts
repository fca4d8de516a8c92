export * from './job-queue.js';
export * from './job-catalog.js';
export type { NormalizedExtractOptions, ResolvedSchemaConfig } from './job-payloads.js';
export * from './in-process-job-queue.js';
export * from './bullmq-job-queue.js';
export * from './job-event-bus.js';
export * from './in-process-job-event-bus.js';
export * from './redis-job-event-bus.js';
