export { Quire, type QuireClientOptions, type CallOptions, type FormSource } from './client.js';
export { QuireError, RETRYABLE_CODES } from './errors.js';
export { EventsUnavailableError, type JobEvent, type JobEventsOptions, type JobPageElement, type JobPageResult } from './events.js';
export { TERMINAL, type JobProgress, type WaitOptions } from './wait-for-job.js';
export { backoffDelay, type BackoffOptions } from './backoff.js';
export { contentTypeFor, type FileInput } from './upload.js';
export { SDK_OPERATIONS } from '@quire/contracts';
export type * from './types.js';
