// Extraction accuracy on the shared corpus: every document in pdf-text, scanned, images,
// pdf-invoices, docx, pptx, xlsx and html goes through extractDocument + renderExtraction (OCR pool
// of one worker per core for scans and images), and the clean markdown, reduced to plain text, is
// compared with the ground truth its folder ships (see each SOURCES.md):
//   sim    1 − normalized Levenshtein distance, characters of the normalized texts
//   P/R/F1 word-level bag-of-words precision, recall, F1 (lowercased letter/digit runs)
//   order  LCS of the shared-word sequences over their length (1 = same reading order)
//   fields invoices: share of the expected invoice2data field values found in the text
//   charts office files: charts whose type, series names, categories and values all equal the
//          chart caches in the derived expected.json (matched in any order)
// Derived xlsx truth: cells as stored (no number format: a formatted number or date counts as missed), booleans as
// TRUE/FALSE (what a spreadsheet shows), and chart titles (printed on the sheet, as pptx chart titles are).
// The validation part of the corpus (scripts/lib/corpus.mjs) is reported in aggregate only: per-file lines,
// --diff and --json rows cover the dev part.
// Usage: node scripts/build.mjs && node scripts/eval-extract.mjs [corpusDir] [--only folder,folder] [--json out.json]
//        [--engine wasm|native|onnx|auto]  (OCR engine; default QUIRE_OCR_ENGINE, else the service's default, auto)
//        [--part dev|validation|all] [--summary summary.json]  (per-part aggregates for scripts/eval.mjs)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractDocument } from '../packages/extract/dist/index.js';
import { renderExtraction } from '../packages/render/dist/index.js';
import { createOcrPool } from '../packages/ocr/dist/index.js';
import { loadConfig } from '../packages/runtime/dist/index.js';
import { partOf, partsFromArgs } from './lib/corpus.mjs';
import { meanFigure, takeOption, writeSummary } from './lib/eval-summary.mjs';
import { words, charSimilarity, htmlToText, latexToText, markdownToText, normalizeText, orderScore, wordScores } from './lib/text-metrics.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const parts = partsFromArgs(args);
takeOption(args, 'part');
const summaryOut = takeOption(args, 'summary');
const only = takeOption(args, 'only')?.split(',');
const jsonOut = takeOption(args, 'json');
// the service's engine (QUIRE_OCR_ENGINE, else its default): the figures are those of the default configuration
const engine = takeOption(args, 'engine') ?? loadConfig().ocrEngine;
if (!['wasm', 'native', 'onnx', 'auto'].includes(engine)) throw new Error(`--engine ${engine}: wasm, native, onnx or auto`);
const showDiff = args.includes('--diff') && (args.splice(args.indexOf('--diff'), 1), true);
const corpus = path.resolve(args[0] ?? path.join(root, '../shared/corpus'));
process.env.QUIRE_CORPUS_DIR = corpus; // partOf reads this corpus's VALIDATION.md
const FOLDERS = (only ?? ['pdf-text', 'scanned', 'images', 'pdf-invoices', 'docx', 'pptx', 'xlsx', 'html']);
const FORMAT_BY_EXT = { '.pdf': 'pdf', '.png': 'png', '.jpg': 'jpeg', '.jpeg': 'jpeg', '.tif': 'tiff', '.tiff': 'tiff', '.docx': 'docx', '.pptx': 'pptx', '.xlsx': 'xlsx', '.html': 'html', '.htm': 'html' };

// ---------------------------------------------------------------- ground truth

/** Ground-truth candidates in order of preference, per document format. */
const PREFERENCE = {
  pdf: ['expected.txt', 'expected.html', 'expected.md', 'source.tex', 'expected.layout.txt', 'expected.json', 'boxes.csv'],
  image: ['expected.txt', 'boxes.csv', 'expected.json'],
  docx: ['expected.html', 'expected.md', 'expected.json'],
  pptx: ['expected.json', 'expected.md'],
  xlsx: ['expected.json', 'expected.md'],
  html: ['expected.html', 'expected.md'],
};

const read = (f) => fs.readFileSync(f, 'utf8');

/** The writing systems the eval's diagnostics tell apart (dominantScript), compiled once. */
const SCRIPTS = ['Latin', 'Han', 'Arabic', 'Hebrew', 'Cyrillic', 'Greek', 'Devanagari', 'Hiragana', 'Katakana', 'Hangul', 'Thai']
  .map((name) => [name, new RegExp(`\\p{Script=${name}}`, 'u')]);

