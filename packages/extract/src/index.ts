export * from './inspect.js';
export * from './pipeline.js';
