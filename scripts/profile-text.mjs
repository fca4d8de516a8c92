// Phase timing of text-layer extraction for one PDF: pdf.js reading (readPdf), layout, render.
// Usage: node scripts/build.mjs && node [--cpu-prof --cpu-prof-dir=DIR] scripts/profile-text.mjs FILE [REPEAT]
import fs from 'node:fs';
const { readPdf } = await import('../packages/formats/pdf/dist/index.js');
const { layoutPages } = await import('../packages/extract/dist/index.js');
const { renderExtraction } = await import('../packages/render/dist/index.js');
const bytes = new Uint8Array(fs.readFileSync(process.argv[2]));
const repeat = Number(process.argv[3] ?? 3);
const t = { read: 0, layout: 0, render: 0 };
let pages = 0;
for (let i = 0; i < repeat; i++) {
  let t0 = performance.now();
  const r = await readPdf(bytes, {});
  t.read += performance.now() - t0; t0 = performance.now();
  const doc = layoutPages({ format: 'pdf', pageCount: r.pageCount, pages: r.pages, outline: r.outline, title: r.title, warnings: r.warnings }, { footnoteReferences: true });
  t.layout += performance.now() - t0; t0 = performance.now();
  renderExtraction(doc);
  t.render += performance.now() - t0;
  pages += r.pageCount;
}
const ms = (x) => (x / pages).toFixed(2);
console.log(JSON.stringify({ pages, readMsPerPage: ms(t.read), layoutMsPerPage: ms(t.layout), renderMsPerPage: ms(t.render), totalPagesPerSec: (pages / ((t.read + t.layout + t.render) / 1000)).toFixed(1) }));
