// The spec's whole error-code table, in one place. Domain code throws QuireError with a code;
// only the gateway's error middleware turns a code into an HTTP status.

export const ERROR_CODES = {
  AUTH_001: { status: 401, message: 'API key required' },
  AUTH_002: { status: 401, message: 'Invalid API key' },
  AUTH_003: { status: 401, message: 'API key expired' },
  AUTH_004: { status: 403, message: 'Insufficient permissions' },
  AUTH_005: { status: 401, message: 'Organization not found' },
  AUTH_006: { status: 403, message: 'Access restricted to whitelisted domains' },
  REQ_001: { status: 400, message: 'No file or URL provided' },
  REQ_002: { status: 400, message: 'Invalid request body' },
  REQ_003: { status: 400, message: 'Invalid parameter value' },
  REQ_004: { status: 400, message: 'Missing required parameter' },
  REQ_005: { status: 400, message: 'Invalid chunk size (valid 100 to 10000)' },
  REQ_006: { status: 400, message: 'Invalid page range (forms like 1-5 or 1,3,5)' },
  FILE_001: { status: 400, message: 'Invalid file type' },
  FILE_002: { status: 413, message: 'File too large (direct upload over 100 MB)' },
  FILE_TOO_LARGE_USE_URL: { status: 413, message: 'Direct upload over the limit; resubmit through file_url' },
  FILE_003: { status: 400, message: 'File corrupted' },
  FILE_004: { status: 400, message: 'Empty file' },
  FILE_005: { status: 400, message: 'Download from URL failed' },
  FILE_006: { status: 408, message: 'Timeout downloading file' },
  FILE_007: { status: 400, message: 'Invalid file URL' },
  SCHEMA_001: { status: 400, message: 'Invalid schema format' },
  SCHEMA_002: { status: 400, message: 'Schema processing failed' },
  SCHEMA_003: { status: 400, message: 'Schema too complex (nesting beyond 5 levels)' },
  SCHEMA_004: { status: 400, message: 'Unsupported schema type' },
  SCHEMA_005: { status: 400, message: 'Schema validation timeout' },
  BILLING_001: { status: 403, message: 'Trial expired' },
  BILLING_002: { status: 403, message: 'Page limit exceeded' },
  BILLING_003: { status: 402, message: 'Payment required' },
  BILLING_004: { status: 403, message: 'Plan limit reached' },
  BILLING_005: { status: 402, message: 'Billing status unknown' },
  BILLING_006: { status: 403, message: 'Account suspended' },
  BILLING_007: { status: 402, message: 'Payment failed' },
  BILLING_008: { status: 402, message: 'Payment requires authentication' },
  BILLING_009: { status: 403, message: 'Subscription canceled' },
  BILLING_010: { status: 402, message: 'Subscription past due' },
  BILLING_011: { status: 403, message: 'No active subscription' },
  BILLING_012: { status: 402, message: 'Free tier limit exceeded' },
  BILLING_013: { status: 402, message: 'Storage settings restricted on free tier' },
  PROC_001: { status: 500, message: 'Document processing failed' },
  PROC_002: { status: 408, message: 'Processing timeout' },
  PROC_003: { status: 500, message: 'Service temporarily unavailable' },
  PROC_004: { status: 503, message: 'Rate limit exceeded' },
  PROC_005: { status: 500, message: 'Partial extraction failure' },
  JOB_001: { status: 404, message: 'Job not found' },
  JOB_002: { status: 409, message: 'Job already cancelled' },
  JOB_003: { status: 410, message: 'Job expired' },
  JOB_004: { status: 409, message: 'Job still processing' },
  JOB_005: { status: 500, message: 'Job failed' },
  STORAGE_001: { status: 500, message: 'Failed to store results' },
  STORAGE_002: { status: 404, message: 'Results not found' },
  STORAGE_003: { status: 500, message: 'Storage service unavailable' },
  STORAGE_004: { status: 507, message: 'Storage limit exceeded' },
  STORAGE_005: { status: 404, message: 'Extraction expired' },
  GENERAL_001: { status: 500, message: 'Internal server error' },
  GENERAL_002: { status: 503, message: 'Service unavailable' },
  GENERAL_003: { status: 504, message: 'Gateway timeout' },
  GENERAL_004: { status: 429, message: 'Too many requests' },
  GENERAL_005: { status: 501, message: 'Feature not implemented' },
  // Not in the spec's table, which has no code for a path or method the API does not have (see docs/decisions.md).
  ROUTE_NOT_FOUND: { status: 404, message: 'No such endpoint' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed on this endpoint' },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Codes the spec says may be retried with exponential backoff and jitter. */
const RETRYABLE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'FILE_005', 'FILE_006', 'PROC_001', 'PROC_002', 'PROC_003', 'PROC_004',
  'STORAGE_003', 'GENERAL_001', 'GENERAL_002', 'GENERAL_003', 'GENERAL_004',
]);

export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CODES, code);

/** The one error type. `message` is safe to show to the caller; `details` must be JSON. */
export class QuireError extends Error {
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;
  constructor(code: ErrorCode, message?: string, details?: Record<string, unknown>) {
    super(message ?? ERROR_CODES[code].message);
    this.name = 'QuireError';
    this.code = code;
    this.details = details;
  }
  get status(): number {
    return ERROR_CODES[this.code].status;
  }
  get retryable(): boolean {
    return RETRYABLE_CODES.has(this.code);
  }
  toBody(): { error: { code: ErrorCode; message: string; details?: Record<string, unknown> } } {
    return { error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) } };
  }
}

export const isQuireError = (e: unknown): e is QuireError => e instanceof QuireError ||
  (typeof e === 'object' && e !== null && (e as { name?: string }).name === 'QuireError' && isErrorCode((e as { code?: string }).code));