/** "## name" sections of a SOURCES.md, for documents whose truth is another file's ("same text as X"). */
function sourcesSections(folder) {
  const f = path.join(folder, 'SOURCES.md');
  if (!fs.existsSync(f)) return new Map();
  const map = new Map();
  for (const sec of read(f).split(/^## /m).slice(1)) map.set(sec.slice(0, sec.indexOf('\n')).trim(), sec);
  return map;
}

/**
 * The ground truth of one document: { source, text? (ordered), bag? (words, order unknown),
 * invoice? (expected fields), charts? (expected chart caches), perPage? (text repeated per page) }.
 */
function groundTruth(folder, stem, format) {
  const kind = ['png', 'jpeg', 'tiff'].includes(format) ? 'image' : format;
  for (const suffix of PREFERENCE[kind]) {
    const f = path.join(folder, `${stem}.${suffix}`);
    if (!fs.existsSync(f)) continue;
    const gt = fromFile(f, suffix);
    if (gt) return { source: suffix, ...gt, charts: chartsFromDerived(folder, stem) };
  }
  // a document whose SOURCES.md section says its text is another file's ("same text as linn.expected.txt")
  const sec = sourcesSections(folder).get(stem);
  const m = sec?.match(/same text as `?([\w.-]+\.expected\.txt)`?/);
  if (m && fs.existsSync(path.join(folder, m[1]))) {
    return { source: `${m[1]} (per SOURCES.md)`, text: read(path.join(folder, m[1])), perPage: /every page/.test(sec) };
  }
  return { source: 'none' };
}

function fromFile(f, suffix) {
  if (suffix === 'expected.layout.txt') return { text: layoutToReadingText(read(f)) };
  if (suffix.endsWith('.txt')) return { text: read(f) };
  if (suffix.endsWith('.html')) return { text: htmlToText(read(f)) };
  if (suffix.endsWith('.md')) {
    const md = read(f);
    const cls = (l) => (/^\s*\|/.test(l) ? 'md table row' : /^\s{0,3}#/.test(l) ? 'md heading' : /^\s*(?:[-*+]|\d+[.)])\s/.test(l) ? 'md list item' : /<|\$/.test(l) ? 'md markup or math line' : 'md text line');
    return { text: markdownToText(md), sources: md.split('\n').map((l) => [cls(l), markdownToText(l)]) };
  }
  if (suffix === 'source.tex') {
    const tex = read(f);
    // text generated by a macro (\lipsum, \blindtext) is not in the source: no text truth there
    if (/\\(lipsum|blindtext|Blindtext|blinddocument)\b/.test(tex)) return null;
    return { text: latexToText(tex) };
  }
  if (suffix === 'boxes.csv') {
    const lines = read(f).split(/\r?\n/).filter(Boolean).map((l) => l.split(',').slice(8).join(','));
    return { text: lines.join('\n') };
  }
  const j = JSON.parse(read(f));
  if (Array.isArray(j)) return { invoice: j[0] };
  if (Array.isArray(j.form)) return { bag: j.form.flatMap((e) => e.words.map((w) => w.text)).join(' ') };
  if (j.kind === 'docx') return { text: j.blocks.map(docxBlockText).join('\n'), sources: j.blocks.map((b) => [`docx ${b.type ?? 'block'}`, docxBlockText(b)]) };
  if (j.kind === 'pptx') return { text: j.slides.map((s) => s.shapes.map(pptxShapeText).join('\n')).join('\n'), sources: j.slides.flatMap((s) => pptxShapeSources(s.shapes, false)) };
  if (j.kind === 'xlsx') {
    const sheets = j.sheets.filter((s) => s.state === 'visible');
    // a chart's title is printed on the sheet (or chartsheet) like a pptx chart's, so it is read with the sheet
    const titles = (s) => (s.charts ?? []).map((c) => c.title ?? '').filter(Boolean);
    return {
      text: sheets.map((s) => [xlsxSheetText(s), ...titles(s)].join('\n')).join('\n'),
      sources: sheets.flatMap((s) => [...Object.values(s.cells ?? {}).map((c) => [xlsxCellClass(c), xlsxCellText(c)]), ...titles(s).map((t) => ['chart title', t])]),
    };
  }
  return null;
}

/** [class, text] of each leaf shape of a derived pptx truth, for the loss diagnostics (classes only, no text is printed). */
const pptxShapeSources = (shapes, inGroup) => shapes.flatMap((s) => (s.type === 'group' || (s.shapes && s.type !== 'chart')
  ? pptxShapeSources(s.shapes ?? [], true)
  : [[`${s.type === 'chart' ? 'chart title' : s.type}${inGroup ? ' in group' : ''}`, pptxShapeText(s)]]));

/** A derived xlsx truth cell's class: its stored type, a formula's result, or a number by its shape. */
function xlsxCellClass(c) {
  const v = String(c.v ?? '');
  if (c.f !== undefined) return 'formula result';
  if (c.t === 's' || c.t === 'inlineStr' || c.t === 'str') return 'text cell';
  if (c.t === 'b') return 'boolean cell';
  if (c.t === 'e') return 'error cell';
  if (/^\d+$/.test(v)) return 'integer cell';
  return /^-?[\d.]+(e[+-]?\d+)?$/i.test(v) ? 'decimal cell' : 'other cell';
}

/**
 * Layout-mode text (pypdf/pdfplumber layout=True) lays columns side by side on each line. Where a
 * blank gutter runs down the middle of most lines, each stretch between full-width lines is read
 * left column first, then right; hyphenated line ends are joined as the extraction joins them.
 */
function layoutToReadingText(layout) {
  const lines = layout.split(/\r?\n/);
  const text = lines.filter((l) => l.trim());
  const width = Math.max(0, ...lines.map((l) => l.length));
  const clear = (l, c) => l.slice(c - 1, c + 2).trim() === '';
  const both = (l, c) => l.slice(0, c).trim() !== '' && l.slice(c).trim() !== '';
  let gutter = -1, best = 0;
  for (let c = Math.floor(width * 0.3); c <= Math.ceil(width * 0.7); c++) {
    const cl = text.filter((l) => clear(l, c)).length, bo = text.filter((l) => clear(l, c) && both(l, c)).length;
    if (cl >= 0.9 * text.length && bo >= 0.3 * text.length && bo > best) { best = bo; gutter = c; }
  }
  let out = lines;
  if (gutter > 0) {
    out = [];
    let left = [], right = [];
    const flush = () => { out.push(...left, ...right); left = []; right = []; };
    for (const l of lines) {
      if (!clear(l, gutter)) { flush(); out.push(l); continue; }
      left.push(l.slice(0, gutter)); right.push(l.slice(gutter));
    }
    flush();
  }
  return out.map((l) => l.trim()).filter(Boolean).join('\n').replace(/(\p{L})-\n(\p{Ll})/gu, '$1$2');
}

const docxBlockText = (b) => (b.type === 'table' ? b.rows.map((r) => r.map((c) => c.text).join(' ')).join('\n') : b.text ?? '');

function pptxShapeText(s) {
  if (s.type === 'text') return s.paragraphs.join('\n');
  if (s.type === 'table') return s.rows.map((r) => r.map((c) => c.text).join(' ')).join('\n');
  if (s.type === 'chart') return s.title ?? '';
  return (s.shapes ?? []).map(pptxShapeText).join('\n');
}

/**
 * A cell as the truth gives it: the value as stored (unformatted numbers, date serials: the derived JSON keeps no
 * number format), except a boolean, stored 1/0, which every spreadsheet shows as TRUE/FALSE whatever its format.
 */
const xlsxCellText = (c) => (c.t === 'b' ? (String(c.v).trim() === '1' || String(c.v).trim() === 'true' ? 'TRUE' : 'FALSE') : String(c.v ?? ''));

/** Cells in row-major order. */
function xlsxSheetText(sheet) {
  const ref = (a1) => { const m = /^([A-Z]+)(\d+)$/.exec(a1); let c = 0; for (const ch of m[1]) c = c * 26 + ch.charCodeAt(0) - 64; return [Number(m[2]), c]; };
  const cells = Object.entries(sheet.cells ?? {}).map(([k, v]) => [ref(k), xlsxCellText(v)]);
  cells.sort((a, b) => a[0][0] - b[0][0] || a[0][1] - b[0][1]);
  return cells.map((c) => c[1]).join(' ');
}

/** Expected charts (derived office JSON), in document order. */
function chartsFromDerived(folder, stem) {
  const f = path.join(folder, `${stem}.expected.json`);
  if (!fs.existsSync(f)) return undefined;
  const j = JSON.parse(read(f));
  let charts = [];
  if (j.kind === 'xlsx') charts = j.sheets.filter((s) => s.state === 'visible').flatMap((s) => s.charts ?? []);
  else if (j.kind === 'pptx') {
    const walk = (shapes) => shapes.flatMap((s) => (s.type === 'chart' ? [s] : walk(s.shapes ?? [])));
    charts = j.slides.flatMap((s) => walk(s.shapes));
  } else if (j.kind === 'docx') charts = j.charts ?? [];
  return charts.length ? charts : undefined;
}

// ---------------------------------------------------------------- charts

/** "barChart" + barDir col → "column", "bar3DChart" → "column"/"bar", "lineChart" → "line" … */
function expectedType(plot) {
  let t = plot.type.replace(/3D/, '').replace(/Chart$/, '').toLowerCase();
  if (t === 'bar') t = plot.barDir === 'col' ? 'column' : 'bar';
  return t;
}
/** An Excel date serial (the cache) against a category shown with its date format ("1/5/02", "2002-01-05"). */
function sameDate(serial, shown) {
  const n = Number(serial);
  if (!Number.isFinite(n) || n < 1 || n > 2958465 || typeof shown !== 'string') return false;
  const d = new Date(Date.UTC(1899, 11, 30) + Math.round(n) * 864e5);
  const [y, m, day] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
  let g = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(shown);
  if (g) return Number(g[1]) === m && Number(g[2]) === day && (Number(g[3]) === y || Number(g[3]) === y % 100);
  g = /^(\d{4})-(\d{2})-(\d{2})/.exec(shown);
  return !!g && Number(g[1]) === y && Number(g[2]) === m && Number(g[3]) === day;
}
const sameValue = (a, b) => {
  if (sameDate(a, b)) return true;
  if (a === null || a === undefined || a === '') return b === null || b === undefined || b === '';
  if (b === null || b === undefined) return false;
  const x = Number(a), y = Number(b);
  if (Number.isFinite(x) && Number.isFinite(y) && String(a).trim() !== '' && String(b).trim() !== '') return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x));
  return String(a).trim() === String(b).trim();
};
const sameList = (a = [], b = []) => a.length === b.length && a.every((v, i) => sameValue(v, b[i]));

function compareCharts(expected, doc) {
  const ours = doc.pages.flatMap((p) => p.elements.filter((e) => e.kind === 'figure' && e.chart).map((e) => e.chart));
  const fields = { type: 0, names: 0, categories: 0, values: 0 };
  let exact = 0;
  const problems = [];
  const check = (exp, got) => {
    const series = exp.plots.flatMap((p) => p.series.map((s) => ({ ...s, type: expectedType(p) })));
    const types = [...new Set(series.map((s) => s.type))];
    const gotTypes = [...new Set(got.series.map((s) => s.plotType ?? got.chartType))];
    return { series, types, ok: {
      // "column3D" and "column" are the same chart class for this comparison
      type: types.length === 1 ? got.chartType.replace(/3D$/i, '') === types[0] : sameList(types, gotTypes.map((t) => t.replace(/3D$/i, ''))),
      names: got.series.length === series.length && series.every((s, k) => (s.name ?? '') === (got.series[k].name ?? '')),
      categories: got.series.length === series.length && series.every((s, k) => sameList(s.categories, got.series[k].xValues ?? got.series[k].categories)),
      values: got.series.length === series.length && series.every((s, k) => sameList(s.values, got.series[k].values)),
    } };
  };
  // Each expected chart is matched to one of ours, exact matches first in any order: the truth lists a sheet's charts
  // in drawing-part order, the output in reading order (by anchor); which comes first is not what this measures.
  const isExact = (exp, got) => Object.values(check(exp, got).ok).every(Boolean);
  const pair = new Map(), used = new Set();
  expected.forEach((exp, i) => {
    const j = ours.findIndex((o, k) => !used.has(k) && isExact(exp, o));
    if (j >= 0) { pair.set(i, j); used.add(j); }
  });
  expected.forEach((_exp, i) => {
    if (pair.has(i)) return;
    const j = ours.findIndex((_o, k) => !used.has(k)); // the rest in order, for the per-field counts
    if (j >= 0) { pair.set(i, j); used.add(j); }
  });
  expected.forEach((exp, i) => {
    const got = pair.has(i) ? ours[pair.get(i)] : undefined;
    if (!got) { problems.push(`chart ${i + 1}: missing`); return; }
    const { series, types, ok } = check(exp, got);
    for (const k of Object.keys(ok)) if (ok[k]) fields[k]++; else problems.push(`chart ${i + 1}: ${k} (${describe(k, series, got, types)})`);
    if (Object.values(ok).every(Boolean)) exact++;
  });
  if (ours.length > expected.length) problems.push(`${ours.length - expected.length} extra chart(s)`);
  return { expected: expected.length, found: ours.length, exact, fields, problems };
}

function describe(k, series, got, types) {
  const short = (v) => JSON.stringify(v).slice(0, 80);
  if (k === 'type') return `expected ${types.join('+')}, got ${got.chartType}`;
  if (got.series.length !== series.length) return `expected ${series.length} series, got ${got.series.length}`;
  const i = series.findIndex((s, n) => (k === 'names' ? (s.name ?? '') !== (got.series[n].name ?? '') : !sameList(k === 'values' ? s.values : s.categories, k === 'values' ? got.series[n].values : got.series[n].xValues ?? got.series[n].categories)));
  const s = series[i], g = got.series[i];
  if (k === 'names') return `series ${i + 1}: expected ${short(s.name)}, got ${short(g.name)}`;
  return `series ${i + 1}: expected ${short(k === 'values' ? s.values : s.categories)}, got ${short(k === 'values' ? g.values : g.xValues ?? g.categories)}`;
}

// ---------------------------------------------------------------- invoices

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** Spellings of an expected invoice2data value that count as found in the text. */
function spellings(key, v) {
  if (typeof v === 'number') {
    const f2 = v.toFixed(2), int = Number.isInteger(v) ? String(v) : null;
    const forms = [f2, f2.replace('.', ','), String(v), Number(v).toLocaleString('en-US', { minimumFractionDigits: 2 })];
    if (int) forms.push(int);
    return forms;
  }
  const s = String(v);
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) {
    const [, y, mo, d] = m, mi = Number(mo) - 1, dn = String(Number(d)), mon = MONTHS[mi];
    return [s, `${d}/${mo}/${y}`, `${mo}/${d}/${y}`, `${d}.${mo}.${y}`, `${d}-${mo}-${y}`, `${dn}/${Number(mo)}/${y}`, `${Number(mo)}/${dn}/${y}`,
      `${mon} ${dn}, ${y}`, `${mon} ${d}, ${y}`, `${dn} ${mon} ${y}`, `${mon.slice(0, 3)} ${dn}, ${y}`, `${dn} ${mon.slice(0, 3)} ${y}`, `${dn}-${mon.slice(0, 3)}-${y}`, `${d}-${mon.slice(0, 3)}-${y}`, `${d}/${mo}/${y.slice(2)}`];
  }
  return [s];
}

