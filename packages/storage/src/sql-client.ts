/**
 * The SQL seam under the metadata store. Postgres (pg.Pool) and PGlite speak the same dialect, so
 * one set of migrations and one query layer serve both; only this small port has two adapters.
 * Both return numeric and int8 values (credits, bigserial ids, counts) as JS numbers, so the
 * repositories' row types say `number` and no caller converts.
 */
export interface SqlResult<T> {
  rows: T[];
  rowCount: number;
}

/**
 * Something statements run on: the client itself or a transaction it opened. Repository methods that
 * can join a caller's transaction take one as their last, optional parameter (`tx`); without it they
 * run on the client, in a transaction of their own when they write more than one row.
 */
export interface SqlExecutor {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<SqlResult<T>>;
}

export interface SqlClient extends SqlExecutor {
  readonly kind: 'postgres' | 'pglite';
  /** Runs `fn` in one transaction (BEGIN/COMMIT, ROLLBACK on throw). */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` while holding the advisory lock `key`, if no one else (any process on this database) holds
   * it; resolves `{ acquired: false }` at once, without running `fn`, when someone does. Never waits for
   * the lock: for periodic work that one replica of a fleet should do per round (the retention sweep),
   * where a replica that finds it taken simply skips the round. `fn`'s queries go through this client as
   * usual; the lock itself never holds one of its connections.
   */
  withTryLock<T>(key: number, fn: () => Promise<T>): Promise<{ acquired: true; value: T } | { acquired: false }>;
  /** Runs a multi-statement script (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}
