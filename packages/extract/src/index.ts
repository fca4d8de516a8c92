export * from './inspect.js';
export * from './pipeline.js';
export * from './figure-images.js';
export * from './figure-descriptions.js';
