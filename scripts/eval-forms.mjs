// Form accuracy against the corpus ground truth (NAME.fields.json: the AcroForm inventory read with qpdf).
//  1. Detection on every NAME.pdf with a NAME.fields.json: recall and precision of fields (push buttons
//     excluded), type accuracy (choice fields count as text, as the spec's FormCell has no choice type),
//     and box IoU. Flat copies (NAME.<variant>.pdf without their own fields.json) are scored against the
//     original inventory.
//  2. Fill per form from generated plain-language instructions ("<label>: <value>" per text cell, "check
//     '<option>' for <label>" per checkbox) mapped by the LanguageModel port (built-in engine unless
//     QUIRE_LLM_BASE_URL is set), values read back from the output PDF by detecting it again.
//  3. Fill the way people write (AcroForms and flat copies): instructions generated from the printed labels only (never field
//     names or tooltips) in three styles — "label: value" lines, one sentence, a paragraph about the person —
//     scored by values landing in the right field.
// Boxes on rotated pages: the ground truth gives them in the unrotated page, cells are as displayed (the
// spec's FormCell), so the ground truth is turned by the page's /Rotate before matching.
// Diagnostics: detection misses and extra detections counted by kind, and values that did not land counted by
// style, field type and reason (another field got it, the clause or value was cut, the label was not found).
// The validation part of the corpus (scripts/lib/corpus.mjs) is reported in aggregate only: per-file rows and
// misses cover the dev part; the diagnostics are counts for each part, never file or field names.
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

/** The page's /Rotate as the ground truth records it ({ page: degrees }, only for rotated pages). */
const pageTurn = (rotation, page) => ((Number(rotation?.[page] ?? rotation?.[String(page)] ?? 0) % 360) + 360) % 360;

/**
 * The ground truth gives boxes of a rotated page in the unrotated page (read with qpdf); cells are
 * normalized to the page as displayed (the spec's FormCell: multiply by the render's size), so the
 * ground truth is turned clockwise by the page's rotation before it is compared.
 */
function asDisplayed(g, rotation) {
  const k = pageTurn(rotation, g.page_number);
  if (!k) return g;
  const [x0, y0, x1, y1] = g.bounding_box;
  const pt = ([x, y]) => (k === 90 ? [1 - y, x] : k === 180 ? [1 - x, 1 - y] : [y, 1 - x]);
  const [a, b] = [pt([x0, y0]), pt([x1, y1])];
  return { ...g, bounding_box: [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1])] };
}

/**
 * Why a ground-truth widget was not found, as an aggregate key (no file or field name): its kind, and what
 * is unusual about it (degenerate or off-page box, a field with several widgets, a rotated page, nothing
 * detected on its page, a detection over it already matched to another widget).
 */
function missKind(g, gtFields, us, used, rotation) {
  const [x0, y0, x1, y1] = g.bounding_box;
  const tags = [g.radio ? 'radio' : g.type];
  if (!(x1 - x0 > 1e-4 && y1 - y0 > 1e-4)) tags.push('zero-size box');
  else if (x1 - x0 < 0.005 || y1 - y0 < 0.005) tags.push('tiny box');
  if (x0 < -1e-3 || y0 < -1e-3 || x1 > 1.001 || y1 > 1.001) tags.push('box off page');
  if (gtFields.filter((o) => o.name === g.name).length > 1) tags.push('field with several widgets');
  if (!g.name) tags.push('no name');
  if (pageTurn(rotation, g.page_number)) tags.push(`page rotated ${pageTurn(rotation, g.page_number)}`);
  const onPage = us.map((u, i) => ({ u, i })).filter(({ u }) => u.page === g.page_number);
  if (!onPage.length) tags.push('nothing detected on its page');
  else if (onPage.some(({ u, i }) => used.has(i) && (u.box ? iou(u.box, g.bounding_box) > 0 : inside(u.centre, g.bounding_box)))) tags.push('its detection matched another widget');
  else tags.push('no detection over it');
  return tags.join(', ');
}

