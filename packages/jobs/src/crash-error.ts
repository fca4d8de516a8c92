import { QuireError } from '@quire/core';

/** What a handler's non-Quire error becomes, and whether another attempt could end differently. */
export interface CrashVerdict {
  error: QuireError;
  retry: boolean;
}

const STACK_OVERFLOW_RE = /Maximum call stack size exceeded|too much recursion/i;
/** Programming errors: the same input meets the same line of code again, so another attempt fails the same way. */
const DETERMINISTIC_NAMES = new Set(['TypeError', 'ReferenceError', 'SyntaxError']);

/**
 * Classifies an error that is not a QuireError (a library or a bug threw it). A stack overflow is the
 * input's doing (nesting deeper than a recursive reader can follow: HTML, XML, a PDF's objects, a
 * schema): it is answered at once as FILE_003 (SCHEMA_002 for schema work, whose input is the
 * schema), a 400 like any other input it cannot read. TypeError and its kin are bugs met by this
 * input: GENERAL_001 without retries. Anything else (a thread that died, a lost connection) may pass
 * on another attempt: GENERAL_001, retried as the catalog allows.
 */
export function classifyCrash(e: unknown, kind: string): CrashVerdict {
  const name = e instanceof Error ? e.name : '';
  const message = e instanceof Error ? e.message : String(e);
  if (name === 'RangeError' && STACK_OVERFLOW_RE.test(message)) {
    const error = kind === 'schema' || kind === 'split'
      ? new QuireError('SCHEMA_002', 'Schema processing failed: the input nests too deeply to process', { reason: 'too_deep' })
      : new QuireError('FILE_003', 'The document could not be read: it nests too deeply to process', { reason: 'too_deep' });
    return { error, retry: false };
  }
  return {
    error: new QuireError('GENERAL_001', 'Processing failed unexpectedly'),
    retry: !DETERMINISTIC_NAMES.has(name),
  };
}
