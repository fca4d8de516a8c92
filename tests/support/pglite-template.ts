import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PgliteSqlClient, migrate } from '@quire/storage';

/*
 * A fresh PGlite runs initdb: ~13 s of CPU on a loaded 2-core machine, paid by every test file that wanted
 * an empty migrated store (jest gives each file its own module registry, so a module-level memo is per file).
 * Opening from a dumpDataDir() tarball of a migrated store takes ~3 s. The tarball is deterministic for a
 * given storage package and PGlite build, so it is written once to the temp folder under a key made of
 * both, and every test file of the run (and later runs) starts from it. A changed migration, storage source
 * or PGlite version gives a new key: a stale template is never served. Creating a store without a template
 * (initdb, then every migration) stays covered by the storage package's own tests and the first-start e2e.
 */

const STORAGE_SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../packages/storage/src');

function templateKey(): string {
  const h = createHash('sha256');
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (!e.name.endsWith('.test.ts')) h.update(path.relative(STORAGE_SRC, p)).update('\0').update(fs.readFileSync(p)).update('\0');
    }
  };
  walk(STORAGE_SRC);
  // pnpm's store path names the package's version
  h.update(fs.realpathSync(createRequire(import.meta.url).resolve('@electric-sql/pglite')));
  return h.digest('hex').slice(0, 24);
}

let memo: Promise<Blob> | undefined;

/** The tarball of an empty, fully migrated PGlite store (for PgliteSqlClient.open's or openMetadataStore's `template`). */
export function migratedPgliteTemplate(): Promise<Blob> {
  memo ??= (async () => {
    const file = path.join(os.tmpdir(), `quire-pglite-template-${templateKey()}.tar.gz`);
    if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
    const db = await PgliteSqlClient.open();
    await migrate(db);
    const blob = await db.dumpTemplate();
    await db.close();
    // written whole under a name of its own, then renamed: a reader never sees half a file (two jest
    // workers that both missed it write the same bytes)
    const partial = `${file}.${process.pid}.${Date.now()}.partial`;
    fs.writeFileSync(partial, Buffer.from(await blob.arrayBuffer()));
    fs.renameSync(partial, file);
    return blob;
  })();
  return memo;
}

/**
 * Makes `dataDir` hold an embedded database as a first start leaves it (created, migrated, no organization
 * yet), from the template: for tests whose subject is a later start (restarts, locks, kill -9, backups),
 * not the creation, which runs initdb in a child process (~13 s of CPU). The first start itself stays
 * covered where it is the subject (first-start and job-logs e2e).
 */
export async function seedEmbeddedDataDir(dataDir: string): Promise<void> {
  const db = await PgliteSqlClient.open(path.join(dataDir, 'pglite'), await migratedPgliteTemplate());
  await db.close();
}
