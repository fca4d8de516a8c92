import fs from 'node:fs';
const { MarkedContentReader } = await import('../packages/formats/pdf/dist/actualtext.js');
for (const f of process.argv.slice(2)) {
  const r = new MarkedContentReader(new Uint8Array(fs.readFileSync(f)));
  const ts = [];
  for (let i = 0; i < 4; i++) { const t = performance.now(); await r.spans(1); ts.push((performance.now() - t).toFixed(1)); }
  console.log(f.split('/').pop(), ts.join(' '));
}
