// pnpm bench:api — HTTP latency and throughput of the gateway with autocannon, in embedded mode
// (`quire serve` as a child process) and in distributed mode (gateway + worker-extract processes over
// Postgres, Redis and s3rver; needs DATABASE_URL and REDIS_URL). Runs the BUILT code (pnpm build).
//
// Scenarios, each at --connections (default 32) for --duration seconds (default 10):
//   raw      a bare node:http server answering {} (the floor: client + loopback + event loop)
//   healthz  GET /healthz on the gateway (express, request id, logging, metrics; no key, no database)
//   job      GET /job/{id} of a completed job (key lookup, rate limit, job read)
//   extract  synchronous POST /extract of a 1-page PDF (upload to the blob store, queue, worker, wait)
// Usage: node scripts/bench-api.mjs [--mode embedded|distributed|both] [--duration 10] [--connections 32] [--only healthz,job,extract] [--env K=V,…] [--json out.json]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { ROOT, ensureBuilt, fleetEnvAvailable, fleetSkipMessage, spawnService, startFleet } from './lib/fleet.mjs';

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []));
const duration = Number(args.duration ?? 10);
const connections = Number(args.connections ?? 32);
const mode = args.mode ?? 'both';
const KEY = 'qk_bench_api_key_0123456789abcdef';

async function onePagePdf() {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText('Benchmark page', { x: 72, y: 700, size: 18, font });
  for (let i = 0; i < 20; i++) page.drawText(`Line ${i + 1}: the quick brown fox jumps over the lazy dog.`, { x: 72, y: 660 - i * 18, size: 11, font });
  return Buffer.from(await doc.save());
}

