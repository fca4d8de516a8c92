export * from './errors.js';
export * from './geometry.js';
export * from './raw-page.js';
export * from './document.js';
export * from './ids.js';
export * from './page-range.js';
export * from './credits.js';
export * from './job-state.js';
