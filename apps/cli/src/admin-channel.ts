import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { MetadataStore } from '@quire/storage';
import { runAdmin } from './admin.js';

/**
 * The embedded server's local admin channel. PGlite holds its data directory exclusively, so while
 * `quire serve` runs, `quire admin …` cannot open the database itself; instead the server listens on
 * 127.0.0.1 (a random port, never the public interface) and writes `<dataDir>/admin.json`
 * ({url, token, pid}, mode 0600). The CLI reads that file and sends its arguments with the token as a
 * bearer credential; the server runs the same `runAdmin` on its own store. Whoever can read the data
 * directory can already read the database, so the file's permissions are the right boundary.
 */
const ADMIN_FILE = 'admin.json';

export interface AdminChannel {
  url: string;
  close(): Promise<void>;
}

export async function startAdminChannel(store: MetadataStore, dataDir: string, backupKeep = 3): Promise<AdminChannel> {
  const token = randomBytes(32).toString('base64url');
  const expected = Buffer.from(`Bearer ${token}`);
  const server = http.createServer((req, res) => {
    const reply = (status: number, body: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)); };
    const auth = Buffer.from(req.headers.authorization ?? '');
    if (auth.length !== expected.length || !timingSafeEqual(auth, expected)) return reply(401, { error: 'invalid admin token' });
    if (req.method !== 'POST' || req.url !== '/admin') return reply(404, { error: 'POST /admin only' });
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d) => { raw += d; if (raw.length > 64 * 1024) req.destroy(); });
    req.on('end', () => {
      let argv: unknown;
      try { argv = (JSON.parse(raw) as { argv?: unknown }).argv; } catch { /* below */ }
      if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) return reply(400, { error: 'body must be {"argv": [string…]}' });
      const out: string[] = [];
      runAdmin(store, argv, (s) => out.push(s), { dataDir, keep: backupKeep }).then(
        () => reply(200, { output: out.join('\n') }),
        (e: Error) => reply(200, { output: out.join('\n'), error: e.message }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', () => resolve()); });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const file = path.join(dataDir, ADMIN_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ url, token, pid: process.pid }), { mode: 0o600 });
  fs.renameSync(tmp, file);
  return {
    url,
    close: async () => {
      try {
        const cur = JSON.parse(fs.readFileSync(file, 'utf8')) as { token?: string };
        if (cur.token === token) fs.rmSync(file, { force: true });
      } catch { /* already gone */ }
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/**
 * CLI side: when a running embedded server's admin file is present, send the command to it.
 * Returns undefined when no server answers (no file, or a stale file left by a crash: it is removed),
 * so the caller opens the data directory itself.
 */
export async function sendToRunningServer(dataDir: string, argv: string[]): Promise<{ output: string; error?: string } | undefined> {
  const file = path.join(dataDir, ADMIN_FILE);
  let info: { url: string; token: string };
  try { info = JSON.parse(fs.readFileSync(file, 'utf8')); } catch { return undefined; }
  let res: Response;
  try {
    res = await fetch(`${info.url}/admin`, {
      method: 'POST', headers: { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ argv }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch {
    fs.rmSync(file, { force: true }); // nobody listening: a crashed server's leftover
    return undefined;
  }
  const body = (await res.json()) as { output?: string; error?: string };
  if (res.status !== 200) throw new Error(`the running server refused the admin command: ${body.error ?? res.status}`);
  return { output: body.output ?? '', error: body.error };
}
