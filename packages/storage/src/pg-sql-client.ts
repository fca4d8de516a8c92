import pg from 'pg';
import { QuireError } from '@quire/core';
import type { SqlClient, SqlExecutor, SqlResult } from './sql-client.js';

// numeric → number (credits are small decimals), int8 → number (bigserial ids and counts).
pg.types.setTypeParser(1700, (v) => Number(v));
pg.types.setTypeParser(20, (v) => Number(v));

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
  constructor(connectionString: string, opts: { max?: number } = {}) {
    this.pool = new pg.Pool({ connectionString, max: opts.max ?? 10, connectionTimeoutMillis: 5000 });
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
