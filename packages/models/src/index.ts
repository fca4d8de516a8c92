export * from './language-model.js';
export * from './text-match.js';
export * from './bm25.js';
export * from './ajv.js';
export { mapFormInstructionsBuiltin } from './builtin/form-instructions.js';
export { BuiltinLanguageModel, type BuiltinEngines } from './adapters/builtin-language-model.js';
export { OpenAiCompatibleModel, parseJsonObject, type OpenAiSettings } from './adapters/openai-compatible-model.js';
export { createLanguageModel } from './adapters/create-language-model.js';
export { layoutTerms, layoutProfile, type LayoutProfile } from './layout-terms.js';
