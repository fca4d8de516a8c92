import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { SqlClient, SqlExecutor, SqlResult } from './sql-client.js';

/**
 * Embedded metadata: PGlite (Postgres compiled to WASM) in the data directory. It has a single
 * connection, so every statement goes through one promise chain and transactions hold it.
 */
export class PgliteSqlClient implements SqlClient {
  readonly kind = 'pglite' as const;
  private chain: Promise<unknown> = Promise.resolve();
  private constructor(private readonly db: PGlite) {}

  /** `dataDir` undefined = in memory. `template` = a dumpDataDir() tarball to start from (fast test start). */
  static async open(dataDir?: string, template?: Blob): Promise<PgliteSqlClient> {
    // numeric and int8 as JS numbers, as the pg adapter returns them.
    const parsers = { 1700: (v: string) => Number(v), 20: (v: string) => Number(v) };
    // PGlite creates only the last level of its directory: a data directory that does not exist yet
    // (a fresh checkout's ./data) would fail with ENOENT on ./data/pglite.
    if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
    // Postgres's default 128 MB of shared buffers is resident memory in the wasm heap; embedded metadata
    // (jobs, keys, ledger; large results live in the blob store) is a few MB, and 16 MB keeps a reopened
    // store at ~190 MB of RSS instead of ~305 MB (measured on PGlite 0.5.16).
    const db = await PGlite.create({ parsers, postgresqlconf: ['shared_buffers=16MB'], ...(dataDir ? { dataDir } : {}), ...(template ? { loadDataDir: template } : {}) });
    return new PgliteSqlClient(db);
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<SqlResult<T>> {
    return this.serial(async () => toResult<T>(await this.db.query<T>(sql, params as unknown[])));
  }

  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.serial(() => this.db.transaction(async (tx) => fn({
      query: async <R>(sql: string, params?: unknown[]) => toResult<R>(await tx.query<R>(sql, params as unknown[])),
    })));
  }

  exec(sql: string): Promise<void> {
    return this.serial(async () => { await this.db.exec(sql); });
  }

  async dumpTemplate(): Promise<Blob> {
    return this.serial(async () => (await this.db.dumpDataDir('gzip')) as Blob);
  }

  close(): Promise<void> {
    return this.serial(() => this.db.close());
  }
}

function toResult<T>(r: { rows: T[]; affectedRows?: number }): SqlResult<T> {
  const rows = r.rows.map(normalizeRow) as T[];
  return { rows, rowCount: r.affectedRows ?? rows.length };
}

// PGlite returns numeric as string and int8 as bigint-ish numbers; match the pg adapter (numbers).
function normalizeRow<T>(row: T): T {
  if (!row || typeof row !== 'object') return row;
  const out = row as Record<string, unknown>;
  for (const [k, v] of Object.entries(out)) {
    if (typeof v === 'bigint') out[k] = Number(v);
  }
  return row;
}
