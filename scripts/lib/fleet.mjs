// A local Quire fleet for tests and benchmarks: s3rver, a fresh Postgres database, a unique BullMQ
// prefix on Redis, then the gateway and workers as separate child processes running the BUILT code
// (services/*/dist/main.js, what `pnpm build` produces). Plain JS so scripts/bench-api.mjs can use it;
// types in fleet.d.mts.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listWorkspacePackages } from '../workspace.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(path.join(ROOT, 'package.json'));

export const fleetEnvAvailable = () => Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
export const fleetSkipMessage = (what) =>
  `skipping ${what}: set DATABASE_URL and REDIS_URL (CI sets them; e.g. postgres://postgres@127.0.0.1:5432/postgres and redis://127.0.0.1:6379) to run the fleet tests`;

/** Newest mtime under dir (files only). */
function newest(dir, filter) {
  let t = 0;
  if (!fs.existsSync(dir)) return 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !filter(e.name)) continue;
    t = Math.max(t, fs.statSync(path.join(e.parentPath ?? e.path, e.name)).mtimeMs);
  }
  return t;
}

/**
 * The fleet runs dist/, so dist must match src. `pnpm test` builds first; a direct jest run with a
 * stale dist builds here (swc, under a second).
 */
export async function ensureBuilt() {
  const dirs = (await listWorkspacePackages(ROOT)).map((p) => p.dir);
  const isStale = () => dirs.some((d) => newest(path.join(d, 'src'), (n) => n.endsWith('.ts') && !n.endsWith('.test.ts')) > newest(path.join(d, 'dist'), (n) => n.endsWith('.js')) + 1);
  if (!isStale()) return false;
  // Several jest workers may get here at once: one builds (a lock directory), the others wait for it.
  const lock = path.join(os.tmpdir(), `quire-build-${Buffer.from(ROOT).toString('hex').slice(-24)}.lock`);
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      if (Date.now() - fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs > 120_000) fs.rmSync(lock, { recursive: true, force: true }); // a crashed builder's
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    if (!isStale()) return false;
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}\n${r.stderr}`);
    return true;
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

const S3RVER_CHILD = `
const S3rver = require(process.argv[1]);
const server = new S3rver({ address: '127.0.0.1', port: 0, directory: process.argv[2], silent: true });
server.run().then(({ address, port }) => process.stdout.write(JSON.stringify({ address, port }) + '\\n'));
const stop = () => server.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.stdin.on('end', stop);
process.stdin.resume();
`;

/** s3rver in a child process (it needs --openssl-legacy-provider for its continuation tokens). */
export async function startS3rver() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-s3rver-'));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '-e', S3RVER_CHILD, require.resolve('s3rver'), dir], { stdio: ['pipe', 'pipe', 'inherit'] });
  const { address, port } = await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => { buf += d; if (buf.includes('\n')) resolve(JSON.parse(buf.split('\n')[0])); });
    child.once('exit', (code) => reject(new Error(`s3rver exited early (${code})`)));
    child.once('error', reject);
  });
  return {
    endpoint: `http://${address}:${port}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) await new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh, empty database on the Postgres at `base`, named `<prefix>_<random>`; drop() removes it. */
export async function createDatabase(base, prefix = 'quire_fleet') {
  const pg = require('pg');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Deletes every key under `${prefix}:` (SCAN, not KEYS, so a shared Redis is not blocked). */
export async function deleteRedisKeys(url, prefix) {
  const { Redis } = require('ioredis');
  const r = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await r.del(...keys);
    } while (cursor !== '0');
  } finally {
    r.disconnect();
  }
}

