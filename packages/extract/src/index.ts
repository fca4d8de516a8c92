export * from './inspect.js';
