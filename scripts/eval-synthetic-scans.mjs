// Scans made from born-digital pages: every page of the pdf-text folder's PDFs is rendered (pdftoppm, 300 DPI
// grey) and turned into the kinds of scan users send — a clean grey page, a 1-bit TIFF, the page upside down, a
// 150 DPI JPEG at quality 40, a sheet fed 2° askew — then read back through extractDocument with the OCR
// engine and scored against the page's own text layer (pdftotext): word F1 and reading order. The text
// layer is the truth of what is printed, so no hand transcription is needed, and a page that reads well from
// its text layer but badly from its scan points at the scan path (crop, skew, orientation, line building).
// The validation part is reported in aggregate only (per-file rows cover the dev part).
// Usage: node scripts/build.mjs && node scripts/eval-synthetic-scans.mjs [--variants=grey300,bilevel300,...]
//        [--pages=N (first N pages of each PDF, default 2)] [--part=dev|validation|all] [--engine=auto|wasm|onnx]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import sharp from 'sharp';
import { extractDocument } from '../packages/extract/dist/index.js';
import { renderExtraction } from '../packages/render/dist/index.js';
import { createOcrPool } from '../packages/ocr/dist/index.js';
import { markdownToText, orderScore, wordScores, words } from './lib/text-metrics.mjs';
import { corpusDir, partOf } from './lib/corpus.mjs';
import { mean, takeOption } from './lib/eval-summary.mjs';

const args = process.argv.slice(2);
const VARIANTS = {
  grey300: async (png) => ({ bytes: png, format: 'png' }),
  bilevel300: async (png) => ({ bytes: await sharp(png).threshold(160).toColourspace('b-w').tiff({ bitdepth: 1, compression: 'ccittfax4' }).toBuffer(), format: 'tiff' }),
  rot180: async (png) => ({ bytes: await sharp(png).rotate(180).png().toBuffer(), format: 'png' }),
  jpeg150: async (png) => {
    const m = await sharp(png).metadata();
    return { bytes: await sharp(png).resize(Math.round(m.width / 2)).jpeg({ quality: 40 }).toBuffer(), format: 'jpeg' };
  },
  skew2: async (png) => ({ bytes: await sharp(png).rotate(2, { background: '#ffffff' }).png().toBuffer(), format: 'png' }),
};
const variants = (takeOption(args, 'variants') ?? Object.keys(VARIANTS).join(',')).split(',');
const maxPages = Number(takeOption(args, 'pages') ?? 2);
const partArg = takeOption(args, 'part') ?? 'all';
const parts = partArg === 'all' ? ['dev', 'validation'] : [partArg];
const engine = takeOption(args, 'engine') ?? 'auto';
for (const v of variants) if (!VARIANTS[v]) throw new Error(`unknown variant ${v} (${Object.keys(VARIANTS).join(', ')})`);

const folder = path.join(corpusDir(), 'pdf-text');
const pdfs = fs.readdirSync(folder).filter((f) => f.endsWith('.pdf')).sort();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-synthetic-scans-'));
const pool = await createOcrPool({ size: os.availableParallelism(), engine });
const rows = [];
try {
  for (const file of pdfs) {
    const part = partOf('pdf-text', file);
    if (!parts.includes(part)) continue;
    const src = path.join(folder, file);
    const pageCount = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [src]).toString())?.[1] ?? 1);
    for (let page = 1; page <= Math.min(pageCount, maxPages); page++) {
      const ref = execFileSync('pdftotext', ['-f', String(page), '-l', String(page), src, '-']).toString();
      if (words(ref).length < 20) continue; // a page with little text says little about reading it
      const base = path.join(tmp, 'page');
      execFileSync('pdftoppm', ['-f', String(page), '-l', String(page), '-r', '300', '-gray', '-png', '-singlefile', src, base]);
      const png = fs.readFileSync(`${base}.png`);
      for (const v of variants) {
        const { bytes, format } = await VARIANTS[v](png);
        const t0 = performance.now();
        const doc = await extractDocument(new Uint8Array(bytes), format, { ocr: pool });
        const text = markdownToText(renderExtraction(doc).markdown);
        const w = wordScores(text, ref);
        rows.push({ file, page, part, variant: v, f1: w.f1, order: orderScore(text, ref) ?? 0, seconds: (performance.now() - t0) / 1000 });
      }
    }
  }
} finally {
  await pool.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}

const f3 = (x) => (x === null ? '  –  ' : x.toFixed(3));
console.log(`Synthetic scans of pdf-text pages (engine ${engine}; ${variants.join(', ')}; first ${maxPages} pages per PDF)\n`);
console.log('dev part, per page:');
console.log(`${'file'.padEnd(42)} page ${variants.map((v) => v.padEnd(14)).join('')}`);
const devKeys = [...new Set(rows.filter((r) => r.part === 'dev').map((r) => `${r.file}#${r.page}`))];
for (const key of devKeys) {
  const [file, page] = key.split('#');
  const cells = variants.map((v) => { const r = rows.find((x) => x.file === file && String(x.page) === page && x.variant === v); return r ? `${f3(r.f1)}/${f3(r.order)} ` : ''.padEnd(14); });
  console.log(`${file.slice(0, 41).padEnd(42)} ${page.padStart(4)} ${cells.join('')}`);
}
console.log('\nword F1 / reading order, mean over pages:');
console.log(`${'part'.padEnd(12)} ${'pages'.padStart(5)} ${variants.map((v) => v.padEnd(14)).join('')}`);
for (const part of parts) {
  const mine = rows.filter((r) => r.part === part);
  const pages = new Set(mine.map((r) => `${r.file}#${r.page}`)).size;
  const cells = variants.map((v) => { const rs = mine.filter((r) => r.variant === v); return rs.length ? `${f3(mean(rs.map((r) => r.f1)))}/${f3(mean(rs.map((r) => r.order)))} ` : ''.padEnd(14); });
  console.log(`${part.padEnd(12)} ${String(pages).padStart(5)} ${cells.join('')}`);
}
console.log(`\n${rows.length} readings, ${(rows.reduce((s, r) => s + r.seconds, 0) / Math.max(1, rows.length)).toFixed(1)} s each on average`);
process.exit(0);