/** A child node process with captured output, an IPC channel and an exit promise. */
export function spawnService(name, script, env, { execArgv = [], args = [] } = {}) {
  const child = spawn(process.execPath, [...execArgv, path.join(ROOT, script), ...args], {
    cwd: ROOT, env: { ...process.env, NODE_NO_WARNINGS: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let output = '';
  const keep = (d) => { output += d; if (output.length > 200_000) output = output.slice(-100_000); };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const ready = new Promise((resolve, reject) => {
    child.on('message', (m) => { if (m && m.ready) resolve(m); });
    exited.then(({ code, signal }) => reject(new Error(`${name} exited before it was ready (code ${code}, signal ${signal}):\n${output.slice(-4000)}`)));
  });
  ready.catch(() => undefined);
  return {
    name, child, pid: child.pid, ready, exited,
    output: () => output,
    /** SIGTERM and wait; SIGKILL after `graceMs`. Resolves with the exit code/signal and whether it was killed. */
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return { ...(await exited), killed: false };
      child.kill('SIGTERM');
      let killed = false;
      const t = setTimeout(() => { killed = true; child.kill('SIGKILL'); }, graceMs);
      const r = await exited;
      clearTimeout(t);
      return { ...r, killed };
    },
  };
}

/** Runs `quire admin …` (the built CLI) against the fleet's database and returns its JSON output. */
export function admin(env, ...args) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'apps/cli/dist/main.js'), 'admin', ...args], {
    cwd: ROOT, env: { ...process.env, NODE_NO_WARNINGS: '1', ...env }, encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`quire admin ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Linux: current and peak resident set size of a process, in bytes (undefined elsewhere). */
export function processMemory(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN) * 1024;
    return { rss: kb('VmRSS'), peakRss: kb('VmHWM') };
  } catch {
    return undefined;
  }
}

/** Samples a process's RSS every `intervalMs` until stop(); returns the baseline and the highest sample. */
export function sampleMemory(pid, intervalMs = 10) {
  const first = processMemory(pid);
  let max = first?.rss ?? NaN;
  const t = setInterval(() => { const m = processMemory(pid); if (m) max = Math.max(max, m.rss); }, intervalMs);
  return {
    stop() {
      clearInterval(t);
      const last = processMemory(pid);
      if (last) max = Math.max(max, last.rss);
      return { before: first?.rss ?? NaN, max, after: last?.rss ?? NaN, growth: max - (first?.rss ?? NaN) };
    },
  };
}

/**
 * Starts the whole fleet. `workers` are service directory names (default ['worker-extract']).
 * Returns the gateway URL, an API key of a fresh organization (every flag on), the children and stop().
 */
export async function startFleet(opts = {}) {
  const databaseBase = opts.databaseUrl ?? process.env.DATABASE_URL;
  const redisUrl = opts.redisUrl ?? process.env.REDIS_URL;
  if (!databaseBase || !redisUrl) throw new Error(fleetSkipMessage('the fleet'));
  if (opts.build !== false) await ensureBuilt();
  const cleanups = [];
  const cleanup = async () => { for (const c of cleanups.reverse()) await c().catch((e) => console.error('fleet cleanup:', e)); };
  try {
    const s3 = await startS3rver();
    cleanups.push(() => s3.stop());
    const db = await createDatabase(databaseBase);
    cleanups.push(() => db.drop());
    const prefix = `quire-fleet-${randomBytes(6).toString('hex')}`;
    cleanups.push(() => deleteRedisKeys(redisUrl, prefix));
    const env = {
      QUIRE_MODE: 'distributed', QUIRE_DATABASE_URL: db.url, QUIRE_REDIS_URL: redisUrl, QUIRE_QUEUE_PREFIX: prefix,
      QUIRE_S3_ENDPOINT: s3.endpoint, QUIRE_S3_ACCESS_KEY_ID: 'S3RVER', QUIRE_S3_SECRET_ACCESS_KEY: 'S3RVER', QUIRE_S3_BUCKET: 'quire-fleet',
      QUIRE_HOST: '127.0.0.1', QUIRE_PORT: '0', QUIRE_LOG_LEVEL: process.env.QUIRE_TEST_LOG_LEVEL ?? 'warn', QUIRE_WORKER_CONCURRENCY: '2',
      QUIRE_OCR_WORKERS: '1', ...(opts.env ?? {}),
    };
    // The admin CLI migrates the fresh database and creates the organization and its key.
    const org = admin(env, 'org', 'create', `fleet-${prefix}`);
    admin(env, 'flags', 'set', org.id, 'form_filler=true', 'tables_endpoint=true', 'agentic_confidence=true');
    const { key, key_id: keyId } = admin(env, 'key', 'create', org.id, '--name', 'fleet');
    const services = [];
    const stopAll = async () => Promise.all(services.map(async (s) => ({ name: s.name, ...(await s.stop()) })));
    cleanups.push(() => stopAll());
    const gateway = spawnService('gateway', 'services/gateway/dist/main.js', { ...env, ...(opts.gatewayEnv ?? {}) }, { execArgv: opts.gatewayExecArgv });
    services.push(gateway);
    const workers = (opts.workers ?? ['worker-extract']).map((w) => spawnService(w, `services/${w}/dist/main.js`, { ...env, ...(opts.workerEnv ?? {}) }));
    services.push(...workers);
    const [{ port }] = await Promise.all([gateway.ready, ...workers.map((w) => w.ready)]);
    const url = `http://127.0.0.1:${port}`;
    return {
      url, key, keyId, org, env, prefix, gateway, workers, databaseUrl: db.url, s3Endpoint: s3.endpoint,
      api(pathname, init = {}) {
        const headers = new Headers(init.headers);
        const k = init.key === undefined ? key : init.key;
        if (k !== null) headers.set('x-api-key', k);
        return fetch(url + pathname, { ...init, headers });
      },
      /** SIGTERM every service and report how each exited (before the stores are torn down). */
      stopServices: stopAll,
      close: cleanup,
    };
  } catch (e) {
    await cleanup();
    throw e;
  }
}
