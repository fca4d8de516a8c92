import { ConfigError, loadConfig, createLogger } from '@quire/runtime';
import { BACKUP_DIR, listBackups, openMetadataStore, restoreBackup } from '@quire/storage';
import path from 'node:path';
import { ADMIN_USAGE, runAdmin } from './admin.js';
import { sendToRunningServer } from './admin-channel.js';
import { lockDataDir, type DataDirLock } from './data-dir-lock.js';
import { START_REFUSED_EXIT_CODE, StartRefusedError } from './start-refused.js';

const USAGE = `quire serve                 start the service in embedded mode (gateway + workers in one process)
quire admin …               manage organizations, keys, flags and caps; write a backup (see 'quire admin help')
quire restore-backup FILE   embedded, server stopped: replace the database with a backup (the old one is kept beside it)
quire extract|schema|tables|split FILE|DIR|URL…   send documents to a service (see 'quire extract --help')
quire form detect|fill|clear · quire jobs get|wait|cancel · quire usage   (see 'quire --help')
Configuration: QUIRE_* environment variables (README).`;

/** `quire serve` and `quire admin …` (and the usage text): the commands that run or manage a service's own stores. */
export async function runServerCommand(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) { console.error(e.message); return 2; }
    throw e;
  }
  switch (cmd) {
    case 'serve': {
      if (config.mode !== 'embedded') { console.error('quire serve runs embedded mode; the fleet runs services/* separately (QUIRE_MODE=distributed).'); return 2; }
      const { startEmbedded } = await import('./embedded.js'); // admin commands start without loading the gateway and workers
      let server;
      try {
        server = await startEmbedded(config);
      } catch (e) {
        if (e instanceof ConfigError) { console.error(e.message); return 2; } // e.g. QUIRE_OCR_ENGINE=native without tesseract
        if (e instanceof StartRefusedError) { console.error(e.message); return START_REFUSED_EXIT_CODE; } // data directory or port taken
        throw e;
      }
      const log = createLogger(config.logLevel);
      log.info({ url: server.url, dataDir: config.dataDir }, 'Quire is running (embedded mode)');
      console.log(`\nQuire is listening on ${server.url}  (API docs: ${server.url}/docs)`);
      if (server.generatedKey) console.log(`Dev API key (shown once; only its hash is stored): ${server.generatedKey}\n  try: curl -H "x-api-key: ${server.generatedKey}" -F file=@document.pdf ${server.url}/extract`);
      else if (config.bootstrapApiKey) console.log('Dev API key: the value of QUIRE_BOOTSTRAP_API_KEY');
      else console.log('Dev API key: the one printed at first start (create another with: pnpm quire admin key create <org-id>)');
      process.send?.({ ready: true, port: Number(new URL(server.url).port) }); // supervisors/tests with an IPC channel
      const stop = async (signal: string) => {
        log.info({ signal }, 'shutting down: finishing jobs in hand');
        await server.close();
        process.exit(0);
      };
      process.once('SIGTERM', () => void stop('SIGTERM'));
      process.once('SIGINT', () => void stop('SIGINT'));
      return -1; // keep running
    }
    case 'admin': {
      if (!rest.length || rest[0] === 'help') { console.log(ADMIN_USAGE); return 0; }
      if (config.mode === 'embedded') {
        // A running `quire serve` owns the PGlite directory: hand it the command over its local channel.
        const sent = await sendToRunningServer(config.dataDir, rest);
        if (sent) {
          if (sent.output) console.log(sent.output);
          if (sent.error) { console.error(`error: ${sent.error}`); return 1; }
          return 0;
        }
      }
      // No server answered: open the data directory here, under the same lock a server takes.
      let lock: DataDirLock | undefined;
      try {
        if (config.mode === 'embedded') lock = lockDataDir(config.dataDir);
      } catch (e) {
        if (e instanceof StartRefusedError) { console.error(`error: ${e.message}`); return START_REFUSED_EXIT_CODE; }
        throw e;
      }
      try {
        const store = config.mode === 'distributed'
          ? await openMetadataStore({ kind: 'postgres', url: config.databaseUrl! })
          : await openMetadataStore({ kind: 'pglite', dataDir: path.join(config.dataDir, 'pglite') });
        try {
          await runAdmin(store, rest, (s) => console.log(s), config.mode === 'embedded' ? { dataDir: config.dataDir, keep: config.backup.keep } : undefined);
          return 0;
        } catch (e) {
          console.error(`error: ${(e as Error).message}`);
          return 1;
        } finally {
          await store.close();
        }
      } finally {
        lock?.release();
      }
    }
    case 'restore-backup': {
      if (config.mode !== 'embedded') { console.error('restore-backup is for embedded mode\'s database (restore Postgres with its own tools)'); return 2; }
      const file = rest[0];
      if (!file) { console.error(`usage: quire restore-backup FILE (backups: ${path.join(config.dataDir, BACKUP_DIR)}; newest: ${listBackups(config.dataDir)[0] ?? 'none'})`); return 2; }
      let lock: DataDirLock;
      try {
        lock = lockDataDir(config.dataDir); // a running server owns the database: refused, naming it
      } catch (e) {
        if (e instanceof StartRefusedError) { console.error(`error: ${e.message}`); return START_REFUSED_EXIT_CODE; }
        throw e;
      }
      try {
        const { replacedDir } = await restoreBackup(path.resolve(file), path.join(config.dataDir, 'pglite'));
        console.log(JSON.stringify({ restored: path.resolve(file), previous_database_kept_at: replacedDir ?? null }, null, 2));
        return 0;
      } catch (e) {
        console.error(`error: the backup could not be restored: ${(e as Error).message}`);
        return 1;
      } finally {
        lock.release();
      }
    }
    default:
      console.log(USAGE);
      return cmd === undefined || cmd === 'help' ? 0 : 2;
  }
}
