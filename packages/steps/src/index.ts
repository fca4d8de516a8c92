import type { JobHandler } from '@quire/runtime';
import { extractHandler } from './extract-handler.js';
import { tablesHandler } from './tables-handler.js';

export { extractHandler, tablesHandler };
export { loadSavedExtraction, type SavedExtraction } from './saved-extraction.js';

/** Job kind → handler: what the workers of this build can run. The gateway answers 501 for the rest. */
export const JOB_HANDLERS: Record<string, JobHandler> = {
  extract: extractHandler,
  tables: tablesHandler,
};
export { runWorkerService } from './worker-process.js';
export { createStepServices, type StepServices } from './step-services.js';
