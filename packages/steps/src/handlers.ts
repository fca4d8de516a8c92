import type { JobKind } from '@quire/queue';
import type { CheckedJobHandler } from '@quire/jobs';
import { extractHandler } from './extract-handler.js';
import { formClearHandler, formDetectHandler, formFillHandler } from './form-handlers.js';
import { tablesHandler } from './tables-handler.js';
import { classifyHandler } from './classify-handler.js';
import { splitHandler } from './split-handler.js';
import { schemaHandler } from './schema-handler.js';
import { chartsHandler } from './charts-handler.js';

/** Job kind → its handler: every kind of the catalog, each with the handler defined for it. */
export const JOB_HANDLERS: { readonly [K in JobKind]: CheckedJobHandler<K> } = {
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
