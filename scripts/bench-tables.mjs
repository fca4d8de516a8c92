// Tables step throughput: the pdf-tables corpus is extracted once, then buildTables (structure, merge,
// HTML and JSON output) runs over the saved documents `rounds` times. Extraction time is reported apart.
// Usage: node scripts/build.mjs && node scripts/bench-tables.mjs [dir] [rounds=20]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractDocument } from '../packages/extract/dist/index.js';
import { buildTables } from '../packages/tables/dist/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.resolve(process.argv[2] ?? path.join(root, '../shared/corpus/pdf-tables'));
const rounds = Number(process.argv[3] ?? 20);
const docs = [];
let extractMs = 0, pages = 0;
for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.pdf')).sort()) {
  const t0 = performance.now();
  const doc = await extractDocument(new Uint8Array(fs.readFileSync(path.join(dir, f))), 'pdf');
  extractMs += performance.now() - t0;
  pages += doc.pages.length;
  docs.push(JSON.parse(JSON.stringify(doc))); // as the worker sees it: the saved JSON
}
for (const format of ['html', 'json']) {
  for (const merge of [false, true]) {
    let tables = 0;
    buildTables(docs[0], { format, merge }); // warm-up
    const t0 = performance.now();
    for (let r = 0; r < rounds; r++) for (const d of docs) tables += buildTables(d, { format, merge }).tables.length;
    const s = (performance.now() - t0) / 1000;
    console.log(`tables step ${format.padEnd(4)} merge=${String(merge).padEnd(5)}: ${(tables / s).toFixed(0)} tables/s (${tables / rounds} tables per round, ${rounds} rounds, ${s.toFixed(2)} s)`);
  }
}
console.log(`extraction of the same corpus (once): ${docs.length} PDFs, ${pages} pages in ${(extractMs / 1000).toFixed(1)} s (${(pages / (extractMs / 1000)).toFixed(1)} pages/s)`);
console.log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), node ${process.version}`);
