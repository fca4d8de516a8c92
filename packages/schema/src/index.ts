export { validateSchemaInput, schemaDepth, MAX_SCHEMA_DEPTH } from './validate-schema.js';
export { extractSchemaBuiltin } from './extract-schema.js';
export { findDates, inferDayFirst, type FoundDate, type DateContext } from '@quire/models';
export { findAmounts, findCurrency, parseNumberToken, type FoundAmount } from './values/amounts.js';
export { findEmails, findPhones, findUris, parseBoolean } from './values/patterns.js';
