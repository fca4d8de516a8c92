import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expandInputs } from './inputs.js';
import { resolveConnection } from './cli-config.js';

describe('CLI inputs', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-inputs-'));
    for (const f of ['a.pdf', 'a.docx', 'b.PNG', 'notes.txt', '.hidden.pdf', 'sub/c.html', 'sub/deeper/d.xlsx']) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      fs.writeFileSync(path.join(dir, f), 'x');
    }
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a directory gives its supported files, sorted, with output stems mirroring the tree; clashes keep the extension', () => {
    const docs = expandInputs([dir]);
    expect(docs.map((d) => [path.relative(dir, d.label), d.outputStem])).toEqual([
      ['a.docx', 'a.docx'], ['a.pdf', 'a.pdf'], ['b.PNG', 'b'], ['sub/c.html', 'sub/c'], ['sub/deeper/d.xlsx', 'sub/deeper/d'],
    ]);
  });

  it('URLs are sent as file_url and named after their last segment; the same name twice stays unique', () => {
    const docs = expandInputs(['https://example.com/files/report.pdf?sig=1', 'https://example.com/other/report.pdf', 'https://example.com/']);
    expect(docs.map((d) => d.input instanceof URL)).toEqual([true, true, true]);
    expect(docs.map((d) => d.outputStem)).toEqual(['report', 'report-2', 'example.com']);
  });

  it('a missing path or a directory without documents is a usage error (exit 2)', () => {
    expect(() => expandInputs([path.join(dir, 'nope.pdf')])).toThrow(expect.objectContaining({ exitCode: 2 }));
    fs.mkdirSync(path.join(dir, 'empty'));
    expect(() => expandInputs([path.join(dir, 'empty')])).toThrow(expect.objectContaining({ exitCode: 2 }));
  });
});

describe('CLI connection', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-config-'));
    fs.mkdirSync(path.join(dir, 'quire'));
    fs.writeFileSync(path.join(dir, 'quire', 'config.json'), JSON.stringify({ url: 'http://file:1', api_key: 'from-file' }));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('flags win over QUIRE_URL/QUIRE_API_KEY, which win over the config file', () => {
    const env = { XDG_CONFIG_HOME: dir };
    expect(resolveConnection({}, env)).toMatchObject({ url: 'http://file:1', apiKey: 'from-file' });
    expect(resolveConnection({}, { ...env, QUIRE_URL: 'http://env:2', QUIRE_API_KEY: 'from-env' })).toMatchObject({ url: 'http://env:2', apiKey: 'from-env', source: 'QUIRE_API_KEY' });
    expect(resolveConnection({ url: 'http://flag:3', apiKey: 'from-flag' }, { ...env, QUIRE_API_KEY: 'from-env' })).toMatchObject({ url: 'http://flag:3', apiKey: 'from-flag' });
    expect(resolveConnection({}, { ...env, QUIRE_API_KEY: '' })).toMatchObject({ apiKey: 'from-file' }); // empty means unset
  });

  it('no key anywhere, a missing --config file, a config that is not an object: exit 3', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-config-empty-'));
    expect(() => resolveConnection({}, { XDG_CONFIG_HOME: empty })).toThrow(expect.objectContaining({ exitCode: 3, message: expect.stringContaining('No API key') }));
    expect(() => resolveConnection({ config: path.join(empty, 'none.json') }, {})).toThrow(expect.objectContaining({ exitCode: 3 }));
    fs.writeFileSync(path.join(empty, 'list.json'), '[1]');
    expect(() => resolveConnection({ config: path.join(empty, 'list.json') }, {})).toThrow(expect.objectContaining({ exitCode: 3 }));
    expect(() => resolveConnection({ url: 'not a url', apiKey: 'k' }, {})).toThrow(expect.objectContaining({ exitCode: 3 }));
    fs.rmSync(empty, { recursive: true, force: true });
  });
});