function invoiceFields(expected, text) {
  const hay = normalizeText(text).toLowerCase().replace(/\s+/g, ' ');
  const squeeze = hay.replace(/\s/g, '');
  const found = [], missed = [];
  for (const [k, v] of Object.entries(expected)) {
    if (k === 'desc' || k === 'currency' || v === null || typeof v === 'object') continue; // currency is a code, rarely printed as such
    const hit = spellings(k, v).some((s) => { const n = normalizeText(String(s)).toLowerCase(); return hay.includes(n) || squeeze.includes(n.replace(/\s/g, '')); });
    (hit ? found : missed).push(k);
  }
  return { found: found.length, total: found.length + missed.length, missed };
}

/** The words one text has more of than the other (for --diff), most frequent first. */
function wordDiff(text, ref) {
  const count = (xs) => xs.reduce((m, w) => m.set(w, (m.get(w) ?? 0) + 1), new Map());
  const a = count(words(text)), b = count(words(ref));
  const over = (x, y) => [...x].map(([w, n]) => [w, n - (y.get(w) ?? 0)]).filter(([, n]) => n > 0).sort((p, q) => q[1] - p[1]).slice(0, 25).map(([w, n]) => (n > 1 ? `${w}×${n}` : w)).join(' ');
  return { missing: over(b, a), extra: over(a, b) };
}

