/**
 * The SQL seam under the metadata store. Postgres (pg.Pool) and PGlite speak the same dialect, so
 * one set of migrations and one query layer serve both; only this small port has two adapters.
 */
export interface SqlResult<T> {
  rows: T[];
  rowCount: number;
}

export interface SqlExecutor {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<SqlResult<T>>;
}

export interface SqlClient extends SqlExecutor {
  readonly kind: 'postgres' | 'pglite';
  /** Runs `fn` in one transaction (BEGIN/COMMIT, ROLLBACK on throw). */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Runs a multi-statement script (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}
