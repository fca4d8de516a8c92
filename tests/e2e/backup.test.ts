import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, ensureBuilt } from '../../scripts/lib/fleet.mjs';
import { startTestServer } from '../support/embedded.js';
import { seedEmbeddedDataDir } from '../support/pglite-template.js';

/** The built CLI (`quire …`) as a separate process, on an embedded data directory. */
const quire = (dataDir: string, ...args: string[]) => new Promise<{ code: number; out: string; err: string }>((resolve) => {
  execFile(process.execPath, [path.join(ROOT, 'apps/cli/dist/main.js'), ...args], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_NO_WARNINGS: '1', QUIRE_MODE: 'embedded', QUIRE_DATA_DIR: dataDir, QUIRE_LOG_LEVEL: 'silent' },
  }, (e, out, err) => resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, out, err }));
});

describe('embedded: backups of the database, and restoring one', () => {
  beforeAll(async () => { await ensureBuilt(); }, 300_000);

  it('`quire admin backup` writes a copy while serving; `quire restore-backup` is refused while serving and restores it once stopped', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-e2e-backup-'));
    await seedEmbeddedDataDir(dataDir); // backups are the subject, not the database's creation
    try {
      let t = await startTestServer({}, { persistent: true, dataDir });
      let backupFile: string;
      try {
        await t.server.ctx.store.orgs.create({ name: 'before the backup' });
        const made = await quire(dataDir, 'admin', 'backup');
        expect(made.code).toBe(0);
        backupFile = JSON.parse(made.out).file;
        expect(fs.existsSync(backupFile)).toBe(true);
        await t.server.ctx.store.orgs.create({ name: 'after the backup' });
        const refused = await quire(dataDir, 'restore-backup', backupFile);
        expect(refused.code).not.toBe(0);
        expect(refused.err).toMatch(/in use|running|lock/i);
      } finally {
        await t.close();
      }
      const restored = await quire(dataDir, 'restore-backup', backupFile);
      expect(restored.code).toBe(0);
      expect(JSON.parse(restored.out).previous_database_kept_at).toContain('pglite.replaced-');
      t = await startTestServer({}, { persistent: true, dataDir });
      try {
        const names = (await t.server.ctx.store.orgs.list()).map((o) => o.name);
        expect(names).toContain('before the backup');
        expect(names).not.toContain('after the backup');
      } finally {
        await t.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