// ---------------------------------------------------------------- loss classes (aggregate diagnostics)

const bag = (xs) => xs.reduce((m, w) => m.set(w, (m.get(w) ?? 0) + 1), new Map());
const tokenKind = (w) => (/^\p{N}+$/u.test(w) ? 'number' : /^\p{L}+$/u.test(w) ? 'letters' : 'letters+digits');
const tally = (m, k, n = 1) => m.set(k, (m.get(k) ?? 0) + n);
/** Year of an Excel date serial (1900 system), for "a date serial shown as a date". */
const serialYear = (n) => new Date(Date.UTC(1899, 11, 30) + n * 864e5).getUTCFullYear();

/** [class, text] of each element of our output (what put a word in the markdown). */
function outputSources(doc) {
  const out = [];
  for (const p of doc.pages) {
    for (const el of p.elements) {
      if (el.kind === 'text') out.push([`our ${el.category}${el.extra?.code ? ' code' : ''}`, el.text]);
      else if (el.kind === 'table') out.push([el.spreadsheet ? 'our sheet table' : 'our table', el.cells.map((c) => c.text).join(' ')]);
      else out.push([el.chart ? (el.chart.title && !el.caption ? 'our chart title' : 'our chart caption') : 'our image caption', el.caption ?? el.chart?.title ?? '']);
    }
  }
  return out;
}

