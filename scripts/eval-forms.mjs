// Form accuracy against the corpus ground truth (NAME.fields.json: the AcroForm inventory read with qpdf).
//  1. Detection on every NAME.pdf with a NAME.fields.json: recall and precision of fields (push buttons
//     excluded), type accuracy (choice fields count as text, as the spec's FormCell has no choice type),
//     and box IoU. Flat copies (NAME.<variant>.pdf without their own fields.json) are scored against the
//     original inventory.
//  2. Fill per form from generated plain-language instructions ("<label>: <value>" per text cell, "check
//     '<option>' for <label>" per checkbox) mapped by the LanguageModel port (built-in engine unless
//     QUIRE_LLM_BASE_URL is set), values read back from the output PDF by detecting it again.
//  3. Fill the way people write (AcroForms): instructions generated from the printed labels only (never field
//     names or tooltips) in three styles — "label: value" lines, one sentence, a paragraph about the person —
//     scored by values landing in the right field.
// The validation part of the corpus (scripts/lib/corpus.mjs) is reported in aggregate only: per-file rows and
// misses cover the dev part.
// Usage: pnpm eval:forms [dir] [--part dev|validation|all] [--summary FILE]
//        (dir: default ../shared/corpus/pdf-forms relative to the repo; runs on the built dist)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { detectForm, fillForm, mapFormInstructionsByLabel, toFillableCells } from '../packages/forms/dist/index.js';
import { createLanguageModel, normalizeLabel } from '../packages/models/dist/index.js';
import { loadConfig } from '../packages/runtime/dist/index.js';
import { instructionsFor, labelledInstructions, readBack } from './lib/form-instructions.mjs';
import { partOf, partsFromArgs } from './lib/corpus.mjs';
import { ratioFigure, takeOption, writeSummary } from './lib/eval-summary.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const parts = partsFromArgs(args);
takeOption(args, 'part');
const summaryOut = takeOption(args, 'summary');
const dir = path.resolve(args.find((a) => !a.startsWith('--')) ?? path.join(root, '../shared/corpus/pdf-forms'));
if (!fs.existsSync(dir)) { console.error(`no such directory: ${dir}`); process.exit(1); }
const model = createLanguageModel(loadConfig().llm, { mapFormInstructions: mapFormInstructionsByLabel });
const STYLES = ['lines', 'sentence', 'paragraph'];

const iou = (a, b) => {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]), h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  const i = w > 0 && h > 0 ? w * h : 0;
  const u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - i;
  return u > 0 ? i / u : 0;
};
const inside = (p, b) => p[0] >= b[0] - 1e-3 && p[0] <= b[2] + 1e-3 && p[1] >= b[1] - 1e-3 && p[1] <= b[3] + 1e-3;

/** Scoring units: one per text/signature cell, one per checkbox box (a radio group has several). */
const units = (cells) => cells.flatMap((c) => (c.type === 'checkbox'
  ? (c.checkbox_details ?? []).map((d) => ({ type: 'checkbox', page: c.page_number, centre: d.center_coord, box: c.checkbox_details.length === 1 ? c.bounding_box : undefined }))
  : [{ type: c.type, page: c.page_number, centre: [(c.bounding_box[0] + c.bounding_box[2]) / 2, (c.bounding_box[1] + c.bounding_box[3]) / 2], box: c.bounding_box }]));

function scoreDetection(cells, gtFields, minScore) {
  const us = units(cells);
  const widgets = gtFields.filter((g) => g.type !== 'button');
  const used = new Set();
  const r = { gt: widgets.length, found: 0, typeOk: 0, iouSum: 0, iouN: 0, misses: [] };
  for (const g of widgets) {
    const want = g.type === 'choice' ? 'text' : g.type;
    let best = -1, bestS = 0;
    us.forEach((u, i) => {
      if (used.has(i) || u.page !== g.page_number) return;
      const s = Math.max(u.box ? iou(u.box, g.bounding_box) : inside(u.centre, g.bounding_box) ? 0.75 : 0, inside(u.centre, g.bounding_box) ? 0.5 : 0);
      if (s > bestS) { bestS = s; best = i; }
    });
    if (best < 0 || bestS < minScore) { r.misses.push(`${g.name} (${g.type})`); continue; }
    used.add(best); r.found++;
    if (us[best].type === want) r.typeOk++; else r.misses.push(`${g.name}: type ${g.type} → ${us[best].type}`);
    if (us[best].box) { r.iouSum += iou(us[best].box, g.bounding_box); r.iouN++; }
  }
  const pages = new Set(widgets.map((g) => g.page_number));
  r.detOnPages = us.filter((u) => pages.has(u.page)).length;
  r.matched = used.size;
  return r;
}

