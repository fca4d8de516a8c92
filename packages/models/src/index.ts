export * from './language-model.js';
export * from './text-match.js';
export * from './bm25.js';
export * from './ajv.js';
export { mapFormInstructionsBuiltin } from './builtin/form-instructions.js';
export * from './conform-answer.js';
export * from './adapters/builtin-language-model.js';
export * from './adapters/openai-compatible-model.js';
export * from './adapters/create-language-model.js';
