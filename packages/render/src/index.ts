export * from './output-types.js';
export { renderExtraction } from './render-extraction.js';
export { renderTableHtml, renderTableMarkdown, cellPolygon, sliceTable } from './table-render.js';
export { buildChunks, DEFAULT_CHUNK_SIZE } from './chunks.js';
export { isFurniture } from './blocks.js';
