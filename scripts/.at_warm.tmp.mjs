import fs from 'node:fs';
const at = await import('../packages/formats/pdf/dist/actualtext.js');
const { readPdf } = await import('../packages/formats/pdf/dist/index.js');
const orig = at.MarkedContentReader.prototype.spans;
let ms = 0;
at.MarkedContentReader.prototype.spans = async function (n) { const t = performance.now(); const r = await orig.call(this, n); ms += performance.now() - t; return r; };
for (const f of process.argv.slice(2)) {
  const b = fs.readFileSync(f); const rows = [];
  for (let i = 0; i < 6; i++) { ms = 0; const t0 = performance.now(); await readPdf(new Uint8Array(b)); rows.push(`${ms.toFixed(0)}/${(performance.now() - t0).toFixed(0)}`); }
  console.log(f.split('/').pop().padEnd(36), 'spans ms / readPdf ms, runs 1..6:', rows.join('  '));
}
process.exit(0);
