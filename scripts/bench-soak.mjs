// pnpm bench:soak — a long mixed load on one embedded server (`quire serve` as a child process), to show
// that memory does not creep: --jobs (default 2,000) requests at --concurrency (default 8), a mix of
// synchronous and asynchronous extractions of PDFs, HTML, DOCX and XLSX, tables chained on an extraction, and bad uploads that must
// be refused. The server's RSS is sampled all along; its idle RSS is read after the first --warm (default
// 100) requests and again after the last, each once the server has been idle for --settle seconds
// (default 10). Goal (#21): idle RSS after the soak within 10 % of idle RSS after the first 100.
// Runs the BUILT code (pnpm build).
// Usage: node scripts/bench-soak.mjs [--jobs 2000] [--concurrency 8] [--warm 100] [--settle 10] [--json out.json]
//        [--mix sync-pdf1,sync-html,…] (only these kinds, in turn: to find which one holds memory)
//        [--server-node-args --heapsnapshot-signal=SIGUSR2 --snapshot 30] (a heap snapshot of the idle server after the soak)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { ensureBuilt, processMemory, spawnService } from './lib/fleet.mjs';

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []));
const JOBS = Number(args.jobs ?? 2000);
const CONCURRENCY = Number(args.concurrency ?? 8);
const WARM = Number(args.warm ?? 100);
const SETTLE_MS = Number(args.settle ?? 10) * 1000;
const KEY = 'qk_bench_soak_key_0123456789abcdef';
const MB = 1024 * 1024;
const round = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v)]));

async function pdf(pages) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`Soak report, page ${p + 1}`, { x: 72, y: 720, size: 18, font });
    for (let i = 0; i < 30; i++) page.drawText(`Line ${i + 1}: revenue ${1000 + i * 17} and costs ${400 + i * 9} in the quarter.`, { x: 72, y: 690 - i * 18, size: 10, font });
  }
  return Buffer.from(await doc.save());
}

async function docx() {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>');
  zip.file('_rels/.rels', '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>');
  const paras = Array.from({ length: 40 }, (_, i) => `<w:p><w:r><w:t>Paragraph ${i + 1} of the soak memo, with enough words to lay out.</w:t></w:r></w:p>`).join('');
  zip.file('word/document.xml', `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paras}</w:body></w:document>`);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

async function xlsx() {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Data');
  ws.addRow(['Region', 'Q1', 'Q2', 'Q3', 'Q4']);
  for (let i = 0; i < 200; i++) ws.addRow([`Region ${i}`, i * 3, i * 5, i * 7, i * 11]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const html = Buffer.from(`<!doctype html><html><head><title>Soak</title></head><body><main><h1>Soak page</h1>${Array.from({ length: 30 }, (_, i) => `<p>Paragraph ${i} about the soak.</p>`).join('')}<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table></main></body></html>`);

const docs = {
  pdf1: { bytes: await pdf(1), name: 'one.pdf', type: 'application/pdf' },
  pdf5: { bytes: await pdf(5), name: 'five.pdf', type: 'application/pdf' },
  html: { bytes: html, name: 'page.html', type: 'text/html' },
  docx: { bytes: await docx(), name: 'memo.docx', type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  xlsx: { bytes: await xlsx(), name: 'data.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  junk: { bytes: Buffer.from('%PDF-1.7\nthis is not a pdf at all'), name: 'junk.pdf', type: 'application/pdf' },
};

/** The mix, as [weight, kind]: request i takes the kind its position in the cycle falls on. */
const MIX = [[30, 'sync-pdf1'], [15, 'async-pdf5'], [15, 'sync-html'], [10, 'sync-docx'], [10, 'sync-xlsx'], [10, 'tables-pdf1'], [5, 'bad-junk'], [5, 'bad-truncated']];
const CYCLE = (args.mix ? args.mix.split(',').map((k) => [1, k]) : MIX).flatMap(([w, k]) => Array.from({ length: w }, () => k));

function form(doc, fields = {}) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  fd.append('file', new Blob([doc.bytes], { type: doc.type }), doc.name);
  return fd;
}

async function once(url, kind) {
  const headers = { 'x-api-key': KEY };
  const [mode, which] = kind.split('-');
  if (mode === 'bad' && which === 'truncated') {
    const boundary = '----soak';
    const body = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.pdf"\r\nContent-Type: application/pdf\r\n\r\n`), docs.pdf1.bytes.subarray(0, 500)]);
    const r = await fetch(`${url}/extract`, { method: 'POST', headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, body });
    await r.arrayBuffer();
    return r.status === 400 ? 'refused' : `unexpected ${r.status}`;
  }
  const r = await fetch(`${url}/extract`, { method: 'POST', headers, body: form(docs[which], mode === 'async' ? { async: 'true' } : {}) });
  const body = await r.json();
  if (mode === 'tables') {
    // a chained step: tables on the saved extraction
    if (r.status !== 200) return `unexpected extract ${r.status}`;
    const t = await fetch(`${url}/tables`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ extraction_id: body.extraction_id }) });
    await t.arrayBuffer();
    return t.status === 200 ? 'ok' : `unexpected tables ${t.status}`;
  }
  if (mode === 'bad') return r.status === 400 ? 'refused' : `unexpected ${r.status}`;
  if (mode !== 'async') return r.status === 200 ? 'ok' : `unexpected ${r.status} ${body.error?.code ?? ''}`;
  if (r.status !== 202) return `unexpected ${r.status}`;
  for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
    await new Promise((res) => setTimeout(res, wait));
    const j = await (await fetch(`${url}/job/${body.job_id}`, { headers })).json();
    if (j.status === 'completed') return 'ok';
    if (j.status === 'failed' || j.status === 'canceled') return `unexpected job ${j.status}`;
  }
}

