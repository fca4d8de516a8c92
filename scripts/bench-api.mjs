// pnpm bench:api — HTTP latency and throughput of the gateway with autocannon, in embedded mode
// (`quire serve` as a child process) and in distributed mode (gateway + worker-extract processes over
// Postgres, Redis and s3rver; needs DATABASE_URL and REDIS_URL). Runs the BUILT code (pnpm build).
//
// Scenarios, each at --connections (default 32) for --duration seconds (default 10):
//   raw      a bare node:http server answering {} (the floor: client + loopback + event loop)
//   healthz  GET /healthz on the gateway (express, request id, logging, metrics; no key, no database)
//   job      GET /job/{id} of a completed job (key lookup, rate limit, job read)
//   extract  synchronous POST /extract of a 1-page PDF (upload to the blob store, queue, worker, wait)
//   busy     embedded only: GET /healthz at 100 requests/s while large documents are extracted one after
//            another (a 100,000-cell XLSX; a 40-page text PDF), with job handlers on worker threads (the
//            default) and, on a second server, on the main thread (QUIRE_JOB_THREADS=0): how much a
//            CPU-heavy job stalls the gateway in the same process
//   bigjob   embedded only: GET /job/{id} (job cache off) of a completed job whose ~5 MB result (40-page
//            PDF) is kept in the job row (QUIRE_RESULT_ROW_LIMIT_BYTES above it) and, on a second server,
//            in the blob store (the default), at 4 connections: what reading a large inline result costs
// Usage: node scripts/bench-api.mjs [--mode embedded|distributed|both] [--duration 10] [--connections 32] [--only healthz,job,extract,busy,bigjob] [--env K=V,…] [--json out.json]
//        [--server-node-args --cpu-prof,--cpu-prof-dir=/tmp/prof] (node options of the embedded server, e.g. to profile it)
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
      resolve({ title, p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max, rps: r.requests.average, total: r.requests.total, non2xx, cpuUsPerRequest });
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
  if (want('extract')) {
    const extract = { url: `${url}/extract`, method: 'POST', headers: { 'x-api-key': key, 'content-type': contentType }, body };
    // warm-up, not recorded: job threads past the first start on demand and load the step code (seconds);
    // then one more request, queued behind what the warm-up left in flight, so the run starts on an empty queue
    await run('warm-up', { ...extract, duration: 5 });
    await (await fetch(extract.url, { method: 'POST', headers: extract.headers, body: extract.body })).arrayBuffer();
    out.push(await run(`${label}: POST /extract (sync, 1 page)`, extract, pid));
  }
  return out;
}

/** 5,000 rows × 20 columns of text, dates and numbers (exceljs' streaming writer), as bytes. */
async function bigXlsx(rows = 5_000) {
  const ExcelJS = (await import('exceljs')).default;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-xlsx-')), 'big.xlsx');
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true });
  const ws = wb.addWorksheet('Data');
  ws.addRow(Array.from({ length: 20 }, (_, c) => `Column ${c + 1}`)).commit();
  for (let r = 1; r < rows; r++) {
    ws.addRow(Array.from({ length: 20 }, (_, c) => (c % 5 === 0 ? `item ${r % 977}` : c % 5 === 1 ? new Date(Date.UTC(2020, 0, 1 + (r % 1000))) : ((r * (c + 1)) % 10007) / 7))).commit();
  }
  ws.commit();
  await wb.commit();
  const bytes = fs.readFileSync(file);
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  return bytes;
}

/** A text PDF of `pages` pages, 40 lines each. */
async function longPdf(pages = 40) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`Section ${p + 1}`, { x: 72, y: 730, size: 16, font });
    for (let i = 0; i < 40; i++) page.drawText(`${p + 1}.${i + 1} The quick brown fox jumps over the lazy dog, then rests by the river bank.`, { x: 72, y: 700 - i * 15, size: 10, font });
  }
  return Buffer.from(await doc.save());
}

