export * from './fields.js';
export * from './common.js';
export * from './extract.js';
export * from './openapi.js';
export { ERROR_CODES, RETRYABLE_CODES, QuireError, type ErrorCode } from '@quire/core';
export * from './forms.js';
export * from './tables.js';
export * from './classify-split.js';
export * from './schema.js';
