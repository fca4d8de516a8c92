import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, ENV_DOCS, loadConfig, type Config } from './config.js';

const readme = fs.readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../README.md'), 'utf8');

/** The README's configuration table: variable → [default cell, meaning cell]. */
function readmeTable(): Map<string, { default: string; doc: string }> {
  const rows = new Map<string, { default: string; doc: string }>();
  for (const line of readme.split('\n')) {
    const m = /^\| `(QUIRE_[A-Z0-9_]+)` \| (.*?) \| (.*) \|$/.exec(line);
    if (m) rows.set(m[1], { default: m[2], doc: m[3] });
  }
  return rows;
}

describe('configuration', () => {
  it('the README table lists every variable with the default and meaning config.ts documents, and nothing else', () => {
    const rows = readmeTable();
    expect([...rows.keys()].sort()).toEqual(Object.keys(ENV_DOCS).sort());
    for (const [name, spec] of Object.entries(ENV_DOCS)) {
      const row = rows.get(name)!;
      expect({ name, default: row.default, doc: row.doc }).toEqual({ name, default: spec.shownDefault ? `\`${spec.shownDefault}\`` : spec.default ? `\`${spec.default}\`` : '—', doc: spec.doc });
    }
  });

  it('parses defaults, treats empty as unset, and names every invalid variable', () => {
    const c = loadConfig({ QUIRE_PORT: '' });
    expect(c.mode).toBe('embedded');
    expect(c.port).toBe(8080);
    expect(loadConfig({ QUIRE_PORT: '9090' }).port).toBe(9090);
    let err: unknown;
    try { loadConfig({ QUIRE_PORT: 'eighty', QUIRE_MODE: 'cluster' }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/QUIRE_PORT="eighty"/);
    expect((err as Error).message).toMatch(/QUIRE_MODE="cluster"/);
  });

  it('distributed mode requires its database and Redis', () => {
    expect(() => loadConfig({ QUIRE_MODE: 'distributed' })).toThrow(/QUIRE_DATABASE_URL is required.*\n.*QUIRE_REDIS_URL is required/s);
  });

  it('derives Config from the settings table: units converted, optional settings optional, llm only with its base URL', () => {
    const c: Config = loadConfig({ QUIRE_SYNC_WAIT_SECONDS: '2', QUIRE_UPLOAD_LIMIT_MB: '1', QUIRE_WORKER_CONCURRENCY: '3', QUIRE_WEBHOOK_RETRY_SCHEDULE: '0,1.5' });
    expect([c.syncWaitMs, c.uploadLimitBytes, c.jobThreads, c.webhooks.retryScheduleSeconds]).toEqual([2000, 1024 * 1024, 3, [0, 1.5]]);
    expect(c.llm).toBeUndefined();
    const llm = loadConfig({ QUIRE_LLM_BASE_URL: 'http://127.0.0.1:1/v1/' }).llm;
    expect(llm).toEqual({ baseUrl: 'http://127.0.0.1:1/v1', model: 'default', timeoutMs: 120_000 });
    expect(() => loadConfig({ QUIRE_WEBHOOK_RETRY_SCHEDULE: '5,-1' })).toThrow(/QUIRE_WEBHOOK_RETRY_SCHEDULE="5,-1": a comma-separated list of seconds >= 0/);
  });
});

/** Compile-time only (tsc checks it, nothing calls it): the derived Config type follows the table. */
export function derivedTypeFollowsTheTable(c: Config): unknown[] {
  const port: number = c.port;
  // @ts-expect-error a setting without a default may be unset
  const publicUrl: string = c.publicUrl;
  // @ts-expect-error the llm group exists only when QUIRE_LLM_BASE_URL is set
  const model: string = c.llm.model;
  const baseUrl: string | undefined = c.llm?.baseUrl;
  const schedule: number[] = c.webhooks.retryScheduleSeconds;
  return [port, publicUrl, model, baseUrl, schedule];
}