async function fillTest(pdf) {
  const { cells } = await detectForm(pdf);
  const { text, expected } = instructionsFor(cells, normalizeLabel);
  const answer = await model.mapFormInstructions({ instructions: text, cells: toFillableCells(cells) });
  let r;
  try {
    r = await fillForm(pdf, cells, answer.assignments.map((a) => ({ cellIndex: a.cellIndex, value: a.value })));
  } catch (err) {
    // a refused fill (an encrypted PDF: FILE_003) lands none of the instructed values
    return { cells: cells.length, asked: expected.size, landed: 0, unmatched: answer.unmatched.length, unapplied: expected.size, error: `${err.code ?? ''} ${err.message}`.trim() };
  }
  const after = (await detectForm(r.pdf)).cells;
  let landed = 0;
  for (const [i, v] of expected) if (after[i] && readBack(after[i]) === v) landed++;
  return { cells: cells.length, asked: expected.size, landed, unmatched: answer.unmatched.length, unapplied: r.unapplied.length };
}

/** Per style: instructions from the printed labels, mapped, filled, read back; values landing in the field they were meant for. */
async function styledFillTest(pdf, cells) {
  const out = {};
  for (const style of STYLES) {
    const { text, expected } = labelledInstructions(cells, normalizeLabel, style);
    if (!expected.size) { out[style] = { asked: 0, landed: 0 }; continue; }
    try {
      const answer = await model.mapFormInstructions({ instructions: text, cells: toFillableCells(cells) });
      const r = await fillForm(pdf, cells, answer.assignments.map((a) => ({ cellIndex: a.cellIndex, value: a.value })));
      const after = (await detectForm(r.pdf)).cells;
      let landed = 0;
      for (const [i, v] of expected) if (after[i] && readBack(after[i]) === v) landed++;
      out[style] = { asked: expected.size, landed };
    } catch {
      out[style] = { asked: expected.size, landed: 0 }; // a refused fill lands nothing
    }
  }
  return out;
}