function multipart(file, name) {
  const boundary = '----quirebench';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`),
    file, Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Linux: CPU seconds (user + system) a process has used so far, from /proc (undefined elsewhere). The
 * server's CPU per request is the load-independent figure: on a shared machine latency swings with
 * what else runs, CPU per request much less.
 */
function cpuSeconds(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100 on Linux)
  } catch {
    return undefined;
  }
}

/** One autocannon run; `pid` is the server process whose CPU time per request is reported. */
function run(title, opts, pid) {
  return new Promise((resolve, reject) => {
    const cpu0 = pid ? cpuSeconds(pid) : undefined;
    autocannon({ connections, duration, ...opts }, (err, r) => {
      if (err) return reject(err);
      const cpu1 = pid ? cpuSeconds(pid) : undefined;
      const non2xx = r.non2xx + r.errors + r.timeouts;
      const cpuUsPerRequest = cpu0 !== undefined && cpu1 !== undefined && r.requests.total ? ((cpu1 - cpu0) * 1e6) / r.requests.total : undefined;
      resolve({ title, p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, rps: r.requests.average, total: r.requests.total, non2xx, cpuUsPerRequest });
    });
  });
}

/** A bare node:http server in a child process answering `body` (default {}) to everything. */
async function startRaw(body = '{}') {
  const child = spawn(process.execPath, ['-e', "process.once('message',(b)=>{const s=require('http').createServer((q,r)=>{r.setHeader('content-type','application/json');r.end(b)});s.listen(0,'127.0.0.1',()=>process.send({port:s.address().port}))})"], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.send(body);
  const { port } = await new Promise((r) => child.once('message', r));
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); }) };
}

async function scenarios(label, url, key, pid) {
  const pdf = await onePagePdf();
  const { body, contentType } = multipart(pdf, 'bench.pdf');
  // A completed job to read.
  const fd = new FormData();
  fd.append('file', new Blob([pdf], { type: 'application/pdf' }), 'seed.pdf');
  const seed = await fetch(`${url}/extract`, { method: 'POST', headers: { 'x-api-key': key }, body: fd });
  const seeded = await seed.json();
  if (seed.status !== 200) throw new Error(`seed extract failed: ${seed.status} ${JSON.stringify(seeded)}`);
  const jobId = seeded.extraction_id;
  const out = [];
  const want = (s) => !args.only || args.only.split(',').includes(s);
  if (want('job')) {
    // The floor for GET /job: a bare server sending the very same body (size matters: ~45 KB).
    const jobBody = await (await fetch(`${url}/job/${jobId}`, { headers: { 'x-api-key': key } })).text();
    const raw = await startRaw(jobBody);
    try {
      out.push(await run(`${label}: bare node:http sending the same GET /job body (${Math.round(jobBody.length / 1024)} KB)`, { url: raw.url }, raw.pid));
    } finally {
      await raw.stop();
    }
  }
  if (want('healthz')) out.push(await run(`${label}: GET /healthz`, { url: `${url}/healthz` }, pid));
  if (want('job')) out.push(await run(`${label}: GET /job/{id}`, { url: `${url}/job/${jobId}`, headers: { 'x-api-key': key } }, pid));
  if (want('extract')) out.push(await run(`${label}: POST /extract (sync, 1 page)`, { url: `${url}/extract`, method: 'POST', headers: { 'x-api-key': key, 'content-type': contentType }, body }, pid));
  return out;
}

function table(rows) {
  const lines = ['| scenario | p50 ms | p90 ms | p99 ms | req/s | requests | non-2xx/errors | server CPU µs/req |', '|---|---:|---:|---:|---:|---:|---:|---:|'];
  for (const r of rows) lines.push(`| ${r.title} | ${r.p50} | ${r.p90} | ${r.p99} | ${Math.round(r.rps)} | ${r.total} | ${r.non2xx} | ${r.cpuUsPerRequest === undefined ? '' : Math.round(r.cpuUsPerRequest)} |`);
  return lines.join('\n');
}

await ensureBuilt();
const results = [];
const raw = await startRaw();
try {
  results.push(await run('baseline: bare node:http {}', { url: raw.url }, raw.pid));
} finally {
  await raw.stop();
}

// Generous limits so the benchmark measures latency, not the rate limiter or credit caps.
// --env K=V,K2=V2 adds server settings (e.g. QUIRE_JOB_CACHE_SECONDS=0 to measure uncached job reads).
const extraEnv = Object.fromEntries((args.env ?? '').split(',').filter(Boolean).map((kv) => kv.split('=')));
const common = { QUIRE_RATE_LIMIT_PER_MINUTE: '100000000', QUIRE_LOG_LEVEL: 'warn', QUIRE_SYNC_WAIT_SECONDS: '120', ...extraEnv };

if (mode === 'embedded' || mode === 'both') {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-'));
  const serve = spawnService('serve', 'apps/cli/dist/main.js', { ...common, QUIRE_MODE: 'embedded', QUIRE_DATA_DIR: dataDir, QUIRE_HOST: '127.0.0.1', QUIRE_PORT: '0', QUIRE_BOOTSTRAP_API_KEY: KEY }, { args: ['serve'] });
  try {
    const { port } = await serve.ready;
    results.push(...(await scenarios('embedded', `http://127.0.0.1:${port}`, KEY, serve.pid)));
  } finally {
    await serve.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (mode === 'distributed' || mode === 'both') {
  if (!fleetEnvAvailable()) console.log(fleetSkipMessage('the distributed benchmark'));
  else {
    const fleet = await startFleet({ env: common });
    try {
      results.push(...(await scenarios('distributed', fleet.url, fleet.key, fleet.gateway.pid)));
    } finally {
      await fleet.close();
    }
  }
}

const md = table(results);
if (Object.keys(extraEnv).length) console.log(`server settings: ${JSON.stringify(extraEnv)}`);
console.log(`\n${connections} connections, ${duration} s per scenario, node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'})\n`);
console.log(md);
for (const r of results.filter((x) => x.title.endsWith('GET /job/{id}'))) {
  const mode = r.title.split(':')[0];
  const floor = results.find((x) => x.title.startsWith(`${mode}: bare node:http`));
  if (floor) console.log(`${r.title}: the gateway adds ~${(r.p50 - floor.p50).toFixed(1)} ms p50 over a bare server sending the same body`);
}
if (args.json) fs.writeFileSync(args.json, JSON.stringify({ connections, duration, results }, null, 2));
void ROOT;
