// Runs every accuracy eval (scripts/eval-*.mjs) as a child process over the shared corpus and prints one
// summary table: kind × measure × corpus part (dev / validation; the validation part is aggregated only,
// see scripts/lib/corpus.mjs). Each eval's full output (per-file lines of the dev part) goes to a log file.
// Usage: pnpm eval [--part dev|validation|all] [--only extract,tables,…] [--jobs N] [--markdown FILE] [--logs DIR]
//   --jobs: evals run at once (default 2: the evals are mostly single-threaded; extract's OCR pool uses every core)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { partsFromArgs } from './lib/corpus.mjs';
import { formatFigure, takeOption } from './lib/eval-summary.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const parts = partsFromArgs(args);
takeOption(args, 'part');
const only = takeOption(args, 'only')?.split(',');
const jobs = Math.max(1, Number(takeOption(args, 'jobs') ?? 2));
const markdownOut = takeOption(args, 'markdown');
const logs = path.resolve(takeOption(args, 'logs') ?? fs.mkdtempSync(path.join(os.tmpdir(), 'quire-eval-')));
fs.mkdirSync(logs, { recursive: true });

// longest first, so that two at a time finish close together
const EVALS = ['extract', 'schema', 'tables', 'forms', 'split', 'charts'].filter((e) => !only || only.includes(e));

function runEval(name) {
  const summary = path.join(logs, `${name}.summary.json`);
  const log = path.join(logs, `${name}.log`);
  fs.rmSync(summary, { force: true });
  const out = fs.openSync(log, 'w');
  const t0 = performance.now();
  const child = spawn(process.execPath, [path.join(here, `eval-${name}.mjs`), '--part', parts.length === 2 ? 'all' : parts[0], '--summary', summary], { stdio: ['ignore', out, out] });
  return new Promise((resolve) => child.on('close', (code, signal) => {
    fs.closeSync(out);
    const seconds = (performance.now() - t0) / 1000;
    const ok = code === 0 && fs.existsSync(summary);
    console.log(`${name}: ${ok ? 'done' : `FAILED (${signal ?? `exit ${code}`})`} in ${seconds.toFixed(0)} s; log ${log}`);
    resolve({ name, seconds, ok, log, rows: ok ? JSON.parse(fs.readFileSync(summary, 'utf8')).rows : [] });
  }));
}

const start = performance.now();
const startedAt = new Date();
const loads = [];
const sampler = setInterval(() => loads.push(os.loadavg()[0]), 10_000);
const queue = [...EVALS];
const results = [];
await Promise.all(Array.from({ length: Math.min(jobs, queue.length) }, async () => {
  while (queue.length) results.push(await runEval(queue.shift()));
}));
clearInterval(sampler);
const total = (performance.now() - start) / 1000;
results.sort((a, b) => EVALS.indexOf(a.name) - EVALS.indexOf(b.name));

const rows = results.flatMap((r) => r.rows);
const meanLoad = loads.length ? loads.reduce((a, b) => a + b, 0) / loads.length : os.loadavg()[0];
const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.versions.node}, mean load ${meanLoad.toFixed(1)}`;
const header = ['kind', 'measure', ...parts, 'unit'];
const cells = (r) => [r.kind, r.measure, ...parts.map((p) => formatFigure(r[p])), r.unit];

const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => cells(r)[i].length)));
console.log(`\n${header.map((h, i) => h.padEnd(widths[i])).join('  ')}`);
for (const r of rows) console.log(cells(r).map((c, i) => c.padEnd(widths[i])).join('  '));
const timing = results.map((r) => `${r.name} ${r.seconds.toFixed(0)} s${r.ok ? '' : ' (failed)'}`).join(', ');
console.log(`\nFigures: value (units it covers). Total ${(total / 60).toFixed(1)} min (${timing}), ${jobs} at a time; ${machine}; logs in ${logs}`);

if (markdownOut) {
  const md = [
    `Command: \`pnpm eval\` (scripts/eval.mjs), ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${(total / 60).toFixed(1)} min`,
    `(${timing}; ${jobs} at a time) on ${machine}. A figure is the value and, in brackets, the number of units it covers.`,
    '',
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${cells(r).join(' | ')} |`),
    '',
  ].join('\n');
  fs.writeFileSync(markdownOut, md);
}
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