/** Runs requests [from, to) at CONCURRENCY; counts outcomes. */
async function drive(url, from, to, outcomes) {
  let next = from;
  const worker = async () => {
    while (next < to) {
      const i = next++;
      const kind = CYCLE[i % CYCLE.length];
      let out;
      try { out = await once(url, kind); } catch (e) { out = `error ${e.message}`; }
      outcomes.set(out, (outcomes.get(out) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** The server's memory once idle for SETTLE_MS: RSS, and from /metrics the JavaScript heap and external (Buffer, WASM) memory. */
const idleMemory = async (url, pid) => {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const text = await (await fetch(`${url}/metrics`)).text();
  const metric = (name) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)`, 'm').exec(text)?.[1] ?? NaN) / MB;
  return { rss: (processMemory(pid)?.rss ?? NaN) / MB, heapTotal: metric('nodejs_heap_size_total_bytes'), heapUsed: metric('nodejs_heap_size_used_bytes'), external: metric('nodejs_external_memory_bytes') };
};

await ensureBuilt();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-soak-'));
const serve = spawnService('serve', 'apps/cli/dist/main.js', {
  QUIRE_MODE: 'embedded', QUIRE_DATA_DIR: dataDir, QUIRE_HOST: '127.0.0.1', QUIRE_PORT: '0', QUIRE_BOOTSTRAP_API_KEY: KEY,
  QUIRE_RATE_LIMIT_PER_MINUTE: '100000000', QUIRE_LOG_LEVEL: 'warn', QUIRE_SYNC_WAIT_SECONDS: '300',
}, { args: ['serve'], execArgv: (args['server-node-args'] ?? '').split(',').filter(Boolean) });
try {
  const { port } = await serve.ready;
  const url = `http://127.0.0.1:${port}`;
  const samples = [];
  const sampler = setInterval(() => { const m = processMemory(serve.pid); if (m) samples.push(m.rss); }, 200);
  const outcomes = new Map();
  const started = Date.now();
  await drive(url, 0, WARM, outcomes);
  const idleAfterWarm = await idleMemory(url, serve.pid);
  const soakStart = Date.now();
  let done = WARM;
  while (done < JOBS) {
    const to = Math.min(JOBS, done + 250);
    await drive(url, done, to, outcomes);
    done = to;
    console.error(`${done}/${JOBS} requests, ${((Date.now() - started) / 1000).toFixed(0)} s, RSS ${((processMemory(serve.pid)?.rss ?? NaN) / MB).toFixed(0)} MB`);
  }
  const soakSeconds = (Date.now() - soakStart) / 1000;
  const idleAfterSoak = await idleMemory(url, serve.pid);
  if (args.snapshot) {
    // with --server-node-args --heapsnapshot-signal=SIGUSR2: a heap snapshot of the idle server, in its cwd
    process.kill(serve.pid, 'SIGUSR2');
    await new Promise((r) => setTimeout(r, Number(args.snapshot) * 1000));
  }
  clearInterval(sampler);
  const unexpected = [...outcomes].filter(([k]) => k !== 'ok' && k !== 'refused');
  const result = {
    date: new Date().toISOString(), machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`,
    jobs: JOBS, concurrency: CONCURRENCY, warm: WARM,
    outcomes: Object.fromEntries(outcomes), unexpected: unexpected.reduce((n, [, c]) => n + c, 0),
    requestsPerSecond: +((JOBS - WARM) / soakSeconds).toFixed(1),
    peakRssMb: +(Math.max(...samples) / MB).toFixed(0),
    idleAfterWarmMb: round(idleAfterWarm),
    idleAfterSoakMb: round(idleAfterSoak),
    idleGrowthPercent: +((idleAfterSoak.rss / idleAfterWarm.rss - 1) * 100).toFixed(1),
  };
  result.goalMet = result.unexpected === 0 && result.idleGrowthPercent <= 10;
  console.log(JSON.stringify(result, null, 2));
  if (args.json) fs.writeFileSync(args.json, JSON.stringify(result, null, 2));
  if (!result.goalMet) process.exitCode = 1;
} finally {
  await serve.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
