import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { SqlClient, SqlExecutor, SqlResult } from './sql-client.js';

/**
 * Postgres's default 128 MB of shared buffers is resident memory in the wasm heap; embedded metadata
 * (jobs, keys, ledger; large results live in the blob store) is a few MB, and 16 MB keeps a reopened
 * store at ~190 MB of RSS instead of ~305 MB (measured on PGlite 0.5.16).
 */
const POSTGRES_CONF = ['shared_buffers=16MB'];

/**
 * Embedded metadata: PGlite (Postgres compiled to WASM) in the data directory. It has a single
 * connection, so every statement goes through one promise chain and transactions hold it.
 */
export class PgliteSqlClient implements SqlClient {
  readonly kind = 'pglite' as const;
  private chain: Promise<unknown> = Promise.resolve();
  private readonly held = new Set<number>();
  private constructor(private readonly db: PGlite) {}

  /** `dataDir` undefined = in memory. `template` = a dumpDataDir() tarball to start from (fast test start). */
  static async open(dataDir?: string, template?: Blob): Promise<PgliteSqlClient> {
    // numeric (a string by default) and int8 as JS numbers, as the pg adapter returns them.
    const parsers = { 1700: (v: string) => Number(v), 20: (v: string) => Number(v) };
    // PGlite creates only the last level of its directory: a data directory that does not exist yet
    // (a fresh checkout's ./data) would fail with ENOENT on ./data/pglite.
    if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
    if (dataDir && !template && !fs.existsSync(path.join(dataDir, 'PG_VERSION'))) await createDataDir(dataDir);
    const db = await PGlite.create({ parsers, postgresqlconf: POSTGRES_CONF, ...(dataDir ? { dataDir } : {}), ...(template ? { loadDataDir: template } : {}) });
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

  /**
   * One process owns a PGlite data directory (PGlite cannot share it), so the holders to exclude are
   * this client's own callers: the lock is a set of held keys in memory. Not an SQL advisory lock:
   * pg_try_advisory_xact_lock needs a transaction around `fn`, and a PGlite transaction holds its only
   * connection, which would stop every other query of the embedded server for the whole of `fn`.
   */
  async withTryLock<T>(key: number, fn: () => Promise<T>): Promise<{ acquired: true; value: T } | { acquired: false }> {
    if (this.held.has(key)) return { acquired: false };
    this.held.add(key);
    try {
      return { acquired: true, value: await fn() };
    } finally {
      this.held.delete(key);
    }
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

/**
 * Creates a new data directory (initdb) in a short-lived child process. initdb grows PGlite's wasm
 * memory to ~700 MB, and wasm memory never shrinks while its instance lives: created in this process's
 * own instance, a first start idled at ~780 MB of RSS (a reopened store holds ~200 MB). On a worker
 * thread that then ended, ~170 MB stayed with this process (the thread's malloc arenas); a process
 * gives it all back.
 */
async function createDataDir(dataDir: string): Promise<void> {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite'); // its CommonJS build
  const script = `
    const { PGlite } = require(process.argv[1]);
    PGlite.create({ dataDir: process.argv[2], postgresqlconf: JSON.parse(process.argv[3]) })
      .then((db) => db.close())
      .catch((e) => { console.error(e && e.stack || e); process.exit(1); });
  `;
  const child = spawn(process.execPath, ['-e', script, entry, dataDir, JSON.stringify(POSTGRES_CONF)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => { stderr = (stderr + d.toString('utf8')).slice(-4000); });
  const code = await new Promise<number | null>((resolve, reject) => { child.once('error', reject); child.once('exit', resolve); });
  if (code !== 0) throw new Error(`creating the embedded database in ${dataDir} failed (exit code ${code}): ${stderr.trim()}`);
}

function toResult<T>(r: { rows: T[]; affectedRows?: number }): SqlResult<T> {
  return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
}
