// Peak memory of the whole service extracting one large text PDF (the extract issue's "a 1,000-page text
// PDF extracts under 1 GB RSS"), measured the way a user runs it: the built code as child processes,
// POST /extract async, GET /job polled until the job ends, the RSS of each server's process tree (threads
// and child processes included) sampled every 50 ms.
//
// Usage (after `node scripts/build.mjs`):
//   node scripts/bench-memory.mjs [--pages 1000] [--runs 3] [--fleet] [KEY=VALUE ...]
//   embedded (default): `quire serve`; one untimed first start creates the data directory, then --runs
//     restarts on it (the first start is reported too). KEY=VALUE are extra server settings, e.g.
//     QUIRE_JOB_THREADS=0.
//   --fleet: gateway + worker-extract over Postgres, Redis and s3rver (needs DATABASE_URL and REDIS_URL);
//     KEY=VALUE go to the worker.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fleetEnvAvailable, fleetSkipMessage, spawnService, startFleet } from './lib/fleet.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); if (i < 0) return dflt; const v = args[i + 1]; args.splice(i, 2); return v; };
const pages = Number(opt('--pages', '1000'));
const runs = Number(opt('--runs', '3'));
const fleet = args.includes('--fleet') && (args.splice(args.indexOf('--fleet'), 1), true);
const extraEnv = Object.fromEntries(args.map((kv) => { const i = kv.indexOf('='); return [kv.slice(0, i), kv.slice(i + 1)]; }));
const KEY = 'qk_bench_memory_0123456789abcdef';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-memory-'));
const pdfPath = path.join(tmp, `long-${pages}.pdf`);
// the generator of bench:extract part 1 (two columns, headings, lists, a table every few pages)
execFileSync(process.execPath, [path.join(here, 'bench-extract.mjs'), '--make-pdf', pdfPath, String(pages)]);
const pdf = fs.readFileSync(pdfPath);

/** RSS of a process and all its descendants (threads share their process's RSS), in MB. */
function treeRssMB(root) {
  let kb = 0;
  const walk = (pid) => {
    try { kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]); } catch { /* gone */ }
    let kids = [];
    try { kids = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean); } catch { /* none */ }
    for (const k of kids) walk(k);
  };
  walk(root);
  return kb / 1024;
}

/** Extracts the PDF through `api` while sampling the given processes; their idle and peak RSS. */
async function measure(api, pids) {
  await new Promise((r) => setTimeout(r, 1500)); // settle after start (the first job thread loads)
  const idle = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, treeRssMB(pid)]));
  const peak = { ...idle };
  const timer = setInterval(() => { for (const [k, pid] of Object.entries(pids)) peak[k] = Math.max(peak[k], treeRssMB(pid)); }, 50);
  const t0 = Date.now();
  try {
    const fd = new FormData();
    fd.append('async', 'true');
    fd.append('file', new Blob([pdf], { type: 'application/pdf' }), path.basename(pdfPath));
    const accepted = await (await api('/extract', { method: 'POST', body: fd })).json();
    let status;
    for (;;) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await (await api(`/job/${accepted.job_id}`)).json()).status;
      if (!['pending', 'queued', 'processing'].includes(status)) break;
    }
    if (status !== 'completed') throw new Error(`the extraction ended ${status}`);
  } finally {
    clearInterval(timer);
  }
  const mb = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v)]));
  return { seconds: (Date.now() - t0) / 1000, idleMB: mb(idle), peakMB: mb(peak) };
}

console.log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; node ${process.version}; ${pages}-page PDF ${(pdf.length / 1e6).toFixed(1)} MB; settings ${JSON.stringify(extraEnv)}`);
if (fleet) {
  if (!fleetEnvAvailable()) { console.log(fleetSkipMessage('the fleet memory benchmark')); process.exit(0); }
  for (let i = 0; i < runs; i++) {
    const f = await startFleet({ workerEnv: extraEnv });
    try {
      console.log(JSON.stringify({ mode: 'fleet', run: i + 1, ...(await measure((p, init) => f.api(p, init), { worker: f.workers[0].pid, gateway: f.gateway.pid })) }));
    } finally {
      await f.close();
    }
  }
} else {
  const dataDir = path.join(tmp, 'data');
  for (let i = 0; i <= runs; i++) {
    const svc = spawnService('serve', 'apps/cli/dist/main.js', {
      QUIRE_MODE: 'embedded', QUIRE_DATA_DIR: dataDir, QUIRE_HOST: '127.0.0.1', QUIRE_PORT: '0', QUIRE_BOOTSTRAP_API_KEY: KEY, QUIRE_LOG_LEVEL: 'warn', ...extraEnv,
    }, { args: ['serve'] });
    try {
      const { port } = await svc.ready;
      const api = (p, init = {}) => fetch(`http://127.0.0.1:${port}${p}`, { ...init, headers: { 'x-api-key': KEY } });
      console.log(JSON.stringify({ mode: 'embedded', start: i === 0 ? 'first (database created)' : 'restart', ...(await measure(api, { server: svc.pid })) }));
    } finally {
      await svc.stop();
    }
  }
}
fs.rmSync(tmp, { recursive: true, force: true });
