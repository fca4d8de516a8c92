import { spawnService, type FleetService } from '../../scripts/lib/fleet.mjs';

export const SERVE_KEY = 'qk_test_serve_process_0123456789';

/** `quire serve` from the built CLI (call ensureBuilt first) on `dataDir`, as a child process. */
export function spawnServe(name: string, dataDir: string, env: Record<string, string> = {}): FleetService {
  return spawnService(name, 'apps/cli/dist/main.js', {
    QUIRE_MODE: 'embedded', QUIRE_HOST: '127.0.0.1', QUIRE_PORT: '0', QUIRE_DATA_DIR: dataDir, QUIRE_BOOTSTRAP_API_KEY: SERVE_KEY,
    QUIRE_LOG_LEVEL: 'warn', QUIRE_WORKER_CONCURRENCY: '2', QUIRE_OCR_WORKERS: '1', ...env,
  }, { args: ['serve'] });
}

/** Starts `quire serve` and waits until it listens; returns its base URL too. */
export async function startServe(name: string, dataDir: string, env: Record<string, string> = {}): Promise<{ svc: FleetService; url: string; port: number }> {
  const svc = spawnServe(name, dataDir, env);
  const port = Number((await svc.ready).port);
  return { svc, url: `http://127.0.0.1:${port}`, port };
}
