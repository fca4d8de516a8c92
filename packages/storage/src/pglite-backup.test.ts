import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openMetadataStore } from './metadata-store.js';
import { listBackups, restoreBackup, writeBackup } from './pglite-backup.js';
import { migratedPgliteTemplate } from '../../../tests/support/pglite-template.js';

describe('embedded database backups', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-backup-'));
  const pgliteDir = path.join(dataDir, 'pglite');
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('writes consistent copies, keeps the newest, and restores one over a database that no longer opens', async () => {
    // a data directory started from a migrated copy (creating one is metadata-store.test's subject)
    const store = await openMetadataStore({ kind: 'pglite', dataDir: pgliteDir, template: await migratedPgliteTemplate() });
    let saved: string;
    try {
      const org = await store.orgs.create({ name: 'Kept in the backup' });
      saved = org.id;
      const t0 = Date.UTC(2026, 10, 27, 10, 0, 0);
      for (let i = 0; i < 4; i++) await writeBackup(store.sql, dataDir, 2, new Date(t0 + i * 60_000));
      await store.orgs.create({ name: 'After the last backup' });
    } finally {
      await store.close();
    }
    const backups = listBackups(dataDir);
    expect(backups.map((f) => path.basename(f))).toEqual(['pglite-20261127T100300000Z.tar.gz', 'pglite-20261127T100200000Z.tar.gz']);
    expect(fs.readdirSync(path.join(dataDir, 'backups')).some((f) => f.endsWith('.partial'))).toBe(false);

    // the database is damaged: its files are gone
    for (const f of fs.readdirSync(path.join(pgliteDir, 'base'))) fs.rmSync(path.join(pgliteDir, 'base', f), { recursive: true });
    const { replacedDir } = await restoreBackup(backups[0], pgliteDir);
    expect(replacedDir && fs.existsSync(replacedDir)).toBe(true);
    const restored = await openMetadataStore({ kind: 'pglite', dataDir: pgliteDir });
    try {
      const names = (await restored.orgs.list()).map((o) => o.name);
      expect(names).toContain('Kept in the backup');
      expect(names).not.toContain('After the last backup');
      expect((await restored.orgs.get(saved!))?.name).toBe('Kept in the backup');
    } finally {
      await restored.close();
    }
  }, 120_000);

  it('refuses a store that is not PGlite', async () => {
    await expect(writeBackup({ kind: 'pg' } as never, dataDir, 1)).rejects.toThrow(/embedded database/);
  });
});
