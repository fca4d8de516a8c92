export * from './safe-zip.js';
export * from './zip-by-range.js';
export * from './xml.js';
export * from './tree.js';
export * from './number-format.js';
export { isoToSerial, type DateOptions } from './number-format-date.js';
export * from './chart.js';
