export * from './output-types.js';
export { renderExtraction } from './render-extraction.js';
export { isFurniture } from './blocks.js';
