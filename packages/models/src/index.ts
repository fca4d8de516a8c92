export * from './language-model.js';
export * from './text-match.js';
export { mapFormInstructionsBuiltin } from './builtin/form-instructions.js';
