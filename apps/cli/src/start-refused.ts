/**
 * A start refused because what it needs is taken by someone else (the data directory, the port): the
 * operator's mistake, not a crash. `quire serve` and `quire admin` print the message alone and exit with
 * START_REFUSED_EXIT_CODE, so a supervisor or script can tell it from a configuration error (2) or a crash (1).
 */
export class StartRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartRefusedError';
  }
}

export const START_REFUSED_EXIT_CODE = 3;
