import fs from 'node:fs';
const W = '/work/wt-actualtext/packages/formats/pdf/dist/';
const at = await import(W + 'actualtext.js');
const { readPdf } = await import(W + 'index.js');
await (await import(W + 'pdfjs.js')).loadPdfjs();
await import('pdf-lib'); // module load excluded (measured separately)
const orig = at.MarkedContentReader.prototype.spans;
let calls = 0, ms = 0, first = 0, withAT = 0;
at.MarkedContentReader.prototype.spans = async function (n) {
  const t = performance.now(); const r = await orig.call(this, n); const d = performance.now() - t;
  if (calls === 0) first = d; calls++; ms += d; if (r?.some((s) => s.actualText !== undefined)) withAT++;
  return r;
};
for (const f of process.argv.slice(2)) {
  calls = 0; ms = 0; first = 0; withAT = 0;
  const t0 = performance.now();
  const r = await readPdf(new Uint8Array(fs.readFileSync(f)));
  const total = performance.now() - t0;
  console.log(f.split('/').slice(-2).join('/').padEnd(50), 'pages', String(r.pageCount).padStart(4), 'tagged pages', String(calls).padStart(4), 'with ActualText', withAT, 'first (load+scan) ms', first.toFixed(0), 'all spans ms', ms.toFixed(0), 'readPdf ms', total.toFixed(0), r.warnings.filter(w => /ActualText/.test(w)).length ? 'WARN ' + r.warnings.filter(w => /ActualText/.test(w)).join('; ') : '');
}
process.exit(0);
