// bench-ocr.mjs --generated: OCR engines on two pages drawn here at 300 DPI (an A4 text page and a photographed
// receipt slip), each engine in a child process (its peak RSS its own). See bench-ocr.mjs for the usage.
import { execFile, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import sharp from 'sharp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2).filter((a) => a !== '--generated');
const flag = (name) => { const i = args.indexOf(name); if (i < 0) return undefined; const v = args[i + 1]; args.splice(i, 2); return v; };
const child = flag('--child');
const copies = Number(flag('--copies') ?? args.find((a) => /^\d+$/.test(a)) ?? 3);
const photoCount = Number(flag('--corpus-photos') ?? 0);
const onlyCorpus = args.includes('--only-corpus');
const cores = os.availableParallelism();

const FONT = 'BenchSans';
function ensureFont() {
  const dir = path.join(path.dirname(createRequire(path.join(root, 'package.json')).resolve('pdfjs-dist/package.json')), 'standard_fonts');
  if (!GlobalFonts.registerFromPath(path.join(dir, 'LiberationSans-Regular.ttf'), FONT)) throw new Error('LiberationSans not found in pdfjs-dist');
}

const WORDS = 'the of and to in is for on that by with from at as be this are or an it was which not has have their more also other been new were its may into than only most after such over some time first two when made three years these many each between would under three both used while during those where they since part then through'.split(' ');

/** An A4 page at 300 DPI: 44 lines of 10 pt prose with numbers, 1 inch margins. */
async function a4Page() {
  ensureFont();
  const W = 2480, H = 3508, px = (10 / 72) * 300;
  const c = createCanvas(W, H), g = c.getContext('2d');
  g.fillStyle = '#fff'; g.fillRect(0, 0, W, H); g.fillStyle = '#111'; g.font = `${px}px ${FONT}`;
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const lines = [];
  for (let i = 0; i < 44; i++) {
    const words = [];
    while (g.measureText(words.join(' ')).width < W - 600 - 250) words.push(rand() < 0.12 ? String(Math.floor(rand() * 9000) + 100) : WORDS[Math.floor(rand() * WORDS.length)]);
    lines.push(words.join(' '));
    g.fillText(lines[i], 300, 300 + px + i * px * 1.55);
  }
  const png = await sharp(Buffer.from(c.toBuffer('image/png'))).greyscale().png().toBuffer();
  return { name: 'A4 10pt text 300dpi', png, widthPt: 595, heightPt: 842, lines };
}

/** A receipt slip (80 mm, 9 pt lines) photographed at ~300 DPI on a darker desk: turned, unevenly lit, blurred. */
async function receiptPhoto() {
  ensureFont();
  const slipW = 945, slipH = 2100, px = (9 / 72) * 300;
  const items = ['Sourdough loaf', 'Oat milk 1L', 'Free range eggs', 'Cheddar 200g', 'Bananas 1.2kg', 'Olive oil 500ml', 'Tomatoes', 'Coffee beans', 'Dark chocolate', 'Basmati rice 1kg', 'Greek yoghurt', 'Orange juice'];
  let seed = 11;
  const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const lines = ['HARBOUR STREET GROCERS', '12 Harbour Street Leith', 'VAT No 284 1932 55', 'Till 3 Op 117 14:32'];
  let total = 0;
  for (const it of items) { const p = Math.round(rand() * 900 + 50) / 100; total += p; lines.push(`${it} ${p.toFixed(2)}`); }
  lines.push(`TOTAL ${total.toFixed(2)}`, `CARD ${total.toFixed(2)}`, 'Thank you for shopping');
  const c = createCanvas(slipW, slipH), g = c.getContext('2d');
  g.fillStyle = '#f4f2ea'; g.fillRect(0, 0, slipW, slipH); g.fillStyle = '#2a2a2a'; g.font = `${px}px ${FONT}`;
  lines.forEach((l, i) => {
    const sp = l.lastIndexOf(' ');
    const priced = /\d\.\d\d$/.test(l);
    if (priced) { g.fillText(l.slice(0, sp), 60, 160 + i * px * 1.9); const w = g.measureText(l.slice(sp + 1)).width; g.fillText(l.slice(sp + 1), slipW - 60 - w, 160 + i * px * 1.9); }
    else g.fillText(l, 60, 160 + i * px * 1.9);
  });
  const slip = await sharp(Buffer.from(c.toBuffer('image/png'))).rotate(4, { background: { r: 70, g: 62, b: 55 } }).png().toBuffer();
  const meta = await sharp(slip).metadata();
  const W = 1800, H = 2600;
  const photo = await sharp({ create: { width: W, height: H, channels: 3, background: { r: 70, g: 62, b: 55 } } })
    .composite([{ input: slip, left: Math.round((W - meta.width) / 2), top: Math.round((H - meta.height) / 2) }]).greyscale().raw().toBuffer({ resolveWithObject: true });
  // light falling off towards one corner, a little blur and sensor noise
  const d = photo.data;
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const i = y * W + x;
    d[i] = Math.max(0, Math.min(255, d[i] * (1 - 0.35 * (x / W) * (y / H)) + (rand() - 0.5) * 14));
  }
  const png = await sharp(d, { raw: { width: W, height: H, channels: 1 } }).blur(1.1).jpeg({ quality: 85 }).toBuffer();
  return { name: 'receipt photo 300dpi', png, widthPt: (W / 300) * 72, heightPt: (H / 300) * 72, lines: lines.map((l) => l.replace(/\s+/g, ' ')) };
}

