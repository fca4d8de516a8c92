import type { LanguageModel } from '@quire/models';
import type { JobContext } from '@quire/runtime';

/** The process's LanguageModel (built-in or OpenAI-compatible), set up once in createStepServices. */
export function languageModelOf(ctx: JobContext): LanguageModel {
  const lm = ctx.services.languageModel as LanguageModel | undefined;
  if (!lm) throw new Error('no languageModel in the step services');
  return lm;
}
