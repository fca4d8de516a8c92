// OCR speed and accuracy on corpus scans: @quire/ocr with 1 worker and one per core, on each engine
// (wasm: tesseract.js; native: the tesseract CLI through the same pool and recognizePage), against the
// bare native tesseract CLI (Debian tesseract-ocr, OMP_THREAD_LIMIT=1) run as 1 and as one-per-core
// processes, with the packaged best_int model quire reads (same model) and with Debian's tessdata_fast.
// Also @quire/ocr on Debian's tessdata_fast model when installed (tesseract-ocr-eng).
// Usage: node scripts/build.mjs && node scripts/bench-ocr.mjs [copies=4] [--engines wasm,native] [--no-fast]
//
// With --generated (pnpm bench:ocr): no corpus; two pages drawn here at 300 DPI — an A4 page of 10 pt text
// and a photographed receipt slip (a slip of 9 pt receipt lines on a darker desk, turned 4°, unevenly lit,
// blurred) — read by each engine of --engines (default wasm,onnx,auto, and native when tesseract is on PATH),
// each engine in a process of its own so that its peak RSS is its own: seconds per page with 1 worker and
// with one per core (every worker warmed first), CPU seconds per page, word accuracy against the drawn text.
// --corpus-photos N adds the first N dev-part receipt images of ../shared/corpus/images, read as extraction reads
// them (readImage), one worker, CPU seconds per page; --only-corpus leaves the drawn pages out.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { createOcrPool, nativeTessdataDir } from '../packages/ocr/dist/index.js';

const run = promisify(execFile);
if (process.argv.includes('--generated')) {
  await import('./lib/bench-ocr-generated.mjs');
  process.exit(0);
}
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.resolve(root, '../shared/corpus/scanned');
const args = process.argv.slice(2);
const flag = (name) => { const i = args.indexOf(name); if (i < 0) return undefined; const v = args[i + 1]; args.splice(i, 2); return v; };
const engines = (flag('--engines') ?? 'wasm,native').split(',');
const noFast = args.includes('--no-fast') && (args.splice(args.indexOf('--no-fast'), 1), true);
const copies = Number(args[0] ?? 4);
const cores = os.availableParallelism();
const files = [['linn.png', 'linn'], ['eurotext.png', 'eurotext']];

const norm = (s) => s.replace(/\s+/g, ' ').trim();
function cer(actual, expected) {
  const a = [...norm(actual)], e = [...norm(expected)];
  let prev = Array.from({ length: e.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= e.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === e[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[e.length] / e.length;
}

/**
 * CPU seconds of this process (its worker threads included) and of its reaped children (the tesseract
 * processes): on this shared machine wall-clock figures swing with other work, CPU time much less.
 */
function cpuSeconds() {
  const self = process.cpuUsage();
  let children = 0;
  try {
    // /proc/self/stat: fields 16 and 17 (cutime, cstime) in clock ticks (100 per second on Linux)
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    children = (Number(f[13]) + Number(f[14])) / 100;
  } catch { /* not Linux: children not counted */ }
  return (self.user + self.system) / 1e6 + children;
}

const DEBIAN_FAST = '/usr/share/tesseract-ocr/5/tessdata';

async function quire(size, bytes, page, tessdataDir, engine = 'wasm') {
  const pool = await createOcrPool({ size, tessdataDir, engine });
  try {
    await pool.recognize(bytes, page); // warm every code path once
    const t0 = performance.now(), c0 = cpuSeconds();
    const pages = await Promise.all(Array.from({ length: copies }, () => pool.recognize(bytes, page)));
    return { sPerPage: (performance.now() - t0) / 1000 / copies, cpuPerPage: (cpuSeconds() - c0) / copies, text: pages[0].words.map((w) => w.text).join(' ') };
  } finally { await pool.close(); }
}

async function native(procs, file, tessdataDir) {
  const env = { ...process.env, OMP_THREAD_LIMIT: '1' };
  const model = tessdataDir ? ['--tessdata-dir', tessdataDir] : [];
  const once = () => run('tesseract', [file, '-', ...model, '-l', 'eng', '--dpi', '300', '--psm', '3'], { env, maxBuffer: 1 << 24 });
  const t0 = performance.now(), c0 = cpuSeconds();
  let text = '';
  for (let done = 0; done < copies; done += procs) {
    const outs = await Promise.all(Array.from({ length: Math.min(procs, copies - done) }, once));
    text = outs[0].stdout;
  }
  return { sPerPage: (performance.now() - t0) / 1000 / copies, cpuPerPage: (cpuSeconds() - c0) / copies, text };
}

let hasNative = true;
try { await run('tesseract', ['--version']); } catch { hasNative = false; }
console.log(`cores ${cores}, ${copies} pages per measurement, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
for (const [file, gt] of files) {
  const full = path.join(dir, file);
  if (!fs.existsSync(full)) { console.log(`${file}: corpus absent, skipped`); continue; }
  const bytes = fs.readFileSync(full);
  const m = await sharp(bytes).metadata();
  const page = { number: 1, widthPt: (m.width / 300) * 72, heightPt: (m.height / 300) * 72 };
  const expected = fs.readFileSync(path.join(dir, `${gt}.expected.txt`), 'utf8');
  const row = (name, r) => { console.log(`${file} ${m.width}x${m.height}  ${name.padEnd(28)} ${r.sPerPage.toFixed(2)} s/page  CPU ${r.cpuPerPage.toFixed(2)} s/page  CER ${(cer(r.text, expected) * 100).toFixed(2)} %`); };
  for (const engine of engines) {
    if (engine === 'native' && !hasNative) { console.log('quire-native: no tesseract on PATH, skipped'); continue; }
    row(`quire-${engine} 1 worker`, await quire(1, bytes, page, undefined, engine));
    row(`quire-${engine} ${cores} workers`, await quire(cores, bytes, page, undefined, engine));
  }
  const hasFast = !noFast && fs.existsSync(path.join(DEBIAN_FAST, 'eng.traineddata'));
  if (hasFast && engines.includes('wasm')) {
    row('quire-wasm 1 w. deb-fast', await quire(1, bytes, page, DEBIAN_FAST));
    row(`quire-wasm ${cores} w. deb-fast`, await quire(cores, bytes, page, DEBIAN_FAST));
  }
  if (hasNative) {
    const bestInt = await nativeTessdataDir('eng'); // the packaged model quire reads, unpacked
    row('native 1 process best_int', await native(1, full, bestInt));
    row(`native ${cores} processes best_int`, await native(cores, full, bestInt));
    if (hasFast) {
      row('native 1 process deb-fast', await native(1, full, DEBIAN_FAST));
      row(`native ${cores} processes deb-fast`, await native(cores, full, DEBIAN_FAST));
    }
  }
}
console.log(`peak RSS of this process (all @quire/ocr runs): ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
