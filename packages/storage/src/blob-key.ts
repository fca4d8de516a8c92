import { QuireError } from '@quire/core';

/**
 * Blob keys are '/'-separated relative paths. Both adapters enforce the same rules so a key that
 * works in embedded mode works on S3 and vice versa; for the filesystem adapter they are also what
 * keeps a key inside the root directory (no '..', no absolute paths, no backslashes, no NUL).
 */
const MAX_KEY_LENGTH = 1024;

function invalid(what: string, key: string, reason: string): QuireError {
  return new QuireError('STORAGE_001', `Invalid blob ${what}: ${reason}`, { key: key.slice(0, 200) });
}

function checkCommon(what: string, key: string): void {
  if (typeof key !== 'string' || key.length === 0) throw invalid(what, String(key), 'empty');
  if (key.length > MAX_KEY_LENGTH) throw invalid(what, key, `longer than ${MAX_KEY_LENGTH} characters`);
  if (key.includes('\0')) throw invalid(what, key, 'contains NUL');
  if (key.includes('\\')) throw invalid(what, key, 'contains a backslash');
  if (key.startsWith('/') || /^[A-Za-z]:/.test(key)) throw invalid(what, key, 'absolute paths are not allowed');
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(key)) throw invalid(what, key, 'contains control characters');
}

function checkSegments(what: string, key: string, segments: string[]): void {
  for (const s of segments) {
    if (s === '') throw invalid(what, key, 'empty path segment');
    if (s === '.' || s === '..') throw invalid(what, key, `'${s}' segments are not allowed`);
  }
}

/** Throws STORAGE_001 unless `key` is a safe object key. */
export function assertValidKey(key: string): void {
  checkCommon('key', key);
  checkSegments('key', key, key.split('/'));
}

/**
 * A prefix may end in '/' or in the middle of a segment ('org1/job-' matches 'org1/job-7/a'), but
 * must be non-empty: deleting "everything" is never what a caller means.
 */
export function assertValidPrefix(prefix: string): void {
  checkCommon('prefix', prefix);
  const segments = prefix.split('/');
  const last = segments.pop() as string;
  checkSegments('prefix', prefix, segments);
  if (last === '.' || last === '..') throw invalid('prefix', prefix, `'${last}' segments are not allowed`);
}
