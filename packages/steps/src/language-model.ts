import { classifyBuiltin } from '@quire/classify';
import { createLanguageModel, type BuiltinEngines, type LanguageModel } from '@quire/models';
import type { JobContext } from '@quire/runtime';
import { extractSchemaBuiltin } from '@quire/schema';
import { splitBuiltin } from '@quire/split';

/** The offline engines of this build, for the built-in LanguageModel. */
export const BUILTIN_ENGINES: BuiltinEngines = { extractSchema: extractSchemaBuiltin, classify: classifyBuiltin, split: splitBuiltin };

const fallback = new WeakMap<object, LanguageModel>();

/** The process's model (step services), else one made from the job's config (QUIRE_LLM_*); its calls stop with the job. */
export function languageModelFor(ctx: JobContext): LanguageModel {
  let lm = ctx.services.languageModel as LanguageModel | undefined ?? fallback.get(ctx.config);
  if (!lm) fallback.set(ctx.config, (lm = createLanguageModel(ctx.config.llm, BUILTIN_ENGINES)));
  return lm.withSignal?.(ctx.signal) ?? lm;
}
