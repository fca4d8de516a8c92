import pg from 'pg';
import { QuireError } from '@quire/core';
import type { SqlClient, SqlExecutor, SqlResult } from './sql-client.js';

const NUMERIC = 1700, INT8 = 20;
/**
 * numeric → number (credits are small decimals), int8 → number (bigserial ids and counts), for this
 * client's connections only: pg.types.setTypeParser would change every pg client in the process.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === NUMERIC || oid === INT8 ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

const unavailable = (e: unknown) => new QuireError('STORAGE_003', 'Metadata store unavailable', { reason: (e as Error).message });

function wrap(run: (sql: string, params?: unknown[]) => Promise<pg.QueryResult>): SqlExecutor {
  return {
    async query<T>(sql: string, params?: unknown[]): Promise<SqlResult<T>> {
      const r = await run(sql, params);
      return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
    },
  };
}

export class PgSqlClient implements SqlClient {
  readonly kind = 'postgres' as const;
  private readonly pool: pg.Pool;
  constructor(private readonly connectionString: string, opts: { max?: number } = {}) {
    this.pool = new pg.Pool({ connectionString, max: opts.max ?? 10, connectionTimeoutMillis: 5000, types });
    this.pool.on('error', () => { /* idle client errors surface on the next query */ });
  }
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<SqlResult<T>> {
    return wrap((s, p) => this.pool.query(s, p).catch((e) => { throw isConnErr(e) ? unavailable(e) : e; })).query<T>(sql, params);
  }
  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await this.pool.connect().catch((e) => { throw unavailable(e); });
    try {
      await client.query('BEGIN');
      const out = await fn(wrap((s, p) => client.query(s, p)));
      await client.query('COMMIT');
      return out;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  }
  /**
   * The lock lives in a transaction on a connection of its own, opened for this call and outside the
   * pool: `fn`'s queries use the pool as usual and never wait behind the lock's connection, whatever
   * QUIRE_DATABASE_POOL_SIZE is (with a pooled lock connection, a pool of 1 would stall every round).
   * Transaction-scoped (pg_try_advisory_xact_lock), not session-scoped: COMMIT releases it, and so does
   * the connection ending (this process dying included). Behind PgBouncer in transaction pooling a
   * session lock could be taken on one server connection and its unlock sent to another, leaving the
   * lock held for good; a transaction keeps one server connection from BEGIN to COMMIT. The transaction
   * runs nothing but the lock, so it holds no snapshot while `fn` runs (READ COMMITTED) and does not
   * hold back vacuum.
   */
  async withTryLock<T>(key: number, fn: () => Promise<T>): Promise<{ acquired: true; value: T } | { acquired: false }> {
    const client = new pg.Client({ connectionString: this.connectionString, connectionTimeoutMillis: 5000 });
    // A connection lost while `fn` runs emits 'error' on the client; unhandled, that would end the process.
    // The lock went with the connection; `fn` goes on (its own queries use the pool) and COMMIT fails below.
    let lost: Error | undefined;
    client.on('error', (e) => { lost = e; });
    try {
      await client.connect();
    } catch (e) {
      throw unavailable(e);
    }
    try {
      let locked: boolean;
      try {
        await client.query('BEGIN');
        locked = (await client.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [key])).rows[0]?.locked === true;
      } catch (e) {
        throw isConnErr(e) ? unavailable(e) : e;
      }
      if (!locked) return { acquired: false };
      return { acquired: true, value: await fn() };
    } finally {
      // COMMIT releases the lock; a failure here (the connection already gone) has released it too.
      if (!lost) await client.query('COMMIT').catch(() => undefined);
      await client.end().catch(() => undefined);
    }
  }
  async exec(sql: string): Promise<void> {
    await this.pool.query(sql);
  }
  async close(): Promise<void> {
    await this.pool.end();
  }
}

const isConnErr = (e: unknown) => {
  const code = (e as { code?: string }).code ?? '';
  return ['ECONNREFUSED', 'ENOTFOUND', 'ETIMEDOUT', 'ECONNRESET', '57P01', '57P03'].includes(code);
};
