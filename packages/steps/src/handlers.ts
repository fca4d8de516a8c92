import type { JobHandler } from '@quire/runtime';
import { extractHandler } from './extract-handler.js';
import { formClearHandler, formDetectHandler, formFillHandler } from './form-handlers.js';
import { tablesHandler } from './tables-handler.js';
import { classifyHandler } from './classify-handler.js';
import { splitHandler } from './split-handler.js';
import { schemaHandler } from './schema-handler.js';
import { chartsHandler } from './charts-handler.js';

/** Job kind → handler: what the workers of this build can run. The gateway answers 501 for the rest. */
export const JOB_HANDLERS: Record<string, JobHandler> = {
  extract: extractHandler,
  form_detect: formDetectHandler,
  form_fill: formFillHandler,
  form_clear: formClearHandler,
  tables: tablesHandler,
  classify: classifyHandler,
  split: splitHandler,
  schema: schemaHandler,
  charts: chartsHandler,
};
