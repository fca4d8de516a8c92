export * from './safe-zip.js';
export * from './xml.js';
