import { ERROR_CODES, isErrorCode } from '@quire/core';

/**
 * The one error a client sees. `code` is the spec's error code (AUTH_002, PROC_004, …) when the service sent one;
 * transport failures use the spec's nearest code (GENERAL_002 unreachable, GENERAL_003 timed out) with status 0.
 */

/** The spec's list: "Codes that may be retried with exponential backoff and jitter". */
export const RETRYABLE_CODES: ReadonlySet<string> = new Set([
  'FILE_005', 'FILE_006', 'PROC_001', 'PROC_002', 'PROC_003', 'PROC_004',
  'STORAGE_003', 'GENERAL_001', 'GENERAL_002', 'GENERAL_003', 'GENERAL_004',
]);

export class QuireError extends Error {
  readonly code: string;
  /** HTTP status of the response; 0 when no response came (network error). */
  readonly status: number;
  readonly details?: Record<string, unknown>;
  /** Set when the error belongs to a job (a failed job, or a sync call that timed out and left one). */
  readonly jobId?: string;
  constructor(code: string, message: string, status: number, details?: Record<string, unknown>, jobId?: string) {
    super(message);
    this.name = 'QuireError';
    this.code = code;
    this.status = status;
    this.details = details;
    this.jobId = jobId ?? (typeof details?.job_id === 'string' ? details.job_id : undefined);
  }
  get retryable(): boolean {
    return RETRYABLE_CODES.has(this.code);
  }
}

/** The status the spec gives codes that can come without a body (gateway in front of Quire, a proxy). */
const CODE_FOR_STATUS: Record<number, string> = {
  400: 'REQ_002', 401: 'AUTH_001', 403: 'AUTH_004', 404: 'STORAGE_002', 408: 'PROC_002', 409: 'JOB_004', 410: 'JOB_003', 413: 'FILE_002',
  429: 'GENERAL_004', 500: 'GENERAL_001', 501: 'GENERAL_005', 502: 'GENERAL_002', 503: 'GENERAL_002', 504: 'GENERAL_003', 507: 'STORAGE_004',
};

/** Turns a non-2xx response into a QuireError, reading the spec's error body when there is one. */
export async function errorFromResponse(res: Response): Promise<QuireError> {
  const text = await res.text().catch(() => '');
  let body: unknown;
  try { body = JSON.parse(text); } catch { body = undefined; }
  const err = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  if (err && typeof err.code === 'string') {
    return new QuireError(err.code, typeof err.message === 'string' ? err.message : err.code, res.status,
      err.details && typeof err.details === 'object' ? err.details as Record<string, unknown> : undefined);
  }
  const code = CODE_FOR_STATUS[res.status] ?? (res.status >= 500 ? 'GENERAL_001' : 'REQ_002');
  return new QuireError(code, `HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`, res.status);
}

/** A fetch that threw (connection refused, reset, DNS) — never an abort by the caller. */
export function networkError(e: unknown): QuireError {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code ?? cause?.message ?? (e as Error).message;
  return new QuireError('GENERAL_002', `Service unreachable: ${why}`, 0);
}

export const isAbortError = (e: unknown): boolean =>
  e instanceof Error && (e.name === 'AbortError' || e.name === 'TimeoutError');

/** The spec's HTTP status of a code (a failed job's error_code carries no response of its own). */
export const statusOf = (code: string): number => (isErrorCode(code) ? ERROR_CODES[code].status : 500);
