export * from './types.js';
export * from './signing.js';
export * from './schedule.js';
export * from './ports.js';
export * from './dispatcher.js';
