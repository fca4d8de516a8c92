export * from './types.js';
export { detectForm } from './detect.js';
