export * from './embedded.js';
export * from './bootstrap.js';
