import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, ensureBuilt, type FleetService } from '../../scripts/lib/fleet.mjs';
import { SERVE_KEY, spawnServe, startServe } from '../support/serve-process.js';
import { seedEmbeddedDataDir } from '../support/pglite-template.js';

/**
 * One process per data directory (real `quire serve` processes): a second start on the same data
 * directory is refused with exit code 3 and the running server's pid, whatever its port; a start on a
 * port in use is refused before it opens its own data directory; `quire admin` opening the directory
 * itself takes the same lock. The first server goes on serving throughout.
 */
const START_REFUSED = 3;
const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

describe('embedded: one quire serve per data directory', () => {
  const dataDir = tmp('quire-lock-');
  const otherDir = tmp('quire-lock-other-');
  let first: { svc: FleetService; url: string; port: number };
  beforeAll(async () => {
    await ensureBuilt();
    await seedEmbeddedDataDir(dataDir); // the lock is the subject, not the database's creation
    first = await startServe('first', dataDir);
  }, 120_000);
  afterAll(async () => {
    await first?.svc.stop();
    for (const d of [dataDir, otherDir]) fs.rmSync(d, { recursive: true, force: true });
  });

  const refusedStart = async (name: string, dir: string, port: number) => {
    const second = spawnServe(name, dir, { QUIRE_PORT: String(port) });
    const exit = await second.exited;
    return { ...exit, output: second.output() };
  };

  const stillServing = async () => {
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    const usage = await fetch(`${first.url}/usage`, { headers: { 'x-api-key': SERVE_KEY } });
    expect(usage.status).toBe(200);
  };

  it('a second start on the same data directory and the same port is refused, naming the running pid', async () => {
    const r = await refusedStart('same-dir-same-port', dataDir, first.port);
    expect(r.code).toBe(START_REFUSED);
    expect(r.output).toContain(`in use by another Quire process (pid ${first.svc.pid})`);
    await stillServing();
  }, 60_000);

  it('a second start on the same data directory and another port is refused the same way', async () => {
    const r = await refusedStart('same-dir-other-port', dataDir, 0);
    expect(r.code).toBe(START_REFUSED);
    expect(r.output).toContain(`pid ${first.svc.pid}`);
    await stillServing();
  }, 60_000);

  it('a start on a port in use is refused before it opens its data directory', async () => {
    const r = await refusedStart('other-dir-same-port', otherDir, first.port);
    expect(r.code).toBe(START_REFUSED);
    expect(r.output).toContain(`Port ${first.port} on 127.0.0.1 is already in use`);
    expect(fs.readdirSync(otherDir)).toEqual([]); // no pglite/, no blobs/, and the lock was given back
    await stillServing();
  }, 60_000);

  it('quire admin, finding no admin channel, takes the same lock and is refused', async () => {
    const channel = path.join(dataDir, 'admin.json');
    const aside = `${channel}.aside`;
    fs.renameSync(channel, aside); // as if the channel were not up (yet)
    try {
      const r = await new Promise<{ code: number; err: string }>((resolve) => {
        execFile(process.execPath, [path.join(ROOT, 'apps/cli/dist/main.js'), 'admin', 'org', 'list'], {
          cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_NO_WARNINGS: '1', QUIRE_MODE: 'embedded', QUIRE_DATA_DIR: dataDir, QUIRE_LOG_LEVEL: 'silent' },
        }, (e, _out, err) => resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, err }));
      });
      expect(r.code).toBe(START_REFUSED);
      expect(r.err).toContain(`pid ${first.svc.pid}`);
    } finally {
      fs.renameSync(aside, channel);
    }
    await stillServing();
  }, 60_000);
});