/** The main thread's event-loop delay since the previous scrape (prom-client resets it on each /metrics). */
async function eventLoopDelay(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (name) => Number(new RegExp(`^${name}(?:{[^}]*})? ([0-9.e+-]+)$`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  return { p99: read('nodejs_eventloop_lag_p99_seconds'), max: read('nodejs_eventloop_lag_max_seconds') };
}

/**
 * GET /healthz at 100 requests/s while `doc` is extracted (synchronously, one after another) for the
 * whole run: the latency a CPU-heavy job adds to the gateway that shares its process, and the main
 * thread's event-loop delay over the run.
 */
async function busy(label, url, key, pid, doc) {
  let stop = false, extractions = 0;
  const loop = (async () => {
    while (!stop) {
      const fd = new FormData();
      fd.append('file', new Blob([doc.bytes], { type: doc.type }), doc.name);
      const r = await fetch(`${url}/extract`, { method: 'POST', headers: { 'x-api-key': key }, body: fd });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`busy extract failed: ${r.status}`);
      extractions++;
    }
  })();
  await new Promise((r) => setTimeout(r, 500)); // the first extraction is under way
  await eventLoopDelay(url); // resets the histogram
  try {
    // 100 requests/s in all: a probe of responsiveness that leaves the CPU to the job
    const r = await run(`${label}: GET /healthz (100/s) while a ${doc.title} is extracted`, { url: `${url}/healthz`, connections: 4, overallRate: 100 }, pid);
    return { ...r, loop: await eventLoopDelay(url) };
  } finally {
    stop = true;
    await loop;
    busyCounts.set(`${label}: ${doc.title}`, extractions);
  }
}
const busyCounts = new Map();

async function busyScenarios(label, url, key, pid) {
  const docs = [
    { title: '100,000-cell XLSX', name: 'big.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', bytes: await bigXlsx() },
    { title: '40-page PDF', name: 'long.pdf', type: 'application/pdf', bytes: await longPdf() },
  ];
  const out = [];
  for (const doc of docs) out.push(await busy(label, url, key, pid, doc));
  return out;
}

/** GET /job of one completed job with a ~5 MB inline result, uncached, at 4 connections. */
async function bigJob(label, url, key, pid) {
  const fd = new FormData();
  fd.append('file', new Blob([await longPdf()], { type: 'application/pdf' }), 'long.pdf');
  const r = await fetch(`${url}/extract`, { method: 'POST', headers: { 'x-api-key': key }, body: fd });
  const body = await r.json();
  if (r.status !== 200) throw new Error(`bigjob extract failed: ${r.status}`);
  const size = (await (await fetch(`${url}/job/${body.extraction_id}`, { headers: { 'x-api-key': key } })).arrayBuffer()).byteLength;
  return run(`${label}: GET /job/{id} of a ${(size / 1e6).toFixed(1)} MB result (uncached, 4 connections)`, { url: `${url}/job/${body.extraction_id}`, headers: { 'x-api-key': key }, connections: 4 }, pid);
}

async function startEmbedded(env) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-'));
  const execArgv = (args['server-node-args'] ?? '').split(',').filter(Boolean);
  const serve = spawnService('serve', 'apps/cli/dist/main.js', { ...common, QUIRE_MODE: 'embedded', QUIRE_DATA_DIR: dataDir, QUIRE_HOST: '127.0.0.1', QUIRE_PORT: '0', QUIRE_BOOTSTRAP_API_KEY: KEY, ...env }, { args: ['serve'], execArgv });
  const { port } = await serve.ready;
  return { url: `http://127.0.0.1:${port}`, pid: serve.pid, stop: async () => { await serve.stop(); fs.rmSync(dataDir, { recursive: true, force: true }); } };
}

function table(rows) {
  const lines = ['| scenario | p50 ms | p90 ms | p99 ms | max ms | req/s | requests | non-2xx/errors | server CPU µs/req |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|'];
  for (const r of rows) lines.push(`| ${r.title} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.max} | ${Math.round(r.rps)} | ${r.total} | ${r.non2xx} | ${r.cpuUsPerRequest === undefined ? '' : Math.round(r.cpuUsPerRequest)} |`);
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

const wantScenario = (s) => !args.only || args.only.split(',').includes(s);
if (mode === 'embedded' || mode === 'both') {
  if (['healthz', 'job', 'extract'].some(wantScenario)) {
    const serve = await startEmbedded({});
    try {
      results.push(...(await scenarios('embedded', serve.url, KEY, serve.pid)));
    } finally {
      await serve.stop();
    }
  }
  if (wantScenario('busy')) {
    for (const [label, env] of [['embedded, handlers on job threads', {}], ['embedded, handlers on the main thread (QUIRE_JOB_THREADS=0)', { QUIRE_JOB_THREADS: '0' }]]) {
      const serve = await startEmbedded(env);
      try {
        results.push(...(await busyScenarios(label, serve.url, KEY, serve.pid)));
      } finally {
        await serve.stop();
      }
    }
  }
  if (wantScenario('bigjob')) {
    const mb = (n) => String(n * 1024 * 1024);
    for (const [label, env] of [['embedded, result in the job row', { QUIRE_RESULT_ROW_LIMIT_BYTES: mb(10) }], ['embedded, result in the blob store', {}]]) {
      const serve = await startEmbedded({ QUIRE_JOB_CACHE_SECONDS: '0', QUIRE_INLINE_RESULT_LIMIT_BYTES: mb(20), ...env });
      try {
        results.push(await bigJob(label, serve.url, KEY, serve.pid));
      } finally {
        await serve.stop();
      }
    }
  }
}

if (mode === 'distributed' || mode === 'both') {
  if (!fleetEnvAvailable()) console.log(fleetSkipMessage('the distributed benchmark'));
  else if (['healthz', 'job', 'extract'].some(wantScenario)) {
    // (busy is embedded only: here the gateway has a process of its own)
    const fleet = await startFleet({ env: common });
    try {
      results.push(...(await scenarios('distributed', fleet.url, fleet.key, fleet.gateway.pid)));
    } finally {
      await fleet.close();
    }
  }
}

const md = table(results);
const busyRows = results.filter((r) => r.loop);
if (Object.keys(extraEnv).length) console.log(`server settings: ${JSON.stringify(extraEnv)}`);
console.log(`\n${connections} connections, ${duration} s per scenario, node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'})\n`);
console.log(md);
if (busyRows.length) {
  console.log('\nMain-thread event-loop delay during the busy runs (prom-client, monitorEventLoopDelay):\n');
  console.log('| scenario | event-loop delay p99 ms | max ms | extractions done |\n|---|---:|---:|---:|');
  for (const r of busyRows) console.log(`| ${r.title} | ${Math.round(r.loop.p99)} | ${Math.round(r.loop.max)} | ${[...busyCounts].find(([k]) => r.title.startsWith(k.split(': ')[0]) && r.title.includes(k.split(': ')[1]))?.[1] ?? ''} |`);
}
for (const r of results.filter((x) => x.title.endsWith('GET /job/{id}'))) {
  const mode = r.title.split(':')[0];
  const floor = results.find((x) => x.title.startsWith(`${mode}: bare node:http`));
  if (floor) console.log(`${r.title}: the gateway adds ~${(r.p50 - floor.p50).toFixed(1)} ms p50 over a bare server sending the same body`);
}
if (args.json) fs.writeFileSync(args.json, JSON.stringify({ connections, duration, results }, null, 2));
void ROOT;
