import type { JobHandler } from '@quire/runtime';
import { extractHandler } from './extract-handler.js';
import { schemaHandler } from './schema-handler.js';

export { extractHandler, schemaHandler };
export { BUILTIN_ENGINES, languageModelFor } from './language-model.js';
export { loadSavedExtraction, type SavedExtraction } from './saved-extraction.js';

/** Job kind → handler: what the workers of this build can run. The gateway answers 501 for the rest. */
export const JOB_HANDLERS: Record<string, JobHandler> = {
  extract: extractHandler,
  schema: schemaHandler,
};
export { runWorkerService } from './worker-process.js';
export { createStepServices, type StepServices } from './step-services.js';
