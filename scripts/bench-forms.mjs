// Form speed on a generated 10-page form (pdf-lib), fillable (AcroForm) and flat (drawn boxes, lines, squares):
//  - package level: detectForm, instruction mapping + fillForm (which re-reads the output), clearForm;
//  - over HTTP: synchronous POST /form/detect and /form/fill (form_id chaining) against an embedded server.
// Medians of `runs` runs after one warm-up. Usage: pnpm bench:forms [runs=5]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { clearForm, detectForm, fillForm, mapFormInstructionsByLabel, toFillableCells } from '../packages/forms/dist/index.js';
import { createLanguageModel } from '../packages/models/dist/index.js';
import { loadConfig } from '../packages/runtime/dist/index.js';
import { startEmbedded } from '../apps/cli/dist/index.js';

const runs = Number(process.argv[2] ?? 5);
const PAGES = 10;
const ROWS = ['Full name', 'Street address', 'City', 'Phone number', 'Email address', 'Employer', 'Job title', 'Reference number'];

/** Per page: 8 labelled text fields, 2 checkboxes; `fillable` adds AcroForm widgets, else boxes and squares are drawn. */
async function makeForm(fillable) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const form = fillable ? doc.getForm() : undefined;
  for (let p = 1; p <= PAGES; p++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`Application, section ${p}`, { x: 50, y: 740, size: 16, font });
    ROWS.forEach((name, r) => {
      const y = 690 - r * 50;
      page.drawText(`${name} ${p}:`, { x: 50, y: y + 6, size: 10, font });
      if (form) form.createTextField(`s${p}.f${r}`).addToPage(page, { x: 200, y, width: 300, height: 20, font });
      else page.drawRectangle({ x: 200, y, width: 300, height: 20, borderColor: rgb(0, 0, 0), borderWidth: 0.8 });
    });
    ['Resident', 'Student'].forEach((name, k) => {
      const x = 50 + k * 200, y = 260;
      if (form) form.createCheckBox(`s${p}.c${k}`).addToPage(page, { x, y, width: 12, height: 12 });
      else page.drawRectangle({ x, y, width: 12, height: 12, borderColor: rgb(0, 0, 0), borderWidth: 0.8 });
      page.drawText(`${name} ${p}`, { x: x + 18, y: y + 2, size: 10, font });
    });
  }
  return doc.save();
}

const instructions = Array.from({ length: PAGES }, (_, i) => i + 1).flatMap((p) => [
  `Full name ${p}: Jane Doe`, `City ${p}: Lyon`, `Email address ${p}: jane${p}@example.com`, `Reference number ${p}: R-${p}00`, `tick Resident ${p}`,
]).join('\n');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function time(fn) {
  await fn();
  const ms = [];
  let out;
  for (let i = 0; i < runs; i++) { const t = performance.now(); out = await fn(); ms.push(performance.now() - t); }
  return { ms: median(ms), out };
}

const model = createLanguageModel(undefined, { mapFormInstructions: mapFormInstructionsByLabel });
const rows = [];
for (const fillable of [true, false]) {
  const pdf = await makeForm(fillable);
  const det = await time(() => detectForm(pdf));
  const cells = det.out.cells;
  const fill = await time(async () => {
    const a = await model.mapFormInstructions({ instructions, cells: toFillableCells(cells) });
    return fillForm(pdf, cells, a.assignments);
  });
  const clear = await time(() => clearForm(fill.out.pdf, fill.out.cells, { overlays: fill.out.overlays }));
  rows.push({ kind: fillable ? 'AcroForm' : 'flat', cells: cells.length, filled: fill.out.filled, cleared: clear.out.cleared, detect: det.ms, fill: fill.ms, clear: clear.ms, bytes: pdf.length });
}

// Over HTTP, embedded mode (PGlite in memory, filesystem blobs), one request at a time.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-forms-'));
const key = 'qk_bench_forms_key_0123456789ab';
const server = await startEmbedded(loadConfig({ QUIRE_HOST: '127.0.0.1', QUIRE_PORT: '0', QUIRE_DATA_DIR: dataDir, QUIRE_BOOTSTRAP_API_KEY: key, QUIRE_LOG_LEVEL: 'silent' }), { inMemoryDatabase: true });
const http = [];
try {
  for (const fillable of [true, false]) {
    const pdf = await makeForm(fillable);
    const call = async (op, fields, file) => {
      const fd = new FormData();
      for (const [k, v] of Object.entries(fields)) fd.append(k, v);
      if (file) fd.append('file', new Blob([Buffer.from(file)], { type: 'application/pdf' }), 'form.pdf');
      const res = await fetch(`${server.url}/form/${op}`, { method: 'POST', body: fd, headers: { 'x-api-key': key } });
      const body = await res.json();
      if (res.status !== 200) throw new Error(`${op}: ${res.status} ${JSON.stringify(body)}`);
      return body;
    };
    const det = await time(() => call('detect', {}, pdf));
    const fill = await time(() => call('fill', { form_id: det.out.form_id, instructions }));
    http.push({ kind: fillable ? 'AcroForm' : 'flat', detect: det.ms, fill: fill.ms, filled: fill.out.fields_filled });
  }
} finally {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const f = (ms) => `${ms.toFixed(0)} ms (${(ms / PAGES).toFixed(0)} ms/page)`;
console.log(`Forms benchmark: generated ${PAGES}-page forms, 10 cells per page; ${instructions.split("\n").length} instructions (5 per page); median of ${runs} runs after a warm-up`);
console.log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}\n`);
console.log('| form | cells | detect | fill (map + write + re-read) | clear | cells filled / cleared |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.kind} (${(r.bytes / 1024).toFixed(0)} KB) | ${r.cells} | ${f(r.detect)} | ${f(r.fill)} | ${f(r.clear)} | ${r.filled} / ${r.cleared} |`);
console.log('\nOver HTTP (embedded, synchronous calls):\n');
console.log('| form | POST /form/detect (upload) | POST /form/fill (form_id) | fields_filled |');
console.log('|---|---|---|---|');
for (const r of http) console.log(`| ${r.kind} | ${f(r.detect)} | ${f(r.fill)} | ${r.filled} |`);