/** Spends a bag of words over [class, text] sources: how many of the words each class holds (the rest: "nowhere"). */
function attribute(words_, sources) {
  const left = new Map(words_);
  const out = new Map();
  for (const [cls, text] of sources ?? []) {
    for (const w of words(text)) {
      const n = left.get(w) ?? 0;
      if (n > 0) { left.set(w, n - 1); tally(out, cls); }
    }
  }
  const rest = [...left.values()].reduce((a, b) => a + b, 0);
  if (rest) tally(out, 'nowhere', rest);
  return out;
}

/** Whether two words differ by at most one substituted, inserted or dropped character. */
function editDistanceAtMost1(a, b) {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(i + (a.length >= b.length ? 1 : 0)) === b.slice(i + (b.length >= a.length ? 1 : 0));
}
/** Whether the one character two words differ in is an OCR look-alike pair. */
function lookAlike(a, b) {
  const groups = ['0o', '1li', '5s', '8b', '2z', '6b', 'ce', 'un', 'nh', 'rn'];
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return a.length === b.length && groups.some((g) => g.includes(a[i]) && g.includes(b[i]));
}

/**
 * Classes of the words one text misses and adds against the truth, for per-part aggregates that tell a
 * class of loss without showing a word: token kind (number, letters), where the truth had it and which of our
 * elements put it in, and a few mechanism signatures (a number with thousands separators, a date serial
 * shown as a date, a boolean 1/0 shown TRUE/FALSE, two words joined or split).
 */
