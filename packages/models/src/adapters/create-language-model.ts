import type { LanguageModel } from '../language-model.js';
import { BuiltinLanguageModel, type BuiltinEngines } from './builtin-language-model.js';
import { OpenAiCompatibleModel, type OpenAiSettings } from './openai-compatible-model.js';

/** The OpenAI-compatible adapter when an endpoint is configured (QUIRE_LLM_BASE_URL), else the built-in engines. */
export function createLanguageModel(llm: OpenAiSettings | undefined, engines: BuiltinEngines = {}, fetchFn?: typeof fetch): LanguageModel {
  return llm ? new OpenAiCompatibleModel(llm, fetchFn) : new BuiltinLanguageModel(engines);
}
