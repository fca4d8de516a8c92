import type { Logger } from '@quire/runtime';
import { writeBackup, type MetadataStore } from '@quire/storage';

/**
 * Embedded mode's periodic backup (QUIRE_BACKUP_INTERVAL_HOURS): a consistent copy of the PGlite
 * database every interval, the newest QUIRE_BACKUP_KEEP kept. The first copy is written one interval
 * after the start; a failure is logged and the next round tries again.
 */
export class BackupSchedule {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(private readonly store: MetadataStore, private readonly dataDir: string, private readonly keep: number, private readonly log: Logger) {}

  start(intervalMs: number): void {
    if (intervalMs <= 0) return;
    this.timer = setInterval(() => { this.running ??= this.runOnce().finally(() => { this.running = undefined; }); }, intervalMs);
    this.timer.unref();
  }

  /** Writes one copy now; never throws (the error is logged). */
  async runOnce(): Promise<void> {
    try {
      const { file, bytes } = await writeBackup(this.store.sql, this.dataDir, this.keep);
      this.log.info({ file, bytes }, 'embedded database backed up');
    } catch (e) {
      this.log.error({ err: e }, 'embedded database backup failed; the next round tries again');
    }
  }

  /** Stops the schedule; resolves when a copy being written is done. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
