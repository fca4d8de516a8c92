export { DEFAULT_MAX_SCHEMA_PROPERTIES, type SchemaLimits, countSchemaProperties, validateSchemaInput } from './validate-schema.js';
export { extractSchemaBuiltin } from './extract-schema.js';
export { findDates, inferDayFirst, type FoundDate, type DateContext } from '@quire/models';
export type { FoundAmount } from './values/amounts.js';