function scoreDetection(cells, gtFields, minScore, rotation) {
  const us = units(cells);
  const widgets = gtFields.filter((g) => g.type !== 'button').map((g) => asDisplayed(g, rotation));
  const used = new Set();
  const r = { gt: widgets.length, found: 0, typeOk: 0, iouSum: 0, iouN: 0, misses: [], missKinds: [] };
  for (const g of widgets) {
    const want = g.type === 'choice' ? 'text' : g.type;
    let best = -1, bestS = 0;
    us.forEach((u, i) => {
      if (used.has(i) || u.page !== g.page_number) return;
      const s = Math.max(u.box ? iou(u.box, g.bounding_box) : inside(u.centre, g.bounding_box) ? 0.75 : 0, inside(u.centre, g.bounding_box) ? 0.5 : 0);
      if (s > bestS) { bestS = s; best = i; }
    });
    if (best < 0 || bestS < minScore) { r.misses.push(`${g.name} (${g.type})`); r.missKinds.push(missKind(g, widgets, us, used, rotation)); continue; }
    used.add(best); r.found++;
    if (us[best].type === want) r.typeOk++; else { r.misses.push(`${g.name}: type ${g.type} → ${us[best].type}`); r.missKinds.push(`type ${g.type} read as ${us[best].type}`); }
    if (us[best].box) { r.iouSum += iou(us[best].box, g.bounding_box); r.iouN++; }
  }
  const pages = new Set(widgets.map((g) => g.page_number));
  r.detOnPages = us.filter((u) => pages.has(u.page)).length;
  r.matched = used.size;
  // detections no widget matched, by type (precision's misses)
  r.extraKinds = us.filter((u, i) => pages.has(u.page) && !used.has(i)).map((u) => `extra ${u.type}`);
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

/**
 * Why an instructed value did not land (an aggregate reason): the mapper put it into another field, left it
 * unplaced (and the kind of its reason), never read it out of the instructions, or the field got a value
 * that was altered, cut, or another instruction's.
 */
function fillFailure(i, v, answer, after, expected, cells) {
  const mine = answer.assignments.filter((a) => a.cellIndex === i);
  const got = after[i] ? readBack(after[i]) : undefined;
  if (mine.length) {
    const a = mine[0];
    const other = [...expected].find(([j, w]) => j !== i && w === a.value);
    if (other) {
      // swap or steal, and how the two printed labels relate (what confused the matcher)
      const [j] = other;
      const words = (c) => new Set(normalizeLabel(c.labels?.printed ?? '').split(' ').filter((w) => w.length > 1));
      const wi = words(cells[i]), wj = words(cells[j]);
      const shared = [...wi].filter((w) => wj.has(w)).length;
      const rel = !wi.size || !wj.size ? 'a label missing' : shared === wi.size && shared === wj.size ? 'same label words'
        : shared === wi.size || shared === wj.size ? 'one label inside the other' : shared ? 'labels share words' : 'labels share no word';
      const own = answer.assignments.find((x) => x.value === v);
      const mineWent = own ? (own.cellIndex === j ? 'swapped with it' : 'own value went elsewhere') : 'own value not placed';
      return `another instruction's value landed here (${rel}; ${mineWent}; ${cells[j].type})`;
    }
    if (a.value === v) return `mapped right, read back as ${got ? 'other text' : 'empty'}`;
    if (v.startsWith(a.value) || a.value.startsWith(v)) return a.value.length < v.length ? 'value cut' : 'value with extra text';
    // what in the printed label may have cut the clause or the value
    const label = cells[i].labels?.printed ?? '';
    const marks = [[/[?]/, '?'], [/!/, '!'], [/\.\s/, 'period'], [/,/, 'comma'], [/\s(?:and|or)\s/i, 'and/or'], [/\s(?:is|are|was)\s/i, 'is'], [/:/, 'colon'], [/\(/, 'parenthesis'], [/^\s*\d/, 'line number']].filter(([re]) => re.test(label)).map(([, n]) => n);
    const got = normalizeLabel(label).split(' ').includes(normalizeLabel(a.value).split(' ')[0]) ? 'got words of its label' : 'got other text';
    // where the clause was cut: the fragment the value came from, and where the question mark stands
    const cut = a.instruction && !a.instruction.includes(v) ? 'its clause ended before the value' : 'its clause holds the value';
    const q = /\?\s*$/.test(label) ? '? at the end' : /\?/.test(label) ? '? inside' : 'no ?';
    const tail = normalizeLabel(label).endsWith(normalizeLabel(a.value)) ? 'got the label\'s last words' : 'got words from inside the label';
    // how far short of the value the label was read, and whether the words read as the label name another field
    const extra = a.value.endsWith(v) ? normalizeLabel(a.value.slice(0, -v.length)).split(' ').filter(Boolean).length : -1;
    const short = extra > 0 ? `label read ${extra} word${extra > 1 ? 's' : ''} short` : extra === 0 ? 'value with other text after' : 'value does not end with the instructed value';
    const words = normalizeLabel(label).split(' ').length;
    const slash = /\w\/\w/.test(label) ? 'a slash' : 'no slash';
    return `value altered (${got}; label has ${marks.join('/') || 'no marks'}; ${cut}; ${q}; ${tail}; ${short}; ${words > 8 ? 'long label' : 'label of ≤ 8 words'}; ${slash})`;
  }
  if (answer.assignments.some((a) => a.value === v || (v.length > 2 && a.value.includes(v)))) return 'value landed in another field';
  const u = (answer.unplaced ?? []).find((x) => x.value === v || x.instruction.includes(v));
  if (u) {
    const r = u.reason;
    const kind = /took "/.test(r) ? 'lost to another value' : /no free field/.test(r) ? 'no free field' : /looks like|does not fit|is for/.test(r) ? 'meaning or shape refused'
      : /no checkbox or option/.test(r) ? 'option not found' : /no label given/.test(r) ? 'label not read' : /matches/.test(r) ? 'label not found' : 'other';
    return `unplaced (${kind})`;
  }
  return 'value not read out of the instructions';
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
      const why = [];
      for (const [i, v] of expected) {
        if (after[i] && readBack(after[i]) === v) landed++;
        else why.push({ kind: `${cells[i].type}: ${fillFailure(i, v, answer, after, expected, cells)}`, detail: `${cells[i].labels?.printed ?? cells[i].label} ← ${v}` });
      }
      out[style] = { asked: expected.size, landed, why };
    } catch (err) {
      out[style] = { asked: expected.size, landed: 0, why: [{ kind: `fill refused: ${err.code ?? 'error'}`, detail: err.message }] }; // a refused fill lands nothing
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
const styledFlat = Object.fromEntries(parts.map((p) => [p, Object.fromEntries(STYLES.map((st) => [st, { asked: 0, landed: 0 }]))]));
const styledRows = [];
const fillWhy = Object.fromEntries(parts.map((p) => [p, {}]));
const missWhy = Object.fromEntries(parts.map((p) => [p, {}]));
const count = (o, k) => { o[k] = (o[k] ?? 0) + 1; };
const styledMisses = [];
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
    const s = scoreDetection(cells, gt.fields, kind === 'acro' ? 0 : 0.1, gt.rotation);
    for (const k of s.missKinds) count(missWhy[part], `${kind === 'acro' ? 'AcroForm' : 'flat'} miss: ${detected ? k : 'detection failed'}`);
    for (const k of s.extraKinds) count(missWhy[part], `${kind === 'acro' ? 'AcroForm' : 'flat'} ${k}`);
    for (const k of Object.keys(totals[part][kind])) totals[part][kind][k] += s[k];
    const ft = detected ? await fillTest(pdf) : { cells: 0, asked: 0, landed: 0 };
    for (const k of ['asked', 'landed', 'cells']) fill[part][kind][k] += ft[k];
    if (ft.error) fill[part][kind].failed++;
    if (detected) {
      const sf = await styledFillTest(pdf, cells);
      const tally = kind === 'acro' ? styled : styledFlat;
      for (const st of STYLES) {
        tally[part][st].asked += sf[st].asked; tally[part][st].landed += sf[st].landed;
        for (const w of sf[st].why ?? []) {
          count(fillWhy[part], `${kind === 'acro' ? '' : 'flat copy, '}${st}, ${w.kind}`);
          if (part === 'dev') styledMisses.push(`${file} [${st}] ${w.kind}: ${w.detail}`);
        }
      }
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
console.log(`\nFill from printed labels, three styles (engine: ${model.id}):`);
if (parts.includes('dev')) {
  console.log('| file (dev) | lines | sentence | paragraph |\n|---|---|---|---|');
  for (const r of styledRows) console.log(r);
}
console.log('\n| part | set | lines | sentence | paragraph | all styles |\n|---|---|---|---|---|---|');
for (const part of parts) {
  for (const [set, tally] of [['AcroForm PDFs', styled], ['flat copies', styledFlat]]) {
    const t = tally[part], asked = STYLES.reduce((n, st) => n + t[st].asked, 0), landed = STYLES.reduce((n, st) => n + t[st].landed, 0);
    console.log(`| ${part} | ${set} | ${STYLES.map((st) => `${pct(t[st].landed, t[st].asked)} (${t[st].landed}/${t[st].asked})`).join(' | ')} | ${pct(landed, asked)} |`);
  }
}
for (const part of parts) if (detectFailed[part]) console.log(`${part} part: detection failed on ${detectFailed[part]} files`);
for (const part of parts) {
  const rowsOf = (o) => Object.entries(o).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k, n]) => `  ${n} × ${k}`).join('\n');
  if (Object.keys(fillWhy[part]).length) console.log(`\nValues not landed from printed labels, by style, field type and reason (${part} part, counts):\n${rowsOf(fillWhy[part])}`);
  if (Object.keys(missWhy[part]).length) console.log(`\nDetection misses and extra detections, by kind (${part} part, counts):\n${rowsOf(missWhy[part])}`);
}
if (styledMisses.length) console.log(`\nValues not landed from printed labels (dev part):\n${styledMisses.map((m) => `  ${m}`).join('\n')}`);
if (misses.length) console.log(`\nAcroForm misses / wrong types (dev part):\n${misses.map((m) => `  ${m}`).join('\n')}`);

const figure = (pick) => Object.fromEntries(parts.map((p) => [p, pick(totals[p], fill[p])]));
const setRows = (k, kind) => [
  { kind, measure: 'field recall', unit: 'fields', ...figure((t) => ratioFigure(t[k].found, t[k].gt)) },
  { kind, measure: 'detection precision', unit: 'detections', ...figure((t) => ratioFigure(t[k].matched, t[k].detOnPages)) },
  { kind, measure: 'type accuracy', unit: 'found fields', ...figure((t) => ratioFigure(t[k].typeOk, t[k].found)) },
  { kind, measure: 'instructed values landed', unit: 'instructions', ...figure((_, fl) => ratioFigure(fl[k].landed, fl[k].asked)) },
];
const styleRows = [['forms AcroForm', styled], ['forms flat copies', styledFlat]].flatMap(([kind, tally]) => STYLES.map((st) => ({ kind, measure: `values landed from printed labels (${st})`, unit: 'instructions', ...Object.fromEntries(parts.map((p) => [p, ratioFigure(tally[p][st].landed, tally[p][st].asked)])) })));
writeSummary(summaryOut, { eval: 'forms', parts, seconds: process.uptime(), rows: [...setRows('acro', 'forms AcroForm'), ...setRows('flat', 'forms flat copies'), ...styleRows] });