function lossClasses(text, ref, truthSources, doc) {
  const ta = words(text), tb = words(ref);
  const a = bag(ta), b = bag(tb);
  const missing = new Map([...b].map(([w, n]) => [w, n - (a.get(w) ?? 0)]).filter(([, n]) => n > 0));
  const extra = new Map([...a].map(([w, n]) => [w, n - (b.get(w) ?? 0)]).filter(([, n]) => n > 0));
  const res = { missingKind: new Map(), extraKind: new Map(), missingFrom: attribute(missing, truthSources), extraFrom: attribute(extra, outputSources(doc)), signatures: new Map() };
  for (const [w, n] of missing) tally(res.missingKind, tokenKind(w), n);
  for (const [w, n] of extra) tally(res.extraKind, tokenKind(w), n);
  const joinedOut = new Set(words(normalizeText(text).replace(/(\d)[,'\u00a0\u202f ](?=\d{3}(?!\d))/g, '$1')));
  const outYears = new Set(ta.filter((w) => /^\d{2,4}$/.test(w)));
  // two to four neighbouring tokens run together (a line break one text drops and the other keeps)
  const pairs = (ts) => { const s = new Set(); for (let i = 0; i + 1 < ts.length; i++) for (let k = 2; k <= 4 && i + k <= ts.length; k++) s.add(ts.slice(i, i + k).join('')); return s; };
  const outPairs = pairs(ta), refPairs = pairs(tb);
  for (const [w, n] of missing) {
    if (/^\d+$/.test(w)) {
      const v = Number(w);
      if (joinedOut.has(w) && !a.has(w)) tally(res.signatures, 'missing: number we print with thousands separators', n);
      else if (v >= 367 && v < 110000 && (outYears.has(String(serialYear(v))) || outYears.has(String(serialYear(v) % 100).padStart(2, '0')))) tally(res.signatures, 'missing: integer that is a date serial of a year we print', n);
      else if ((w === '1' && extra.has('true')) || (w === '0' && extra.has('false'))) tally(res.signatures, 'missing: 1/0 where we print TRUE/FALSE', n);
    }
    if (outPairs.has(w)) tally(res.signatures, 'missing: one truth word we print as 2–4', n);
  }
  for (const [w, n] of extra) if (refPairs.has(w)) tally(res.signatures, 'extra: 2–4 truth words we print as one', n);
  // OCR misreadings: a missing word read with one letter changed, added or dropped (a look-alike pair when
  // the change is 0/o, 1/l/i, 5/s, 8/b, rn/m, cl/d), and extra one- or two-character tokens (specks, ticks, rules)
  const extraWords = [...extra.keys()];
  for (const [w, n] of missing) {
    if (w.length < 3 || outPairs.has(w)) continue;
    const near = extraWords.find((x) => Math.abs(x.length - w.length) <= 1 && editDistanceAtMost1(x, w));
    if (near) tally(res.signatures, `missing: read with one ${lookAlike(near, w) ? 'look-alike ' : ''}letter off`, n);
  }
  for (const [w, n] of extra) if ([...w].length <= 2 && !refPairs.has(w)) tally(res.signatures, 'extra: 1–2 character token', n);
  return res;
}

// ---------------------------------------------------------------- run

let ocrPool;
const ocr = async () => (ocrPool ??= await createOcrPool({ size: os.availableParallelism(), engine, tesseractPath: process.env.QUIRE_TESSERACT_PATH || undefined }));

const rows = [];
for (const name of FOLDERS) {
  const folder = path.join(corpus, name);
  if (!fs.existsSync(folder)) { console.log(`${name}: not in ${corpus}, skipped`); continue; }
  const docs = fs.readdirSync(folder).filter((f) => FORMAT_BY_EXT[path.extname(f).toLowerCase()] && !/\.expected[.-]/.test(f) && !f.includes('.source.')).sort();
  for (const file of docs) {
    const part = partOf(name, file);
    if (!parts.includes(part)) continue;
    const format = FORMAT_BY_EXT[path.extname(file).toLowerCase()];
    const stem = file.slice(0, -path.extname(file).length);
    const gt = groundTruth(folder, stem, format);
    const row = { folder: name, file, part, gt: gt.source };
    const t0 = performance.now();
    try {
      const needsOcr = format === 'pdf' || format === 'png' || format === 'jpeg' || format === 'tiff';
      const doc = await extractDocument(new Uint8Array(fs.readFileSync(path.join(folder, file))), format, needsOcr ? { ocr: await ocr() } : {});
      row.seconds = (performance.now() - t0) / 1000;
      row.pages = doc.pageCount;
      // kinds of warning (numbers and quoted names taken out) and pages without words: aggregate
      // diagnostics, printed per part, that tell a class of failure without naming a file
      row.warningKinds = doc.warnings.map((w) => w.replace(/"[^"]*"|'[^']*'/g, '…').replace(/\d+([.,]\d+)?/g, 'N').slice(0, 90));
      row.emptyPages = doc.pages.filter((pg) => !pg.elements?.length).length;
      const out = renderExtraction(doc);
      row.engines = (out.extensions.ocr?.pages ?? []).map((p) => p.engine);
      row.truthKind = truthKind(gt);
      const text = markdownToText(out.markdown);
      if (gt.text !== undefined) {
        const ref = gt.perPage ? Array.from({ length: doc.pageCount }, () => gt.text).join('\n') : gt.text;
        const w = wordScores(text, ref);
        if (words(ref).length === 0) row.gt += ' (no text)';
        else Object.assign(row, { truthWords: words(ref).length, sim: charSimilarity(text, ref), p: w.precision, r: w.recall, f1: w.f1, order: orderScore(text, ref) ?? undefined });
        // which writing system the truth and the output are mostly in: tells a missing script or
        // a garbled text layer (truth Han, output Latin) without showing any text; only files under F1 0.5 are described
        if (row.f1 !== undefined && row.f1 < 0.5) row.scripts = `truth ${gt.source} ${dominantScript(ref)} ${letterShape(ref)}, output ${dominantScript(text)} ${letterShape(text)} ${lengthRatio(words(text).length, words(ref).length)} the truth's words`;
        if (showDiff && part === 'dev') row.diff = wordDiff(text, ref);
        if (words(ref).length) row.loss = lossClasses(text, ref, gt.sources, doc);
      } else if (gt.bag !== undefined) {
        const w = wordScores(text, gt.bag);
        Object.assign(row, { p: w.precision, r: w.recall, f1: w.f1 });
        if (showDiff && part === 'dev') row.diff = wordDiff(text, gt.bag);
        if (words(gt.bag).length) row.loss = lossClasses(text, gt.bag, undefined, doc);
      }
      if (gt.invoice) { const f = invoiceFields(gt.invoice, text); row.fields = f.found / f.total; row.fieldsNote = `${f.found}/${f.total}${f.missed.length ? ` missed ${f.missed.join(',')}` : ''}`; }
      if (gt.charts) { const c = compareCharts(gt.charts, doc); row.charts = c.exact / c.expected; row.chartsNote = `${c.exact}/${c.expected} exact`; row.chartProblems = c.problems; }
    } catch (err) {
      row.error = `${err.code ?? ''} ${err.message}`.trim();
      row.seconds = (performance.now() - t0) / 1000;
    }
    rows.push(row);
    if (part === 'dev') printRow(row);
  }
}
await ocrPool?.close();

/**
 * How the letters of a text are spread, rounded to tenths: vowel share of Latin letters, share of capitals,
 * share of one-letter words (tells substituted letters, shifted case or letters spaced apart, without any text).
 */
function letterShape(text) {
  const letters = text.match(/\p{Script=Latin}/gu) ?? [];
  const vowels = letters.filter((c) => /[aeiouy]/i.test(c.normalize('NFD')[0])).length;
  const capitals = letters.filter((c) => c !== c.toLowerCase()).length;
  const ws = words(text), single = ws.filter((w) => [...w].length === 1).length;
  const r = (n, d) => (d ? (Math.round((10 * n) / d) / 10).toFixed(1) : '-');
  return `(vowels ${r(vowels, letters.length)}, capitals ${r(capitals, letters.length)}, 1-letter words ${r(single, ws.length)})`;
}

/** The kind of document a truth describes: receipt lines (SROIE boxes), form words (FUNSD), invoice fields, or a text. */
function truthKind(gt) {
  if (gt.source === 'boxes.csv') return 'receipt';
  if (gt.bag !== undefined) return 'form';
  if (gt.invoice) return 'invoice';
  return gt.text !== undefined ? 'text' : 'none';
}

/** How many words the output has next to the truth, in coarse steps ("about", "2–10×", "under ½ of"). */
function lengthRatio(output, truth) {
  const r = output / Math.max(1, truth);
  return r > 10 ? 'over 10×' : r > 2 ? '2–10×' : r >= 0.5 ? 'about' : r >= 0.1 ? '½–⅒ of' : 'under ⅒ of';
}

/** The Unicode script most of a text's letters belong to ("none" without letters). */
function dominantScript(text) {
  const counts = new Map();
  for (const ch of text.match(/\p{L}/gu) ?? []) {
    const script = SCRIPTS.find(([, re]) => re.test(ch))?.[0] ?? 'other';
    counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'none';
}

function fmt(v, d = 3) { return v === undefined ? '   -  ' : v.toFixed(d).padStart(6); }
function printRow(r) {
  if (printRow.header === undefined) {
    printRow.header = true;
    console.log(`${'folder'.padEnd(13)} ${'file'.padEnd(38)} ${'truth'.padEnd(20)}   sim     P      R      F1   order  fields charts  pages   s`);
  }
  const extra = [r.fieldsNote && `fields ${r.fieldsNote}`, r.chartsNote && `charts ${r.chartsNote}`, r.error && `ERROR ${r.error}`].filter(Boolean).join('; ');
  console.log(`${r.folder.padEnd(13)} ${r.file.slice(0, 38).padEnd(38)} ${String(r.gt).slice(0, 20).padEnd(20)} ${fmt(r.sim)} ${fmt(r.p)} ${fmt(r.r)} ${fmt(r.f1)} ${fmt(r.order)} ${fmt(r.fields, 2)} ${fmt(r.charts, 2)} ${String(r.pages ?? '-').padStart(4)} ${r.seconds.toFixed(1).padStart(5)}${extra ? `  ${extra}` : ''}`);
  for (const p of r.chartProblems ?? []) console.log(`${''.padEnd(53)}  ${p}`);
  if (r.diff) console.log(`${''.padEnd(53)}  missing: ${r.diff.missing}\n${''.padEnd(53)}  extra:   ${r.diff.extra}`);
}

console.log('\nDiagnostics per part (aggregates): files with word F1 under 0.5, pages without text, kinds of warning:');
for (const name of FOLDERS) {
  for (const part of parts) {
    const rs = rows.filter((r) => r.folder === name && r.part === part);
    if (!rs.length) continue;
    const kinds = new Map();
    for (const r of rs) for (const k of new Set(r.warningKinds ?? [])) kinds.set(k, (kinds.get(k) ?? 0) + 1);
    const lowRows = rs.filter((r) => r.f1 !== undefined && r.f1 < 0.5), low = lowRows.length;
    const lowScripts = new Map();
    for (const r of lowRows) if (r.scripts) lowScripts.set(r.scripts, (lowScripts.get(r.scripts) ?? 0) + 1);
    const empty = rs.reduce((n, r) => n + (r.emptyPages ?? 0), 0), pages = rs.reduce((n, r) => n + (r.pages ?? 0), 0);
    // files under F1 1 by the size of their truth: a few words off in a ten-word slide weigh as much as a page off in a long one
    const under = rs.filter((r) => r.f1 !== undefined && r.f1 < 0.999);
    const sizes = under.map((r) => (r.truthWords < 20 ? 'under 20 words' : r.truthWords < 200 ? '20–200 words' : '200+ words'));
    lowScripts.set(`F1<1: ${under.length} (${[...sizes.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map())].map(([k, n]) => `${n}× ${k}`).join(', ')}), their F1 loss summed ${under.reduce((t, r) => t + 1 - r.f1, 0).toFixed(2)}`, 0);
    console.log(`${name.padEnd(13)} ${part.padEnd(10)} F1<0.5: ${low}/${rs.length} files${lowScripts.size ? ` (${[...lowScripts].map(([k, n]) => `${n}× ${k}`).join(', ')})` : ''}; pages without text: ${empty}/${pages}${kinds.size ? `; warnings: ${[...kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n}× ${k}`).join(' | ')}` : ''}`);
  }
}

console.log('\nLoss classes per part (aggregates over files with a text or form-word truth: words missing from and extra in our output, counted):');
for (const name of FOLDERS) {
  for (const [part, kind] of parts.flatMap((pt) => [...new Set(rows.filter((r) => r.folder === name && r.part === pt && r.loss).map((r) => r.truthKind))].map((k) => [pt, k]))) {
    // per kind of truth (receipt lines and form words of one folder fail differently)
    const rs = rows.filter((r) => r.folder === name && r.part === part && r.loss && r.truthKind === kind);
    const label = rows.some((r) => r.folder === name && r.loss && r.truthKind !== kind) ? `${part} ${kind}` : part;
    const sum = (key) => { const m = new Map(); for (const r of rs) for (const [k, n] of r.loss[key]) tally(m, k, n); return m; };
    const show = (m) => [...m].sort((x, y) => y[1] - x[1]).map(([k, n]) => `${k} ${n}`).join(', ') || '-';
    const total = (m) => [...m.values()].reduce((x, y) => x + y, 0);
    const mk = sum('missingKind'), ek = sum('extraKind');
    console.log(`${name.padEnd(13)} ${label.padEnd(10)} missing ${total(mk)} (${show(mk)}); in the truth's: ${show(sum('missingFrom'))}`);
    console.log(`${''.padEnd(24)} extra ${total(ek)} (${show(ek)}); from our: ${show(sum('extraFrom'))}`);
    const sig = sum('signatures');
    if (sig.size) console.log(`${''.padEnd(24)} signatures: ${show(sig)}`);
  }
  for (const part of parts) {
    // chart problems by field (names and numbers taken out): which part of a chart did not match
    const probs = new Map();
    for (const r of rows.filter((x) => x.folder === name && x.part === part)) for (const pr of r.chartProblems ?? []) tally(probs, pr.replace(/^chart \d+: /, '').replace(/expected (\S+) series, got (\S+)\)/, (_m, e, g) => `${Number(g) > Number(e) ? 'more' : 'fewer'} series than expected)`).replace(/expected .*, got .*\)/, 'a series differs)').replace(/\d+/g, 'N').trim());
    if (probs.size) console.log(`${name.padEnd(13)} ${part.padEnd(10)} chart problems: ${[...probs].map(([k, n]) => `${k} ${n}`).join(', ')}`);
  }
}

console.log('\nPer-folder means (over the files that have each measure), per corpus part:');
console.log(`${'folder'.padEnd(13)} ${'part'.padEnd(10)} files   sim     P      R      F1   order  fields charts  s/file`);
for (const name of FOLDERS) {
  for (const part of parts) {
    const rs = rows.filter((r) => r.folder === name && r.part === part);
    if (!rs.length) continue;
    const m = (k) => meanFigure(rs.map((r) => r[k])).value ?? undefined;
    console.log(`${name.padEnd(13)} ${part.padEnd(10)} ${String(rs.length).padStart(5)} ${fmt(m('sim'))} ${fmt(m('p'))} ${fmt(m('r'))} ${fmt(m('f1'))} ${fmt(m('order'))} ${fmt(m('fields'), 2)} ${fmt(m('charts'), 2)} ${fmt(m('seconds'), 2)}${rs.some((r) => r.error) ? `  (${rs.filter((r) => r.error).length} failed)` : ''}`);
  }
}
// which OCR engine read the pages (extensions.ocr), per folder and part: what QUIRE_OCR_ENGINE=auto chose
for (const name of FOLDERS) {
  for (const part of parts) {
    const tally = new Map();
    for (const e of rows.filter((r) => r.folder === name && r.part === part).flatMap((r) => r.engines ?? [])) tally.set(e, (tally.get(e) ?? 0) + 1);
    if (tally.size) console.log(`OCR engines ${name} ${part}: ${[...tally].map(([e, n]) => `${e} ${n}`).join(', ')}`);
  }
}
// word F1 per kind of truth (receipt lines, form words, text) and per engine set that read the file, per
// part: where a folder's loss lies, in aggregate only (no file is named, validation included)
console.log('\nWord F1 per truth kind and per engines that read the file (aggregates):');
for (const name of FOLDERS) {
  for (const part of parts) {
    const rs = rows.filter((r) => r.folder === name && r.part === part && r.f1 !== undefined);
    const byKind = new Map();
    for (const r of rs) {
      const engines = [...new Set(r.engines ?? [])].sort().join('+') || 'none';
      for (const key of [`${r.truthKind} all`, `${r.truthKind} ${engines}`]) (byKind.get(key) ?? byKind.set(key, []).get(key)).push(r);
    }
    if (byKind.size < 2) continue;
    for (const [key, krs] of [...byKind].sort((a, b) => a[0].localeCompare(b[0]))) {
      const m = (k) => meanFigure(krs.map((r) => r[k])).value ?? undefined;
      console.log(`${name.padEnd(13)} ${part.padEnd(10)} ${key.padEnd(24)} ${String(krs.length).padStart(4)} files  P ${fmt(m('p'))}  R ${fmt(m('r'))}  F1 ${fmt(m('f1'))}`);
    }
  }
}
console.log(`\n${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, OCR workers ${ocrPool?.size ?? 0} (${engine})`);
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(rows.filter((r) => r.part === 'dev'), null, 1));

const MEASURES = [['sim', 'char similarity'], ['f1', 'word F1'], ['order', 'reading order'], ['fields', 'invoice fields found'], ['charts', 'charts exact']];
const summaryRows = [];
for (const name of FOLDERS) {
  for (const [key, measure] of MEASURES) {
    const row = { kind: `extract ${name}`, measure, unit: 'files' };
    for (const part of parts) row[part] = meanFigure(rows.filter((r) => r.folder === name && r.part === part).map((r) => r[key]));
    if (parts.some((p) => row[p].n > 0)) summaryRows.push(row);
  }
  const failed = { kind: `extract ${name}`, measure: 'files failed', unit: 'files' };
  for (const part of parts) { const rs = rows.filter((r) => r.folder === name && r.part === part); failed[part] = { value: rs.length ? rs.filter((r) => r.error).length / rs.length : null, n: rs.length }; }
  if (parts.some((p) => failed[p].value > 0)) summaryRows.push(failed);
}
writeSummary(summaryOut, { eval: 'extract', parts, rows: summaryRows, seconds: process.uptime() });
