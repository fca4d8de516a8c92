import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, ensureBuilt } from '../../scripts/lib/fleet.mjs';
import { startTestServer, type TestServer } from '../support/embedded.js';

/** `quire admin …` (the built CLI, a separate process) while an embedded server owns the data directory. */
describe('embedded: admin CLI against a running server', () => {
  let t: TestServer;
  beforeAll(async () => {
    await ensureBuilt();
    t = await startTestServer();
  }, 60_000);
  afterAll(() => t?.close());

  /** Async on purpose: the server runs in this process and must keep answering while the CLI waits. */
  const run = (dataDir: string, ...args: string[]) => new Promise<{ code: number; out: string; err: string }>((resolve) => {
    execFile(process.execPath, [path.join(ROOT, 'apps/cli/dist/main.js'), 'admin', ...args], {
      cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_NO_WARNINGS: '1', QUIRE_MODE: 'embedded', QUIRE_DATA_DIR: dataDir, QUIRE_LOG_LEVEL: 'silent' },
    }, (e, out, err) => resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, out, err }));
  });
  const cli = (...args: string[]) => run(t.dataDir, ...args);

  it('creates an organization and a key through the server; the key works at once', async () => {
    const created = await cli('org', 'create', 'from-cli', '--tier', 'pro');
    expect(created).toMatchObject({ code: 0 });
    const org = JSON.parse(created.out);
    expect(org).toMatchObject({ name: 'from-cli', tier: 'pro' });
    expect((await t.server.ctx.store.orgs.findByName('from-cli'))?.id).toBe(org.id);

    const flags = await cli('flags', 'set', org.id, 'tables_endpoint=true');
    expect(JSON.parse(flags.out).flags).toMatchObject({ tables_endpoint: true });
    const k = await cli('key', 'create', org.id, '--cap', '50');
    expect(k.code).toBe(0);
    const { key, key_id } = JSON.parse(k.out);
    const usage = await t.api('/usage', { key });
    expect(usage.status).toBe(200);
    expect(((await usage.json()) as any).key).toMatchObject({ credit_cap: 50 });

    expect((await cli('key', 'revoke', key_id)).code).toBe(0);
    expect((await t.api('/usage', { key })).status).toBe(401);
  }, 30_000);

  it('reports command errors with a non-zero exit', async () => {
    const r = await cli('key', 'create', '00000000-0000-4000-8000-000000000000');
    expect(r.code).toBe(1);
    expect(r.err).toContain('no such organization');
  });

  it('the channel is loopback-only and refuses a wrong token', async () => {
    const info = JSON.parse(fs.readFileSync(path.join(t.dataDir, 'admin.json'), 'utf8'));
    expect(new URL(info.url).hostname).toBe('127.0.0.1');
    expect(fs.statSync(path.join(t.dataDir, 'admin.json')).mode & 0o077).toBe(0);
    const res = await fetch(`${info.url}/admin`, { method: 'POST', headers: { authorization: 'Bearer wrong' }, body: JSON.stringify({ argv: ['org', 'list'] }) });
    expect(res.status).toBe(401);
  });

  it('removes the admin file on stop, and a stale file left by a crash is ignored', async () => {
    const other = await startTestServer();
    const file = path.join(other.dataDir, 'admin.json');
    expect(fs.existsSync(file)).toBe(true);
    const stale = fs.readFileSync(file, 'utf8');
    await other.server.close();
    expect(fs.existsSync(file)).toBe(false);
    fs.writeFileSync(file, stale); // as if the server had crashed
    const r = await run(other.dataDir, 'org', 'list');
    expect(r.code).toBe(0); // fell back to opening the (now free) data directory itself
    expect(Array.isArray(JSON.parse(r.out))).toBe(true);
    expect(fs.existsSync(file)).toBe(false);
    fs.rmSync(other.dataDir, { recursive: true, force: true });
  }, 60_000);
});