/** Share of the drawn words read, in order (longest common subsequence of the word sequences). */
function wordAccuracy(read, expected) {
  const a = read.split(/\s+/).filter(Boolean), e = expected.split(/\s+/).filter(Boolean);
  let prev = new Array(e.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const cur = [0];
    for (let j = 1; j <= e.length; j++) cur[j] = a[i - 1] === e[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    prev = cur;
  }
  return prev[e.length] / e.length;
}

const cpuSeconds = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };

/**
 * --corpus-photos N: the first N receipt images (sroie-*) of the corpus's images folder in its dev part —
 * never its validation part (VALIDATION.md) — read as extraction reads them (readImage: page size from the
 * image, the content crop, recognizePage). The drawn receipt trips neither of tesseract's receipt rules
 * (small rows scaled up, a second reading below 85 confidence); real receipt photos trip both.
 */
async function corpusPhotos(n) {
  if (n <= 0) return [];
  const { partOf } = await import('../lib/corpus.mjs');
  const dir = path.resolve(root, '../shared/corpus/images');
  if (!fs.existsSync(dir)) { console.error(`${dir}: corpus absent, --corpus-photos skipped`); return []; }
  return fs.readdirSync(dir).filter((f) => /^sroie-.*\.jpe?g$/i.test(f) && partOf('images', f) === 'dev').sort().slice(0, n)
    .map((f) => ({ name: f, bytes: fs.readFileSync(path.join(dir, f)) }));
}

/** CPU seconds per page of each corpus photo with one worker (the pool warmed on the page first). */
async function measureCorpus(pool, photos) {
  const { readImage } = await import('../../packages/formats/image/dist/index.js');
  const out = [];
  for (const p of photos) {
    const [warm] = (await readImage(p.bytes, { ocr: pool })).pages;
    const t0 = performance.now(), c0 = cpuSeconds();
    await Promise.all(Array.from({ length: copies }, () => readImage(p.bytes, { ocr: pool })));
    out.push({ page: p.name, workers: 1, sPerPage: (performance.now() - t0) / 1000 / copies, cpuPerPage: (cpuSeconds() - c0) / copies, words: null, used: warm.ocr?.engine });
  }
  return out;
}

async function measure(engine) {
  const { createOcrPool } = await import('../../packages/ocr/dist/index.js');
  const pages = onlyCorpus ? [] : [await a4Page(), await receiptPhoto()];
  const out = [];
  const photos = await corpusPhotos(photoCount);
  if (photos.length) {
    const pool = await createOcrPool({ size: 1, engine });
    try { out.push(...await measureCorpus(pool, photos)); } finally { await pool.close(); }
  }
  for (const size of pages.length ? [1, cores] : []) {
    const pool = await createOcrPool({ size, engine });
    try {
      for (const p of pages) {
        const page = { number: 1, widthPt: p.widthPt, heightPt: p.heightPt };
        // warm every worker (they start lazily: a cold one would count its model loading in the measurement)
        const [first] = await Promise.all(Array.from({ length: size }, () => pool.recognize(p.png, page)));
        const t0 = performance.now(), c0 = cpuSeconds();
        await Promise.all(Array.from({ length: copies }, () => pool.recognize(p.png, page)));
        out.push({ page: p.name, workers: size, sPerPage: (performance.now() - t0) / 1000 / copies, cpuPerPage: (cpuSeconds() - c0) / copies,
          words: wordAccuracy(first.words.map((w) => w.text).join(' '), p.lines.join(' ')), used: first.ocr?.engine });
      }
    } finally { await pool.close(); }
  }
  return { rows: out, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) };
}

if (child) {
  process.stdout.write(JSON.stringify(await measure(child)));
} else {
  const hasNative = spawnSync('tesseract', ['--version']).status === 0;
  const engines = (flag('--engines') ?? `wasm,onnx,auto${hasNative ? ',native' : ''}`).split(',');
  console.log(`cores ${cores}, ${copies} pages per measurement after a warm page per worker, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`${'engine'.padEnd(7)} ${'page'.padEnd(22)} workers  s/page  CPU s/page  words  read by`);
  for (const engine of engines) {
    const { stdout } = await promisify(execFile)(process.execPath, [fileURLToPath(import.meta.url), '--child', engine, '--copies', String(copies), '--corpus-photos', String(photoCount), ...(onlyCorpus ? ['--only-corpus'] : [])], { cwd: root, maxBuffer: 1 << 24 });
    const r = JSON.parse(stdout);
    for (const row of r.rows) console.log(`${engine.padEnd(7)} ${row.page.padEnd(22)} ${String(row.workers).padStart(7)} ${row.sPerPage.toFixed(2).padStart(7)} ${row.cpuPerPage.toFixed(2).padStart(11)} ${(row.words === null ? '-' : row.words.toFixed(3)).padStart(6)}  ${row.used}`);
    console.log(`${engine.padEnd(7)} peak RSS ${r.peakRssMb} MB`);
  }
}
