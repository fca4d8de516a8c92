export { validateSchemaInput } from './validate-schema.js';
export { extractSchemaBuiltin } from './extract-schema.js';
export { findDates, inferDayFirst, type FoundDate, type DateContext } from '@quire/models';
export type { FoundAmount } from './values/amounts.js';
