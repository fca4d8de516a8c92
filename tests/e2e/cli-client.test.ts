import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { defineJobHandler } from '@quire/jobs';
import { ROOT, ensureBuilt } from '../../scripts/lib/fleet.mjs';
import { makeFillableForm } from '../fixtures/forms/make-forms.js';
import { SAMPLE_HTML, formWith, startTestServer, type TestServer } from '../support/embedded.js';

const MAIN = path.join(ROOT, 'apps/cli/dist/main.js');
const ANSI = /\x1b\[/;

async function pdfWith(...pages: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of pages) doc.addPage([612, 792]).drawText(text, { x: 72, y: 700, size: 14, font });
  return doc.save();
}

interface Run { code: number; out: string; err: string }
/** The built CLI as its own process; async, because the server it talks to runs in this one. */
function quire(args: string[], env: Record<string, string | undefined> = {}, cwd = ROOT): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [MAIN, ...args], {
      cwd, encoding: 'utf8', env: { ...process.env, NODE_NO_WARNINGS: '1', QUIRE_PROGRESS: undefined, QUIRE_CONFIG: undefined, ...env },
    }, (e, out, err) => resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, out, err }));
  });
}

/** The same under a pseudo-terminal (util-linux `script`), so stderr really is a TTY. */
function quireInPty(args: string[], env: Record<string, string>): Promise<Run> {
  const line = [process.execPath, MAIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return new Promise((resolve) => {
    execFile('script', ['-qec', line, '/dev/null'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_NO_WARNINGS: '1', ...env, COLUMNS: '120' } },
      (e, out) => resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, out, err: out }));
  });
}

const hasScript = (() => { try { return fs.statSync('/usr/bin/script').isFile(); } catch { return false; } })();

