export * from './build-tables.js';
export * from './cell-value.js';
export * from './from-chart.js';
export * from './merge.js';
export * from './structure.js';
export * from './table-view.js';
export * from './to-html.js';
export * from './to-json.js';
export { slotsOf, rowsOf } from './grid.js';
