import type { JobHandler } from '@quire/runtime';
import { extractHandler } from './extract-handler.js';
import { classifyHandler } from './classify-handler.js';
import { splitHandler } from './split-handler.js';

export { extractHandler, classifyHandler, splitHandler };
export { loadSavedExtraction, type SavedExtraction } from './saved-extraction.js';

/** Job kind → handler: what the workers of this build can run. The gateway answers 501 for the rest. */
export const JOB_HANDLERS: Record<string, JobHandler> = {
  extract: extractHandler,
  classify: classifyHandler,
  split: splitHandler,
};
export { runWorkerService } from './worker-process.js';
export { createStepServices, type StepServices } from './step-services.js';