describe('quire CLI client commands against the embedded server', () => {
  let t: TestServer;
  let work: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    await ensureBuilt();
    t = await startTestServer({ QUIRE_FILE_URL_ALLOW_HOSTS: '127.0.0.1' }); // loopback: the URL test's hosted document
    env = { QUIRE_URL: t.url, QUIRE_API_KEY: t.key };
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cli-'));
    const docs = path.join(work, 'docs');
    fs.mkdirSync(path.join(docs, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(docs, 'a.pdf'), await pdfWith('Alpha page one', 'Alpha page two'));
    fs.writeFileSync(path.join(docs, 'b.pdf'), await pdfWith('Bravo only page'));
    fs.writeFileSync(path.join(docs, 'sub', 'c.html'), SAMPLE_HTML);
    fs.writeFileSync(path.join(docs, 'notes.txt'), 'not a document');
  }, 120_000);
  afterAll(async () => { await t?.close(); fs.rmSync(work, { recursive: true, force: true }); });

  it('extracts a directory with concurrency into mirrored outputs; not a TTY → plain lines, no escape codes', async () => {
    const out = path.join(work, 'out');
    const r = await quire(['extract', path.join(work, 'docs'), '--out', out, '--concurrency', '2'], env);
    expect(r).toMatchObject({ code: 0 });
    expect(fs.readFileSync(path.join(out, 'a.md'), 'utf8')).toContain('Alpha page two');
    expect(fs.readFileSync(path.join(out, 'b.md'), 'utf8')).toContain('Bravo only page');
    expect(fs.readFileSync(path.join(out, 'sub', 'c.md'), 'utf8')).toContain('# Quarterly report');
    expect(fs.readdirSync(out).sort()).toEqual(['a.md', 'b.md', 'sub']); // notes.txt is not a document
    expect(r.err).toMatch(/^3 document\(s\)$/m);
    expect(r.err.match(/^\[\d\/3\] ok /gm)).toHaveLength(3);
    expect(r.err).toContain('2 pages, 2 credits');
    expect(r.err).not.toMatch(ANSI);
  }, 120_000);

  it('resumes: outputs already written are skipped, a missing one is redone, --force redoes all', async () => {
    const out = path.join(work, 'out');
    const before = fs.statSync(path.join(out, 'a.md')).mtimeMs;
    fs.rmSync(path.join(out, 'b.md'));
    const r = await quire(['extract', path.join(work, 'docs'), '--out', out], env);
    expect(r.code).toBe(0);
    expect(r.err).toContain('2 already done');
    expect(r.err.match(/^skip /gm)).toHaveLength(2);
    expect(r.err.match(/^\[\d\/3\] ok /gm)).toEqual(['[3/3] ok ']);
    expect(fs.existsSync(path.join(out, 'b.md'))).toBe(true);
    expect(fs.statSync(path.join(out, 'a.md')).mtimeMs).toBe(before);
    const forced = await quire(['extract', path.join(work, 'docs'), '--out', out, '--force', '--format', 'json'], env);
    expect(forced.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(out, 'a.json'), 'utf8'))).toMatchObject({ page_count: 2, credits_used: 2 });
    expect(fs.readdirSync(out).filter((f) => f.includes('partial'))).toEqual([]);
  }, 120_000);

  it('extracts a URL (the service downloads it), named after the URL\'s last segment', async () => {
    const hosted = (await (await t.api('/convert', { method: 'POST', body: formWith({ bytes: SAMPLE_HTML, name: 'hosted.html', type: 'text/html' }) })).json()) as { file_id: string; url: string };
    const r = await quire(['extract', hosted.url, '--out', path.join(work, 'from-url')], env);
    expect(r.code).toBe(0);
    expect(fs.readFileSync(path.join(work, 'from-url', `${hosted.file_id}.md`), 'utf8')).toContain('# Quarterly report');
  }, 60_000);

  it('exit 1 when some documents fail: the others are written, the failure is named with its code', async () => {
    const mixed = path.join(work, 'mixed');
    fs.mkdirSync(mixed);
    fs.writeFileSync(path.join(mixed, 'good.html'), SAMPLE_HTML);
    fs.writeFileSync(path.join(mixed, 'broken.pdf'), '%PDF-1.7 broken');
    const r = await quire(['extract', mixed, '--out', path.join(work, 'mixed-out')], env);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/FAILED .*broken\.pdf: FILE_003/);
    expect(fs.readdirSync(path.join(work, 'mixed-out'))).toEqual(['good.md']);
  }, 120_000);

  it('exit codes: 2 usage, 3 no key / refused key / bad config file, 4 unreachable', async () => {
    const doc = path.join(work, 'docs', 'b.pdf');
    expect((await quire(['extract', doc, '--bogus'], env)).code).toBe(2);
    expect((await quire(['extract', path.join(work, 'missing.pdf')], env)).code).toBe(2);
    expect((await quire(['extract', path.join(work, 'docs'), '--concurrency', '0', '--out', work], env)).code).toBe(2);
    expect((await quire(['extract', path.join(work, 'docs')], env)).code).toBe(2); // several documents need --out
    const noKey = await quire(['usage'], { QUIRE_URL: t.url, QUIRE_API_KEY: '', XDG_CONFIG_HOME: work });
    expect(noKey.code).toBe(3);
    expect(noKey.err).toContain('No API key');
    const refused = await quire(['extract', doc], { ...env, QUIRE_API_KEY: 'qk_wrong' });
    expect(refused.code).toBe(3);
    expect(refused.err).toContain('AUTH_002');
    const badConfig = path.join(work, 'bad.json');
    fs.writeFileSync(badConfig, '{ not json');
    expect((await quire(['usage', '--config', badConfig], {})).code).toBe(3);
    expect((await quire(['usage', '--retries', '0'], { ...env, QUIRE_URL: 'http://127.0.0.1:9' })).code).toBe(4);
  }, 120_000);

  it('reads the connection from a config file; one document without --out goes to stdout', async () => {
    const config = path.join(work, 'quire', 'config.json');
    fs.mkdirSync(path.dirname(config), { recursive: true });
    fs.writeFileSync(config, JSON.stringify({ url: t.url, api_key: t.key }));
    const r = await quire(['extract', path.join(work, 'docs', 'b.pdf'), '--progress', 'none'], { QUIRE_URL: undefined, QUIRE_API_KEY: undefined, XDG_CONFIG_HOME: work });
    expect(r.code).toBe(0);
    expect(r.out.trim()).toContain('Bravo only page');
    expect(r.err).toBe('');
    const usage = await quire(['usage', '--config', config, '--granularity', 'week'], { QUIRE_URL: undefined, QUIRE_API_KEY: undefined });
    expect(JSON.parse(usage.out).timeline.granularity).toBe('week');
  }, 120_000);

  it('schema, tables and split run on each document after its extraction', async () => {
    const schemaFile = path.join(work, 'schema.json');
    fs.writeFileSync(schemaFile, JSON.stringify({ type: 'object', properties: { title: { type: 'string', description: 'Report title' } } }));
    const doc = path.join(work, 'docs', 'sub', 'c.html');
    const schema = await quire(['schema', doc, '--schema', schemaFile], env);
    expect(schema.code).toBe(0);
    expect(JSON.parse(schema.out).schema_output.values).toHaveProperty('title');
    const tables = await quire(['tables', doc, '--out', path.join(work, 'tables')], env);
    expect(tables.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(work, 'tables', 'c.tables.json'), 'utf8')).tables_output.tables).toHaveLength(1);
    const split = await quire(['split', path.join(work, 'docs', 'a.pdf'), '--topics', 'alpha: the alpha pages; other'], env);
    expect(split.code).toBe(0);
    expect(JSON.parse(split.out).splits.map((s: { name: string }) => s.name)).toEqual(['alpha', 'other']);
  }, 120_000);

  it('form detect → fill (PDF saved) → clear by --form-id; jobs get, wait and cancel', async () => {
    const form = path.join(work, 'form.pdf');
    fs.writeFileSync(form, await makeFillableForm());
    const detect = await quire(['form', 'detect', form], env);
    expect(detect.code).toBe(0);
    const detected = JSON.parse(detect.out);
    const filledPdf = path.join(work, 'filled.pdf');
    const fill = await quire(['form', 'fill', '--form-id', detected.form_id, '--instructions', 'Full name: Jane Doe', '--out', filledPdf], env);
    expect(fill.code).toBe(0);
    expect(JSON.parse(fill.out).fields_filled).toBe(1);
    expect(fs.readFileSync(filledPdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const clear = await quire(['form', 'clear', '--form-id', JSON.parse(fill.out).form_id], env);
    expect(JSON.parse(clear.out).fields_cleared).toBeGreaterThanOrEqual(1);
    expect((await quire(['form', 'fill', form], env)).code).toBe(2); // --instructions missing
    expect((await quire(['form', 'detect'], env)).code).toBe(2); // no source

    const job = await quire(['jobs', 'get', detected.form_id], env);
    expect(JSON.parse(job.out)).toMatchObject({ job_id: detected.form_id, status: 'completed' });
    const waited = await quire(['jobs', 'wait', detected.form_id, '--progress', 'none'], env);
    expect(JSON.parse(waited.out)).toMatchObject({ form_id: detected.form_id, page_count: 1 });
    const cancel = await quire(['jobs', 'cancel', detected.form_id], env);
    expect(cancel.code).toBe(1);
    expect(cancel.err).toMatch(/^error: [A-Z]+_\d{3}: /); // a completed job cannot be canceled
  }, 120_000);
});

