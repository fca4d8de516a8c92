// Layout throughput: layoutDocument over 200 generated two-column article pages (~500 words each, a
// running header, a heading, a short list and a page number), best of `rounds` after a warm-up.
// The pages come from the layout tests' PageBuilder (tests/fixtures/layout/builder.ts, type imports
// only), transpiled here with swc. Usage: node scripts/build.mjs && node scripts/bench-layout.mjs [pages=200] [rounds=5]
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformFile } from '@swc/core';
import { layoutDocument } from '../packages/layout/dist/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pageCount = Number(process.argv[2] ?? 200);
const rounds = Number(process.argv[3] ?? 5);

const { code } = await transformFile(path.join(root, 'tests/fixtures/layout/builder.ts'), {
  jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' },
});
const { PageBuilder, input, prose } = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);

function articlePage(n) {
  const p = new PageBuilder(n);
  p.text(72, 30, 'Journal of Layout Studies', { size: 8 });
  p.text(72, 60, `Section ${n} findings`, { size: 14, bold: true });
  for (const [x, seed] of [[72, n * 2], [318, n * 2 + 1]]) {
    let y = 90;
    for (let k = 0; k < 4; k++) y = p.paragraph(x, y, 220, prose(55, seed * 7 + k), { indent: 10 }) + 6;
    for (let k = 0; k < 2; k++) p.text(x, (y += 12.5), `• item ${k} ${prose(4, seed + k)}`);
  }
  p.text(300, 760, String(n), { size: 8 });
  return p.build();
}

const pages = Array.from({ length: pageCount }, (_, i) => articlePage(i + 1));
const words = pages.reduce((s, p) => s + p.words.length, 0);
let doc = layoutDocument(input(pages)); // warm-up: the first round mostly measures the JIT compiling the code
const times = [];
for (let round = 0; round < rounds; round++) {
  const t0 = performance.now();
  doc = layoutDocument(input(pages));
  times.push(performance.now() - t0);
}
if (doc.pages.length !== pageCount || doc.pages[Math.min(5, pageCount - 1)].elements.length <= 8) throw new Error('layout produced an unexpected document');
const best = Math.min(...times), median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
console.log(`layout: ${pageCount} pages, ${Math.round(words / pageCount)} words/page; best ${(best / pageCount).toFixed(3)} ms/page, median ${(median / pageCount).toFixed(3)} ms/page (${rounds} rounds after a warm-up)`);
console.log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), node ${process.version}`);
