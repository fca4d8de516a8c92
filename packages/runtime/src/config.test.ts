import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, ENV_DOCS, loadConfig } from './config.js';

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
});
