export * from './language-model.js';
export * from './text-match.js';
