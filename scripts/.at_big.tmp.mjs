import fs from 'node:fs';
import { PDFDocument } from 'pdf-lib';
const [src, n, out] = process.argv.slice(2);
const s = await PDFDocument.load(fs.readFileSync(src));
const d = await PDFDocument.create();
while (d.getPageCount() < Number(n)) for (const p of await d.copyPages(s, s.getPageIndices())) d.addPage(p);
fs.writeFileSync(out, await d.save({ useObjectStreams: true }));
