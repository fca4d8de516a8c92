export * from './job-queue.js';
export * from './job-catalog.js';
export * from './in-process-job-queue.js';
export * from './bullmq-job-queue.js';
