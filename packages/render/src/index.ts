export * from './output-types.js';
export { renderExtraction, renderPageMarkdown } from './render-extraction.js';
export { isFurniture } from './blocks.js';
