import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@quire/runtime';
import { listBackups, openMetadataStore } from '@quire/storage';
import { BackupSchedule } from './backup-schedule.js';
import { migratedPgliteTemplate } from '../../../tests/support/pglite-template.js';

describe('BackupSchedule', () => {
  it('writes a copy every interval, keeps the newest, and stops', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-backup-schedule-'));
    const store = await openMetadataStore({ kind: 'pglite', template: await migratedPgliteTemplate() });
    const schedule = new BackupSchedule(store, dataDir, 2, createLogger('silent'));
    try {
      schedule.start(100);
      const deadline = Date.now() + 30_000;
      while (listBackups(dataDir).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await schedule.stop();
      const kept = listBackups(dataDir);
      expect(kept).toHaveLength(2);
      await new Promise((r) => setTimeout(r, 300));
      expect(listBackups(dataDir)).toEqual(kept); // stopped: no further copies
    } finally {
      await schedule.stop();
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('writes nothing with an interval of 0 (QUIRE_BACKUP_INTERVAL_HOURS=0)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-backup-off-'));
    const store = await openMetadataStore({ kind: 'pglite', template: await migratedPgliteTemplate() });
    const schedule = new BackupSchedule(store, dataDir, 1, createLogger('silent'));
    try {
      schedule.start(0); // a timer of 0 ms would otherwise write at once, and again and again
      await new Promise((r) => setTimeout(r, 500));
      expect(listBackups(dataDir)).toEqual([]);
    } finally {
      await schedule.stop();
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
