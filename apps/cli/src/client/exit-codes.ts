import { QuireError } from '@quire/sdk';

/** Exit codes of the client commands (`quire extract` …), for scripts. README lists them. */
export const EXIT = {
  OK: 0,
  /** Some documents failed (the others were written); or a single call failed with a service error. */
  SOME_FAILED: 1,
  /** Bad arguments or options, no inputs found. */
  USAGE: 2,
  /** No API key, an unreadable config file, or the service refused the key (AUTH_*). */
  AUTH_CONFIG: 3,
  /** The service could not be reached. */
  UNREACHABLE: 4,
  /** Stopped by Ctrl-C / SIGTERM (jobs in flight were canceled). */
  INTERRUPTED: 130,
} as const;

/** A problem with the command line or configuration, reported without a stack. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode: number) {
    super(message);
    this.name = 'CliError';
  }
}

/** Exit code for an error that ended the whole run (not one document among several). */
export function exitCodeFor(e: unknown): number {
  if (e instanceof CliError) return e.exitCode;
  if (e instanceof QuireError) {
    if (e.code.startsWith('AUTH_')) return EXIT.AUTH_CONFIG;
    if (e.status === 0) return EXIT.UNREACHABLE;
    return EXIT.SOME_FAILED;
  }
  return EXIT.SOME_FAILED;
}

export const describeError = (e: unknown): string =>
  e instanceof QuireError ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e);