describe('quire CLI progress on a slow job: per page, as lines or as bars', () => {
  let t: TestServer;
  let doc: string;
  let env: Record<string, string>;
  const slow = defineJobHandler('extract', async (ctx) => {
    for (let i = 1; i <= 6; i++) {
      await new Promise((r) => setTimeout(r, 500));
      await ctx.checkpoint(i, 6);
    }
    return { result: { markdown: 'slow document', page_count: 6, credits_used: 6 }, credits: 6, pages: 6 };
  });
  beforeAll(async () => {
    await ensureBuilt();
    t = await startTestServer({}, { handlers: { extract: slow } });
    env = { QUIRE_URL: t.url, QUIRE_API_KEY: t.key };
    doc = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cli-slow-')), 'slow.html');
    fs.writeFileSync(doc, SAMPLE_HTML);
  }, 120_000);
  afterAll(async () => { await t?.close(); fs.rmSync(path.dirname(doc), { recursive: true, force: true }); });

  it('plain lines name the pages done of the total as they advance', async () => {
    const r = await quire(['extract', doc, '--out', path.join(path.dirname(doc), 'plain')], env);
    expect(r.code).toBe(0);
    const counts = [...r.err.matchAll(/slow\.html: processing (\d)\/6 pages/g)].map((m) => Number(m[1]));
    expect(counts.some((n) => n > 0 && n < 6)).toBe(true);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(r.err).not.toMatch(ANSI);
  }, 60_000);

  it('QUIRE_PROGRESS=tty draws bars (documents and pages) even into a pipe', async () => {
    const r = await quire(['extract', doc, '--out', path.join(path.dirname(doc), 'forced')], { ...env, QUIRE_PROGRESS: 'tty' });
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/\d\/1 documents \| all/);
    expect(r.err).toMatch(/6\/6 pages \| \S*slow\.html/);
  }, 60_000);

  it('Ctrl-C (SIGINT) cancels the job in flight, writes nothing and exits 130', async () => {
    const out = path.join(path.dirname(doc), 'interrupted');
    const child = spawn(process.execPath, [MAIN, 'extract', doc, '--out', out, '--progress', 'plain'], { env: { ...process.env, ...env, NODE_NO_WARNINGS: '1' } });
    let err = '';
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        if (/processing [1-5]\/6 pages/.test(err)) resolve();
      });
    });
    child.kill('SIGINT');
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    expect(code).toBe(130);
    expect(fs.existsSync(out)).toBe(false);
    // the CLI sends DELETE /job before it exits
    const { rows } = await t.server.ctx.store.sql.query<{ status: string }>("SELECT status FROM jobs WHERE kind = 'extract' ORDER BY created_at DESC LIMIT 1");
    expect(rows[0].status).toBe('canceled');
  }, 60_000);

  (hasScript ? it : it.skip)('a real terminal (pty) gets bars redrawn in place', async () => {
    const r = await quireInPty(['extract', doc, '--out', path.join(path.dirname(doc), 'pty')], env);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(ANSI);
    expect(r.out).toMatch(/6\/6 pages \| \S*slow\.html/);
    expect(r.out).not.toMatch(/^\[1\/1\] ok/m);
  }, 60_000);
});
