import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@quire/runtime';
import { startEmbedded, type EmbeddedOptions, type EmbeddedServer } from '@quire/cli';
import { migratedPgliteTemplate } from './pglite-template.js';

export const TEST_KEY = 'qk_test_embedded_key_0123456789';

export interface TestServer {
  url: string;
  key: string;
  server: EmbeddedServer;
  dataDir: string;
  api(pathname: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  close(): Promise<void>;
}

/** Starts a real embedded server (HTTP on 127.0.0.1, port 0) in a temp data dir. */
export async function startTestServer(env: Record<string, string> = {}, opts: EmbeddedOptions & { persistent?: boolean; dataDir?: string } = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'quire-e2e-'));
  const config = loadConfig({
    QUIRE_HOST: '127.0.0.1', QUIRE_PORT: '0', QUIRE_DATA_DIR: dataDir, QUIRE_BOOTSTRAP_API_KEY: TEST_KEY,
    QUIRE_LOG_LEVEL: process.env.QUIRE_TEST_LOG_LEVEL ?? 'silent', QUIRE_WORKER_CONCURRENCY: '2',
    // Tests change keys and organizations straight in the store and expect the next request to see it.
    QUIRE_AUTH_CACHE_SECONDS: '0', QUIRE_JOB_CACHE_SECONDS: '0', ...env,
  });
  const server = await startEmbedded(config, {
    ...opts,
    inMemoryDatabase: !opts.persistent,
    pgliteTemplate: opts.persistent ? undefined : await migratedPgliteTemplate(),
  });
  return {
    url: server.url, key: TEST_KEY, server, dataDir,
    api: (pathname, init = {}) => {
      const headers = new Headers(init.headers);
      const key = init.key === undefined ? TEST_KEY : init.key;
      if (key !== null) headers.set('x-api-key', key);
      return fetch(server.url + pathname, { ...init, headers });
    },
    close: async () => {
      await server.close();
      if (!opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function formWith(file?: { bytes: Uint8Array | string; name: string; type?: string }, fields: Record<string, string> = {}): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  if (file) fd.append('file', new Blob([typeof file.bytes === 'string' ? file.bytes : Buffer.from(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.name);
  return fd;
}

export async function pollJob(t: TestServer, jobId: string, timeoutMs = 30_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = (await (await t.api(`/job/${jobId}`)).json()) as Record<string, unknown>;
    if (['completed', 'failed', 'canceled', 'expired'].includes(String(body.status))) return body;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${String(body.status)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const SAMPLE_HTML = `<!doctype html><html><head><title>Quarterly report</title></head><body><main>
<h1>Quarterly report</h1><p>Revenue grew in every region.</p><h2>Regions</h2><ul><li>North</li><li>South</li></ul>
<table><thead><tr><th>Region</th><th>Revenue</th></tr></thead><tbody><tr><td>North</td><td>1,200</td></tr><tr><td>South</td><td>900</td></tr></tbody></table>
</main></body></html>`;