const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)}%` : 'n/a');
const all = fs.readdirSync(dir);
const gtFiles = all.filter((f) => f.endsWith('.fields.json')).sort();
const rows = [];
const emptyTotals = () => ({ gt: 0, found: 0, typeOk: 0, matched: 0, detOnPages: 0, iouSum: 0, iouN: 0 });
const emptyFill = () => ({ asked: 0, landed: 0, cells: 0, failed: 0 });
const totals = Object.fromEntries(parts.map((p) => [p, { acro: emptyTotals(), flat: emptyTotals() }]));
const fill = Object.fromEntries(parts.map((p) => [p, { acro: emptyFill(), flat: emptyFill() }]));
const styled = Object.fromEntries(parts.map((p) => [p, Object.fromEntries(STYLES.map((st) => [st, { asked: 0, landed: 0 }]))]));
const styledRows = [];
const misses = [];
const detectFailed = Object.fromEntries(parts.map((p) => [p, 0]));
const t0 = performance.now();
for (const f of gtFiles) {
  const base = f.slice(0, -'.fields.json'.length);
  const part = partOf('pdf-forms', f);
  if (!parts.includes(part)) continue;
  const gt = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
  const variants = [[`${base}.pdf`, 'acro'], ...all.filter((p) => p.startsWith(`${base}.`) && p.endsWith('.pdf') && p !== `${base}.pdf` && !all.includes(p.replace(/\.pdf$/, '.fields.json'))).map((p) => [p, 'flat'])];
  for (const [file, kind] of variants) {
    if (!all.includes(file)) continue;
    const pdf = new Uint8Array(fs.readFileSync(path.join(dir, file)));
    let cells, detected = true;
    try {
      ({ cells } = await detectForm(pdf));
    } catch (err) {
      // a file detection refuses is counted (its fields not found), not a crash of the whole eval
      cells = [];
      detected = false;
      detectFailed[part]++;
      if (part === 'dev') misses.push(`${file}: detection failed: ${`${err.code ?? ''} ${err.message}`.trim()}`);
    }
    const s = scoreDetection(cells, gt.fields, kind === 'acro' ? 0 : 0.1);
    for (const k of Object.keys(totals[part][kind])) totals[part][kind][k] += s[k];
    const ft = detected ? await fillTest(pdf) : { cells: 0, asked: 0, landed: 0 };
    for (const k of ['asked', 'landed', 'cells']) fill[part][kind][k] += ft[k];
    if (ft.error) fill[part][kind].failed++;
    if (kind === 'acro' && detected) {
      const sf = await styledFillTest(pdf, cells);
      for (const st of STYLES) { styled[part][st].asked += sf[st].asked; styled[part][st].landed += sf[st].landed; }
      if (part === 'dev') styledRows.push(`| ${file} | ${STYLES.map((st) => `${sf[st].landed}/${sf[st].asked}`).join(' | ')} |`);
    }
    if (part !== 'dev') continue;
    if (kind === 'acro') misses.push(...s.misses.map((m) => `${file}: ${m}`));
    rows.push(`| ${file} | ${kind === 'acro' ? 'AcroForm' : 'flat copy'} | ${s.gt} | ${s.found} | ${s.typeOk} | ${pct(s.matched, s.detOnPages)} | ${s.iouN ? (s.iouSum / s.iouN).toFixed(3) : 'n/a'} | ${ft.landed}/${ft.asked} of ${ft.cells} cells${ft.error ? ` (fill refused: ${ft.error})` : ''} |`);
  }
}
const secs = ((performance.now() - t0) / 1000).toFixed(1);
const line = (part, k, name) => {
  const t = totals[part][k], fl = fill[part][k];
  return `| ${part} | ${name} | ${t.gt} | ${pct(t.found, t.gt)} | ${pct(t.matched, t.detOnPages)} | ${pct(t.typeOk, t.found)} | ${t.iouN ? (t.iouSum / t.iouN).toFixed(3) : 'n/a'} | ${pct(fl.landed, fl.asked)} (${fl.landed}/${fl.asked}; ${fl.cells} cells${fl.failed ? `; fill refused on ${fl.failed} files` : ''}) |`;
};
console.log(`Forms evaluation: ${dir} (model: ${model.id}; ${secs} s)\n`);
if (parts.includes('dev')) {
  console.log('Dev part, per file:\n| file | kind | fields | found | type ok | precision | mean IoU | fill landed |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
}
console.log('\n| part | set | fields (no push buttons) | recall | precision | type accuracy | mean box IoU | instructed values landed |');
console.log('|---|---|---|---|---|---|---|---|');
for (const part of parts) { console.log(line(part, 'acro', 'AcroForm PDFs')); console.log(line(part, 'flat', 'flat copies')); }
console.log(`\nFill from printed labels, three styles (AcroForms; engine: ${model.id}):`);
if (parts.includes('dev')) {
  console.log('| file (dev) | lines | sentence | paragraph |\n|---|---|---|---|');
  for (const r of styledRows) console.log(r);
}
console.log('\n| part | lines | sentence | paragraph | all styles |\n|---|---|---|---|---|');
for (const part of parts) {
  const t = styled[part], asked = STYLES.reduce((n, st) => n + t[st].asked, 0), landed = STYLES.reduce((n, st) => n + t[st].landed, 0);
  console.log(`| ${part} | ${STYLES.map((st) => `${pct(t[st].landed, t[st].asked)} (${t[st].landed}/${t[st].asked})`).join(' | ')} | ${pct(landed, asked)} |`);
}
for (const part of parts) if (detectFailed[part]) console.log(`${part} part: detection failed on ${detectFailed[part]} files`);
if (misses.length) console.log(`\nAcroForm misses / wrong types (dev part):\n${misses.map((m) => `  ${m}`).join('\n')}`);

const figure = (pick) => Object.fromEntries(parts.map((p) => [p, pick(totals[p], fill[p])]));
const setRows = (k, kind) => [
  { kind, measure: 'field recall', unit: 'fields', ...figure((t) => ratioFigure(t[k].found, t[k].gt)) },
  { kind, measure: 'detection precision', unit: 'detections', ...figure((t) => ratioFigure(t[k].matched, t[k].detOnPages)) },
  { kind, measure: 'type accuracy', unit: 'found fields', ...figure((t) => ratioFigure(t[k].typeOk, t[k].found)) },
  { kind, measure: 'instructed values landed', unit: 'instructions', ...figure((_, fl) => ratioFigure(fl[k].landed, fl[k].asked)) },
];
const styleRows = STYLES.map((st) => ({ kind: 'forms AcroForm', measure: `values landed from printed labels (${st})`, unit: 'instructions', ...Object.fromEntries(parts.map((p) => [p, ratioFigure(styled[p][st].landed, styled[p][st].asked)])) }));
writeSummary(summaryOut, { eval: 'forms', parts, seconds: process.uptime(), rows: [...setRows('acro', 'forms AcroForm'), ...setRows('flat', 'forms flat copies'), ...styleRows] });
