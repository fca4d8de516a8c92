import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, ensureBuilt } from '../../scripts/lib/fleet.mjs';

/**
 * The README's start command on a fresh machine: `quire serve` with no QUIRE_* settings at all (QUIRE_PORT
 * aside, so the test does not need 8080) in a directory that has no ./data yet. It must create its data
 * directory, print its URL and a generated dev key, and that key must work.
 */
describe('embedded: first start in a fresh directory, default settings', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  let child: ChildProcess | undefined;
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-first-start-'));
  afterAll(() => {
    child?.kill('SIGKILL');
    fs.rmSync(cwd, { recursive: true, force: true });
  });

  it('creates ./data, prints its URL and a dev key, and answers with that key', async () => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_NO_WARNINGS: '1', QUIRE_PORT: '0' };
    child = spawn(process.execPath, [path.join(ROOT, 'apps/cli/dist/main.js'), 'serve'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    let out = '';
    child.stdout!.on('data', (d) => { out += d; });
    child.stderr!.on('data', (d) => { out += d; });
    await new Promise<void>((resolve, reject) => {
      child!.once('message', () => resolve());
      child!.once('exit', (code) => reject(new Error(`quire serve exited with ${code}:\n${out}`)));
    });
    // the banner is printed just before the ready message; its pipe may deliver it a little later
    const bannerOut = () => /Quire is listening on/.test(out) && /Dev API key \(shown once[^)]*\): \S+\n/.test(out);
    if (!bannerOut()) await new Promise<void>((r) => child!.stdout!.on('data', () => { if (bannerOut()) r(); }));
    const url = /Quire is listening on (http:\/\/\S+)/.exec(out)?.[1];
    const key = /Dev API key \(shown once[^)]*\): (\S+)/.exec(out)?.[1];
    expect(url).toBeDefined();
    expect(key).toBeDefined();
    expect(fs.existsSync(path.join(cwd, 'data', 'pglite'))).toBe(true);
    const usage = await fetch(`${url}/usage`, { headers: { 'x-api-key': key! } });
    expect(usage.status).toBe(200);
    expect((await fetch(`${url}/usage`, { headers: { 'x-api-key': `${key}x` } })).status).toBe(401);
  }, 90_000);
});
