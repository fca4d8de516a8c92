import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { SqlClient } from './sql-client.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const LOCK_ID = 727274;

/**
 * Applies migrations/NNN_*.sql in order, each once, inside a transaction-scoped advisory lock on
 * Postgres so that several fleet processes starting together do not race.
 */
export async function migrate(db: SqlClient): Promise<number[]> {
  const files = (await fs.readdir(MIGRATIONS_DIR)).filter((f) => /^\d+_.*\.sql$/.test(f)).sort();
  // Under the same lock: two CREATE TABLE IF NOT EXISTS racing on a fresh database can both try to
  // create the table's row type, and one fails (duplicate key in pg_type) — every fleet process
  // starting at once against a new database (docker compose up) hit that now and then.
  await db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${LOCK_ID})`);
    await tx.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  });
  const applied: number[] = [];
  for (const file of files) {
    const version = Number(file.split('_')[0]);
    const sql = await fs.readFile(MIGRATIONS_DIR + file, 'utf8');
    const did = await db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(${LOCK_ID})`);
      const { rows } = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [version]);
      if (rows.length) return false;
      for (const stmt of splitStatements(sql)) await tx.query(stmt);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
      return true;
    });
    if (did) applied.push(version);
  }
  return applied;
}

/** Splits a migration on semicolons at line ends (our migrations keep statements that simple). */
function splitStatements(sql: string): string[] {
  return sql
    .split('\n')
    .filter((l) => !l.trim().startsWith('--'))
    .join('\n')
    .split(/;\s*$/m)
    .map((s) => s.trim())
    .filter(Boolean);
}
