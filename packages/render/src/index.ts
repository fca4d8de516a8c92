export * from './output-types.js';
export { renderExtraction, renderPageResults } from './render-extraction.js';
export { isFurniture } from './blocks.js';
