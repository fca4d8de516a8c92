export * from './job-queue.js';
export * from './job-catalog.js';
