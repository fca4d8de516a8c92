import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PgliteSqlClient } from './pglite-sql-client.js';
import type { SqlClient } from './sql-client.js';

/*
 * Consistent copies of the embedded database. PGlite's dumpDataDir runs between two statements (the
 * client's one promise chain), so a copy never holds half a transaction; it is written beside the data
 * under a temporary name and renamed into place, so a copy that exists is whole. A data directory left
 * unopenable (an abrupt end at a bad moment) is restored from one with `quire restore-backup FILE`.
 */

/** Backups live here, under the data directory: `pglite-<UTC time>.tar.gz`. */
export const BACKUP_DIR = 'backups';
const BACKUP_RE = /^pglite-\d{8}T\d{6}(\d{3})?Z\.tar\.gz$/;

export interface BackupFile {
  file: string;
  bytes: number;
}

/** The backups of a data directory, newest first. */
export function listBackups(dataDir: string): string[] {
  const dir = path.join(dataDir, BACKUP_DIR);
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((f) => BACKUP_RE.test(f)).sort().reverse().map((f) => path.join(dir, f));
}

/**
 * Writes a copy of the embedded database into `<dataDir>/backups` and keeps the newest `keep`. Refuses
 * a store that is not PGlite (the fleet's Postgres has its own backups).
 */
export async function writeBackup(sql: SqlClient, dataDir: string, keep: number, now = new Date()): Promise<BackupFile> {
  if (!(sql instanceof PgliteSqlClient)) throw new Error('backups are for the embedded database (PGlite); back up Postgres with its own tools');
  const dir = path.join(dataDir, BACKUP_DIR);
  fs.mkdirSync(dir, { recursive: true });
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.(\d{3})Z$/, '$1Z');
  const file = path.join(dir, `pglite-${stamp}.tar.gz`);
  const bytes = Buffer.from(await (await sql.dumpTemplate()).arrayBuffer());
  const partial = `${file}.partial`;
  fs.writeFileSync(partial, bytes);
  fs.renameSync(partial, file);
  for (const old of listBackups(dataDir).slice(Math.max(1, keep))) fs.rmSync(old, { force: true });
  return { file, bytes: bytes.length };
}

/**
 * Replaces the PGlite directory with the contents of a backup, keeping the old directory beside it
 * (`pglite.replaced-<time>`). The caller holds the data directory's lock (no server running). The
 * restored copy is opened once to check it reads.
 */
export async function restoreBackup(backupFile: string, pgliteDir: string, now = new Date()): Promise<{ replacedDir?: string }> {
  const blob = new Blob([fs.readFileSync(backupFile)]);
  const fresh = `${pgliteDir}.restoring`;
  fs.rmSync(fresh, { recursive: true, force: true });
  fs.mkdirSync(fresh, { recursive: true });
  const db = await PGlite.create({ dataDir: fresh, loadDataDir: blob });
  try {
    await db.query('select 1');
  } finally {
    await db.close();
  }
  let replacedDir: string | undefined;
  if (fs.existsSync(pgliteDir)) {
    replacedDir = `${pgliteDir}.replaced-${now.toISOString().replace(/[-:.]/g, '')}`;
    fs.renameSync(pgliteDir, replacedDir);
  }
  fs.renameSync(fresh, pgliteDir);
  return { replacedDir };
}
