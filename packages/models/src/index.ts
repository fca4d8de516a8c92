export * from './language-model.js';
export * from './text-match.js';
export * from './bm25.js';
export * from './ajv.js';
export { mapFormInstructionsBuiltin } from './builtin/form-instructions.js';
export { createLanguageModel, BuiltinLanguageModel, OpenAiCompatibleModel, type BuiltinEngines, type LanguageModelConfig } from './create-language-model.js';
