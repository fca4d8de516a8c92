import type { LanguageModel } from '../language-model.js';
import { BuiltinLanguageModel, type BuiltinEngines } from './builtin-language-model.js';
import { OpenAiCompatibleModel } from './openai-compatible-model.js';

/** The runtime's `config.llm` (QUIRE_LLM_*), restated here so models does not depend on runtime. */
export interface LanguageModelConfig {
  baseUrl: string;
  apiKey?: string;
  model: string;
  strongModel?: string;
  visionModel?: string;
  timeoutMs: number;
}

/** The OpenAI-compatible adapter when an endpoint is configured, else the built-in engine. */
export function createLanguageModel(config: LanguageModelConfig | undefined, engines: BuiltinEngines = {}, opts: { fetch?: typeof fetch } = {}): LanguageModel {
  const builtin = new BuiltinLanguageModel(engines);
  if (!config) return builtin;
  return new OpenAiCompatibleModel({ ...config, fetch: opts.fetch }, builtin);
}
