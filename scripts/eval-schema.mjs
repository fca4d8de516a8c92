// Schema accuracy of the built-in engine on the shared corpus.
// Usage: pnpm build && pnpm eval:schema [corpusDir=../shared/corpus] [--only=invoices,receipts] [--ocr=ours|boxes|both] [--json=out.json]
//        [--part dev|validation|all] [--summary FILE] [--doc-cache=DIR] [--engine=wasm|native|onnx|auto] (Quire OCR's engine)
// --doc-cache keeps each document as read (PDF text layer or Quire OCR) in DIR, keyed by the file's
// content, so that a rerun after a change to the schema engine alone skips reading; clear DIR when
// the readers (extract, ocr, layout) change.
// The validation part of the corpus (scripts/lib/corpus.mjs) is reported in aggregate only: --verbose and the
// documents in --json cover the dev part.
//
// Suites (SUITES below) each return scored documents; the script prints, per suite and field,
// exact-match accuracy, precision/recall/F1 (a null answer is "no prediction"), mean word-level F1 for text fields, and confidence
// calibration (accuracy per confidence bucket). To add a suite (e.g. packet split accuracy), add an
// entry to SUITES: async (ctx) => ({ fields: [...], docs: [{ name, expected: {field: value}, got: {field: value}, confidence: {field: number} }] })
// or, for scores that are not per-field (page-group accuracy), return { table: [[label, value], ...] }.
import fs from 'node:fs';
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { assignIds } from '../packages/core/dist/index.js';
import { extractDocument } from '../packages/extract/dist/index.js';
import { createOcrPool } from '../packages/ocr/dist/index.js';
import { loadConfig } from '../packages/runtime/dist/index.js';
import { extractSchemaBuiltin, findDates, inferDayFirst } from '../packages/schema/dist/index.js';
import { partOf, partsFromArgs } from './lib/corpus.mjs';
import { buildIndex, pageLines } from '../packages/schema/dist/doc-index.js';
import { takeOption, writeSummary } from './lib/eval-summary.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const parts = partsFromArgs(args);
takeOption(args, 'part');
const summaryOut = takeOption(args, 'summary');
const flag = (name, dflt) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt;
const corpus = path.resolve(root, args.find((a) => !a.startsWith('--')) ?? '../shared/corpus');
process.env.QUIRE_CORPUS_DIR = corpus; // partOf reads this corpus's VALIDATION.md
/** The part of a corpus file, by its folder. */
const partOfPath = (file) => partOf(path.basename(path.dirname(file)), path.basename(file));
const wanted = (file) => parts.includes(partOfPath(file));
const only = flag('only') ? new Set(flag('only').split(',')) : undefined;
const ocrMode = flag('ocr', 'both');
// the service's engine (QUIRE_OCR_ENGINE, else its default): the figures are those of the default configuration
const engine = flag('engine', loadConfig().ocrEngine);
if (!['wasm', 'native', 'onnx', 'auto'].includes(engine)) throw new Error(`--engine=${engine}: wasm, native, onnx or auto`);

// ---------- comparison ----------

const MONTHS = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const pad = (n) => String(n).padStart(2, '0');
/** Ground-truth dates as ISO: ISO already, d/m/y (SROIE is Malaysian, day first), "12 Mar 2018". */
export function isoDate(s, dayFirst = true) {
  if (s === null || s === undefined) return null;
  const t = String(s).trim();
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})/.exec(t);
  if (m) return `${m[1]}-${pad(m[2])}-${pad(m[3])}`;
  m = /^(\d{1,2})[./-](\d{1,2})[./-](\d{2,4})$/.exec(t);
  if (m) {
    const y = m[3].length === 2 ? 2000 + Number(m[3]) : Number(m[3]);
    const [d, mo] = dayFirst ? [m[1], m[2]] : [m[2], m[1]];
    return `${y}-${pad(mo)}-${pad(d)}`;
  }
  m = /^(\d{1,2})\s*([A-Za-z]{3})[a-z]*\.?\s*,?\s*(\d{4})$/.exec(t);
  if (m && MONTHS[m[2].toLowerCase()]) return `${m[3]}-${pad(MONTHS[m[2].toLowerCase()])}-${pad(m[1])}`;
  return t;
}
const normText = (s) => String(s).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
const num = (v) => (typeof v === 'number' ? v : Number(String(v).replace(/[^\d.-]/g, '')));

const COMPARE = {
  date: (e, g) => isoDate(e) === isoDate(g, false) || isoDate(e) === isoDate(g, true),
  number: (e, g) => Number.isFinite(num(g)) && Math.abs(num(e) - num(g)) < 0.005,
  text: (e, g) => normText(e) === normText(g),
  code: (e, g) => normText(e).replace(/^#/, '') === normText(g).replace(/^#/, ''),
};

// ---------- documents ----------

let ocrPool;
const ocr = () => (ocrPool ??= createOcrPool({ size: Math.max(1, Math.min(2, os.availableParallelism())), engine, tesseractPath: process.env.QUIRE_TESSERACT_PATH || undefined }));

const docCache = flag('doc-cache');

async function readOurs(file) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const cached = docCache && path.join(docCache, `${crypto.createHash('sha256').update(bytes).update(engine).digest('hex').slice(0, 24)}.json`); // a reading depends on the OCR engine
  if (cached && fs.existsSync(cached)) return JSON.parse(fs.readFileSync(cached, 'utf8'));
  const ext = path.extname(file).slice(1).toLowerCase();
  const format = ext === 'jpg' ? 'jpeg' : ext;
  const doc = await extractDocument(bytes, format, { ocr: format === 'pdf' ? undefined : await ocr() });
  if (cached) { fs.mkdirSync(docCache, { recursive: true }); fs.writeFileSync(cached, JSON.stringify(doc)); }
  return doc;
}

/** SROIE's own OCR lines (.boxes.csv: 4 corners + text) as a document, to score the engine apart from OCR. */
async function readBoxes(image, csv) {
  const meta = await sharp(image).metadata();
  const elements = fs.readFileSync(csv, 'utf8').split(/\r?\n/).filter(Boolean).map((line) => {
    const parts = line.split(',');
    const n = parts.slice(0, 8).map(Number);
    const text = parts.slice(8).join(',').trim();
    const xs = [n[0], n[2], n[4], n[6]], ys = [n[1], n[3], n[5], n[7]];
    const box = { x0: Math.min(...xs) / meta.width, y0: Math.min(...ys) / meta.height, x1: Math.max(...xs) / meta.width, y1: Math.max(...ys) / meta.height };
    return { kind: 'text', category: 'Text', text, box, page: 1, confidence: 1 };
  }).filter((e) => e.text);
  elements.sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
  return assignIds({ format: 'jpeg', pageCount: 1, warnings: [], pages: [{ number: 1, width: meta.width, height: meta.height, elements, words: [], selectionMarks: [] }] });
}

function runSchema(doc, fields, extra = {}) {
  const schema = { type: 'object', properties: { ...Object.fromEntries(fields.map((f) => [f.name, f.schema])), ...extra } };
  return extractSchemaBuiltin({ document: doc, schema, wantConfidence: true });
}

// ---------- suites ----------

const INVOICE_FIELDS = [
  { name: 'invoice_number', truth: 'invoice_number', compare: 'code', schema: { type: 'string' } },
  { name: 'date', truth: 'date', compare: 'date', schema: { type: 'string', format: 'date', description: 'Invoice date' } },
  { name: 'total', truth: 'amount', compare: 'number', schema: { type: 'number', description: 'Total amount of the invoice' } },
  { name: 'currency', truth: 'currency', compare: 'text', schema: { type: 'string', description: 'ISO 4217 currency code' } },
  { name: 'issuer', truth: 'issuer', compare: 'text', schema: { type: 'string', description: 'Company that issued the invoice' } },
  { name: 'customer', truth: 'customer', compare: 'text', schema: { type: 'string', description: 'Customer the invoice is addressed to' } },
];

/** Asked with the invoice fields, scored apart: row-level F1 against the ground truth's lines (lineItemScores). */
const LINE_ITEMS_SCHEMA = {
  type: 'array',
  items: { type: 'object', properties: { description: { type: 'string' }, quantity: { type: 'number' }, unit_price: { type: 'number' }, amount: { type: 'number' } } },
};

/** The ground truth's item lines in one shape: e-invoice lines, invoice2data's {name, price_unit}, {item, desc}. */
function truthLines(truth) {
  const lines = truth.lines ?? truth.line_items;
  if (!Array.isArray(lines) || !lines.length) return undefined;
  return lines.map((l) => ({
    description: l.description ?? l.name ?? l.desc ?? null,
    quantity: l.quantity ?? null,
    unit_price: l.unit_price ?? (l.price_unit !== undefined ? Number(l.price_unit) : null),
    amount: l.amount ?? null,
  })).filter((l) => l.description);
}

/**
 * A predicted row matches a true row when its description is the same text (or shares most of its
 * words: token F1 ≥ 0.8) and its amount agrees where the truth has one; rows are matched one to one,
 * in order. Returns matched, predicted and true row counts, and how many matched rows also have the
 * right quantity and unit price (where the truth has them).
 */
export function lineItemScores(expected, got) {
  const rows = Array.isArray(got) ? got.filter((r) => r && typeof r === 'object') : [];
  const used = new Set();
  let matched = 0, qtyOk = 0, qtyN = 0, priceOk = 0, priceN = 0;
  const missed = [];
  for (const e of expected) {
    const i = rows.findIndex((r, k) => !used.has(k) && r.description != null
      && (normText(r.description) === normText(e.description) || tokenOverlapF1(e.description, r.description) >= 0.8)
      && (e.amount === null || (r.amount != null && COMPARE.number(e.amount, r.amount))));
    if (i < 0) { missed.push(e); continue; }
    used.add(i);
    matched++;
    if (e.quantity !== null) { qtyN++; if (rows[i].quantity != null && COMPARE.number(e.quantity, rows[i].quantity)) qtyOk++; }
    if (e.unit_price !== null) { priceN++; if (rows[i].unit_price != null && COMPARE.number(e.unit_price, rows[i].unit_price)) priceOk++; }
  }
  return { matched, predicted: rows.length, expected: expected.length, qtyOk, qtyN, priceOk, priceN, misses: lineMisses(missed, rows, used) };
}

/**
 * Why true rows went unmatched, counted (aggregates, safe to print for the validation part): no rows
 * predicted at all; a predicted row with the right description but another amount; a predicted
 * description that holds the true one and more (extra lines, merged rows); one that holds only part of
 * it (cut); none sharing most of its words (another table, wrong column). A row is counted once, under
 * the first class that fits; predicted rows left over after matching are counted apart.
 */
function lineMisses(missed, rows, used) {
  const m = { noRows: 0, amountNull: 0, amountSwapped: 0, amount: 0, longer: 0, shorter: 0, other: 0, extra: rows.length - used.size };
  const toks = (s) => String(s ?? '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  /** Share of a's words that b holds. */
  const within = (a, b) => { const bs = new Set(toks(b)); const at = toks(a); return at.length ? at.filter((t) => bs.has(t)).length / at.length : 0; };
  for (const e of missed) {
    const described = rows.filter((r) => r.description != null);
    if (!rows.length) m.noRows++;
    else if (described.some((r) => normText(r.description) === normText(e.description) || tokenOverlapF1(e.description, r.description) >= 0.8)) {
      const r = described.find((x) => normText(x.description) === normText(e.description) || tokenOverlapF1(e.description, x.description) >= 0.8);
      if (r.amount == null) m.amountNull++;
      else if ([r.unit_price, r.quantity].some((v) => v != null && COMPARE.number(e.amount, v))) m.amountSwapped++;
      else m.amount++;
    }
    else if (described.some((r) => within(e.description, r.description) >= 0.8)) m.longer++;
    else if (described.some((r) => toks(r.description).length && within(r.description, e.description) >= 0.8)) m.shorter++;
    else m.other++;
  }
  return m;
}

/**
 * Why a receipt's date or total was missed (aggregates, safe to print for the validation part). A date:
 * no date read at all, the true date not among the dates read, or among them (then the order the
 * text's unambiguous dates vote for: month first swaps an ambiguous one). A total: an answer that is the
 * truth plus another printed amount (the cash handed over: truth + change), the truth less a printed
 * amount (a part: the subtotal before a tax or charge), or other.
 */
function receiptMissWhy(doc, scored, amounts) {
  const why = {};
  const texts = doc.pages.flatMap((p) => p.elements.flatMap((e) => (e.text ?? '').split(/\n/)));
  const e = scored.expected.date, g = scored.got.date;
  if (e != null && !(g !== null && COMPARE.date(e, g))) {
    const want = isoDate(e);
    const read = texts.flatMap((t) => [...findDates(t, { dayFirst: true }), ...findDates(t, { dayFirst: false })].map((d) => d.iso));
    const votes = inferDayFirst(texts);
    const dollar = texts.some((t) => /\$\s?\d/.test(t)) ? ', a $ amount printed' : '';
    const loose = texts.some((t) => /(?<![\dOoIlSB])[\dOoIlSB]{1,2}\s*[/.-]\s*[\dOoIlSB]{1,2}\s*[/.-]\s*[\dOoIlSB]{2,4}(?![\dOoIlSB])/.test(t) && /\d/.test(t));
    const written = texts.some((t) => /\b\d{1,2}\s*[-/ ]?\s*(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*/i.test(t));
    why.date = !read.length ? `no date read${loose ? ', a date-like run with spaces or look-alike letters' : ''}${written ? ', a written month' : ''}` : `true date ${read.includes(want) ? 'among' : 'not among'} the dates read, text votes ${votes === undefined ? 'neither order' : votes ? 'day first' : 'month first'}${dollar}`;
  }
  // an address cut short or run on: the kind of printed row after the answer's last row (what stopped it, or what it should have taken)
  const ea = scored.expected.address, ga = scored.got.address;
  if (typeof ea === 'string' && typeof ga === 'string' && normText(ea) !== normText(ga)) {
    const k = textMissClass(ea, ga);
    if (/cut at the end|extra after/.test(k)) {
      const ix = buildIndex(doc), rows = doc.pages.flatMap((p) => pageLines(ix, p.number) ?? []);
      const G = normText(ga);
      let last = -1;
      rows.forEach((r, i) => { const t = normText(r.text); if (t.length >= 3 && G.includes(t.slice(-Math.min(t.length, 12)))) last = i; });
      const kindOf = (r) => {
        if (!r) return 'none';
        const t = r.text;
        return /\b(tel|telp|fax|phone|h\/p|hp|mobile)\b/i.test(t) ? 'phone' : /\b(gst|sst|reg|roc|co\.? ?no|company no|tax)\b/i.test(t) ? 'registration or tax'
          : findDates(t).length ? 'date' : /:/.test(t) ? 'has a colon' : /\b\d{5}\b/.test(t) ? `postcode${/\+?\d[\d ()-]{7,}\d/.test(t) ? ' and a long number' : ''}${/,\s*$/.test(t) ? ', ends in a comma' : ''}` : /\d/.test(t) ? 'other with digits' : /\p{L}{2}/u.test(t) ? 'words only' : 'other';
      };
      why.address = last < 0 ? `${k}: answer not found in the rows` : k.startsWith('cut') ? `${k}: next row ${kindOf(rows[last + 1])}` : `${k}: last row taken ${kindOf(rows[last])}, row before it ${kindOf(rows[last - 1])}`;
    }
  }
  // a company missed: where the rows that best match the truth and the answer lie (the truth read with OCR slips, or another line taken)
  const ec = scored.expected.company, gc = scored.got.company;
  if (typeof ec === 'string' && !(gc !== null && COMPARE.text(ec, gc))) {
    const ix = buildIndex(doc), rows = doc.pages.flatMap((p) => pageLines(ix, p.number) ?? []).slice(0, 20);
    const best = (v) => {
      const V = normText(v);
      let at = -1, d = Infinity;
      rows.forEach((r, i) => { const t = normText(r.text); if (!t) return; const x = editDistance(V.slice(0, Math.max(t.length, 1)), t) / Math.max(V.length, t.length); if (x < d) { d = x; at = i; } });
      return { at, d };
    };
    const t = best(ec), g = gc === null ? undefined : best(gc);
    const where = (i) => (i < 0 ? 'nowhere' : i < 3 ? `row ${i + 1}` : 'below row 3');
    why.company = `truth's first row at ${where(t.at)} (${t.d <= 0.15 ? 'close' : 'far'})${g ? `, answer's at ${g.at === t.at ? 'the same row' : g.at < t.at ? 'a row above' : 'a row below'}` : ''}`;
  }
  const et = scored.expected.total, gt = scored.got.total;
  if (et != null && !(gt !== null && COMPARE.number(et, gt))) {
    const E = num(et), G = gt === null ? null : num(gt), printed = [...amounts];
    if (G === null) why.total = amounts.has(E) ? 'null, truth printed' : 'null, truth not printed';
    else if (printed.some((a) => a > 0 && Math.abs(G - a - E) < 0.005)) why.total = 'answer = truth + a printed amount';
    else if (printed.some((a) => a > 0 && Math.abs(G + a - E) < 0.005)) why.total = 'answer + a printed amount = truth';
    else why.total = amounts.has(E) ? 'other, truth printed' : 'other, truth not printed';
    // the words on the printed rows that carry the answer and the truth, as a kind of label
    const ix = buildIndex(doc), rows = doc.pages.flatMap((p) => pageLines(ix, p.number) ?? []);
    const kind = (v) => {
      const row = rows.find((r) => [...r.text.matchAll(/\d+[.,]\d{2}(?!\d)/g)].some((m) => Math.abs(Number(m[0].replace(',', '.')) - v) < 0.005));
      if (!row) return 'no row';
      const t = row.text.toLowerCase();
      return /disc|less|deposit|voucher|rebate|saving|member/.test(t) ? 'discount or deposit' : /cash|tender|paid|payment|card|visa|master/.test(t) ? 'payment' : /change|balance/.test(t) ? 'change' : /sub/.test(t) ? 'subtotal' : /total|amount|amt|net|due|payable/.test(t) ? 'total' : /round/.test(t) ? 'rounding' : /\p{L}{3}/u.test(t) ? 'other words' : 'no words';
    };
    const diff = G === null ? undefined : printed.find((a) => a > 0 && Math.abs(Math.abs(G - E) - a) < 0.005);
    why.total += ` (answer's row: ${G === null ? 'none' : kind(G)}, truth's row: ${kind(E)}${diff !== undefined ? `, the difference's row: ${kind(diff)}` : ''})`;
  }
  return why;
}

const RECEIPT_FIELDS = [
  { name: 'company', truth: 'company', compare: 'text', schema: { type: 'string', description: 'Name of the company that issued the receipt' } },
  { name: 'date', truth: 'date', compare: 'date', schema: { type: 'string', format: 'date' } },
  { name: 'address', truth: 'address', compare: 'text', schema: { type: 'string', description: 'Address of the company' } },
  { name: 'total', truth: 'total', compare: 'number', schema: { type: 'number', description: 'Total amount paid' } },
];

function score(file, fields, truth, answer) {
  const name = path.relative(corpus, file), part = partOfPath(file);
  const expected = {}, got = {}, confidence = {};
  for (const f of fields) {
    // a field the ground truth does not annotate is not scored (invoice2data templates extract what they know)
    expected[f.name] = f.truth in truth ? truth[f.truth] : undefined;
    got[f.name] = answer.values?.[f.name] ?? null;
    confidence[f.name] = answer.confidence?.[f.name] ?? null;
  }
  return { name, part, expected, got, confidence };
}

const first = (j) => (Array.isArray(j) ? j[0] : j);

export const SUITES = {
  async invoices() {
    const docs = [];
    const files = [
      ...fs.readdirSync(path.join(corpus, 'pdf-invoices')).filter((f) => f.endsWith('.pdf')).map((f) => path.join(corpus, 'pdf-invoices', f)),
      ...fs.readdirSync(path.join(corpus, 'images')).filter((f) => /\.(png|jpe?g)$/i.test(f) && !/^(sroie|funsd)-/.test(f)).map((f) => path.join(corpus, 'images', f)),
    ].filter(wanted);
    for (const file of files) {
      const truthFile = file.replace(/\.(pdf|png|jpe?g)$/i, '.expected.json');
      if (!fs.existsSync(truthFile)) continue;
      const truth = first(JSON.parse(fs.readFileSync(truthFile, 'utf8')));
      if (!truth?.invoice_number) continue;
      const doc = await readOurs(file);
      const answer = runSchema(doc, INVOICE_FIELDS, { line_items: LINE_ITEMS_SCHEMA });
      const scored = score(file, INVOICE_FIELDS, truth, answer);
      // for the aggregate diagnostics: whether a text field's true value is printed at all (readable in the document's text)
      const printed = normText(doc.pages.flatMap((p) => p.elements.flatMap((e) => (e.kind === 'table' ? e.cells.map((c) => c.text) : [e.text ?? '']))).join(' '));
      scored.ocr = !file.toLowerCase().endsWith('.pdf');
      scored.printed = Object.fromEntries(INVOICE_FIELDS.filter((f) => f.compare === 'text' && typeof scored.expected[f.name] === 'string').map((f) => [f.name, printed.includes(normText(scored.expected[f.name]))]));
      const lines = truthLines(truth);
      if (lines) scored.lines = { ...lineItemScores(lines, answer.values?.line_items), note: answer.notes?.['/line_items'] ?? null };
      docs.push(scored);
    }
    return { invoices: { fields: INVOICE_FIELDS, docs }, 'invoice line items': { lineItems: docs } };
  },
  async receipts() {
    const out = {};
    const files = fs.readdirSync(path.join(corpus, 'images')).filter((f) => /^sroie-.*\.jpg$/.test(f)).sort().filter((f) => wanted(path.join(corpus, 'images', f)));
    for (const mode of ocrMode === 'both' ? ['ours', 'boxes'] : [ocrMode]) {
      const docs = [];
      for (const f of files) {
        const image = path.join(corpus, 'images', f);
        const truth = JSON.parse(fs.readFileSync(image.replace(/\.jpg$/, '.expected.json'), 'utf8'));
        const doc = mode === 'boxes' ? await readBoxes(image, image.replace(/\.jpg$/, '.boxes.csv')) : await readOurs(image);
        const scored = score(image, RECEIPT_FIELDS, truth, runSchema(doc, RECEIPT_FIELDS));
        // for the aggregate diagnostics: whether a text field's true value is in the document's text as read
        const printed = normText(doc.pages.flatMap((p) => p.elements.map((e) => e.text ?? '')).join(' '));
        scored.printed = Object.fromEntries(RECEIPT_FIELDS.filter((f) => f.compare === 'text' && typeof scored.expected[f.name] === 'string').map((f) => [f.name, printed.includes(normText(scored.expected[f.name]))]));
        // and whether the true amount is printed as an amount with cents ("53.55", "53,55")
        const amounts = new Set(doc.pages.flatMap((p) => p.elements.flatMap((e) => [...(e.text ?? '').matchAll(/\d+[.,]\d{2}(?!\d)/g)].map((m) => Number(m[0].replace(',', '.'))))));
        for (const f of RECEIPT_FIELDS.filter((x) => x.compare === 'number' && scored.expected[x.name] != null)) scored.printed[f.name] = amounts.has(num(scored.expected[f.name]));
        scored.why = receiptMissWhy(doc, scored, amounts);
        docs.push(scored);
      }
      out[`receipts (${mode === 'boxes' ? 'SROIE OCR lines' : 'Quire OCR'})`] = { fields: RECEIPT_FIELDS, docs };
    }
    return out;
  },
};

// ---------- report ----------

const BUCKETS = [[0, 0.5], [0.5, 0.7], [0.7, 0.9], [0.9, 1.0001]];

export function summarize({ fields, docs }) {
  const rows = [];
  const calib = BUCKETS.map(() => ({ n: 0, ok: 0 }));
  for (const f of fields) {
    let exact = 0, tp = 0, predicted = 0, present = 0, tokenF1 = 0, nulls = 0, wrong = 0, near = 0, unprinted = 0, swapped = 0, ocrMissed = 0;
    const how = {}, edits = {};
    const scored = docs.filter((d) => d.expected[f.name] !== undefined);
    for (const d of scored) {
      const e = d.expected[f.name], g = d.got[f.name];
      const ok = e === null ? g === null : g !== null && COMPARE[f.compare](e, g);
      if (ok) exact++;
      else if (e !== null && g === null) nulls++;
      else {
        wrong++;
        if (f.compare === 'text' && e !== null && tokenOverlapF1(e, g) > 0) near++;
        if (f.compare === 'date' && e !== null) { const k = dateMissClass(e, g); how[k] = (how[k] ?? 0) + 1; }
        if (f.compare === 'number' && e !== null) {
          // a wrong amount: off by a rounding to the coin, a part of the truth (a subtotal, a tax), or more (what was handed over)
          const d = num(g) - num(e), k = Math.abs(d) <= 0.05 ? 'within 0.05' : d < 0 ? 'less than the truth' : 'more than the truth';
          how[k] = (how[k] ?? 0) + 1;
        }
        if (f.compare === 'text' && e !== null) {
          const k = textMissClass(e, g);
          how[k] = (how[k] ?? 0) + 1;
          if (k === 'character errors') for (const [kind, n] of Object.entries(charEdits(e, g))) edits[kind] = (edits[kind] ?? 0) + n;
        }
        // a party's field answered with another text field's true value (the issuer given as the customer)
        if (f.compare === 'text' && fields.some((o) => o !== f && o.compare === 'text' && typeof d.expected[o.name] === 'string' && normText(d.expected[o.name]) === normText(g))) swapped++;
      }
      if (!ok && d.why?.[f.name]) how[`why: ${d.why[f.name]}`] = (how[`why: ${d.why[f.name]}`] ?? 0) + 1;
      if (!ok && d.printed && d.printed[f.name] === false) unprinted++;
      if (!ok && d.ocr) ocrMissed++;
      tokenF1 += e === null ? (ok ? 1 : 0) : tokenOverlapF1(e, g);
      if (g !== null) predicted++;
      if (e !== null) present++;
      if (e !== null && g !== null && ok) tp++;
      const c = d.confidence[f.name];
      if (g !== null && typeof c === 'number') {
        const b = BUCKETS.findIndex(([lo, hi]) => c >= lo && c < hi);
        calib[b].n++;
        if (ok) calib[b].ok++;
      }
    }
    const p = predicted ? tp / predicted : 0, r = present ? tp / present : 0;
    rows.push({ field: f.name, n: scored.length, exact: scored.length ? exact / scored.length : 0, precision: p, recall: r, f1: p + r ? (2 * p * r) / (p + r) : 0, tokenF1: f.compare === 'text' && scored.length ? tokenF1 / scored.length : null, nulls, wrong, near, unprinted, swapped, ocrMissed, how, edits });
  }
  return { rows, calibration: BUCKETS.map(([lo, hi], i) => ({ bucket: `${lo}–${Math.min(hi, 1)}`, n: calib[i].n, accuracy: calib[i].n ? calib[i].ok / calib[i].n : null })) };
}

/** Edit distance of a and b; with `within`, of a against the best-matching substring of b (free ends in b). */
function editDistance(a, b, within = false) {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => (within ? 0 : j));
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return within ? Math.min(...prev) : prev[b.length];
}

/**
 * How a wrong text answer differs from the truth, after the comparison's normalisation (aggregates,
 * safe to print for the validation part): cut short at its end or start (the answer is a part of the
 * truth), extra text after or before it (another line joined: a phone or registration line, the company
 * name), the same text with character errors (OCR), or other. Up to 15 % of characters may differ
 * within a part (a cut address read with OCR errors is still cut).
 */
export function textMissClass(e, g) {
  const E = normText(e), G = normText(g);
  if (!G) return 'other';
  const near = (a, b) => editDistance(a, b, true) <= Math.max(1, 0.15 * a.length);
  const side = (part, whole, [atEnd, atStart]) => {
    const head = editDistance(part, whole.slice(0, part.length)) <= Math.max(1, 0.15 * part.length);
    const tail = editDistance(part, whole.slice(-part.length)) <= Math.max(1, 0.15 * part.length);
    return head ? atEnd : tail ? atStart : `${atEnd.split(' ')[0]} both ends`;
  };
  // what a cut answer left out: a number (a postcode, a house number) or words only (a town, a state)
  // what was left out of a cut answer or added to a long one: with a number (a postcode, a phone) or words only (a town, a state, a tagline)
  const rest = (k, part, whole) => {
    const left = k.endsWith('end') || k.endsWith('after') ? whole.slice(part.length) : k.endsWith('start') || k.endsWith('before') ? whole.slice(0, whole.length - part.length) : '';
    return left ? `${k} (${/\d/.test(left) ? 'with digits' : 'letters only'})` : k;
  };
  if (G.length < 0.9 * E.length && near(G, E)) return rest(side(G, E, ['cut at the end', 'cut at the start']), G, E);
  if (G.length > 1.1 * E.length && near(E, G)) return rest(side(E, G, ['extra after', 'extra before']), E, G);
  if (editDistance(E, G) <= Math.max(1, 0.15 * E.length)) return 'character errors';
  return 'other';
}

/**
 * The character edits that turn the truth into a wrong text answer, after the comparison's
 * normalisation, counted by kind (aggregates, safe to print for the validation part): a letter read as a
 * digit or the reverse (look-alikes), a letter read as another letter, a character missing, one added.
 */
export function charEdits(e, g) {
  const E = normText(e), G = normText(g);
  const d = Array.from({ length: E.length + 1 }, (_, i) => Array.from({ length: G.length + 1 }, (_, j) => (i ? (j ? 0 : i) : j)));
  for (let i = 1; i <= E.length; i++) for (let j = 1; j <= G.length; j++) d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (E[i - 1] === G[j - 1] ? 0 : 1));
  const out = { 'letter as digit': 0, 'digit as letter': 0, 'letter as letter': 0, 'digit as digit': 0, missing: 0, added: 0 };
  const digit = (c) => /\d/.test(c);
  for (let i = E.length, j = G.length; i || j;) {
    if (i && j && d[i][j] === d[i - 1][j - 1] + (E[i - 1] === G[j - 1] ? 0 : 1)) {
      if (E[i - 1] !== G[j - 1]) out[`${digit(E[i - 1]) ? 'digit' : 'letter'} as ${digit(G[j - 1]) ? 'digit' : 'letter'}`]++;
      i--; j--;
    } else if (i && d[i][j] === d[i - 1][j] + 1) { out.missing++; i--; } else { out.added++; j--; }
  }
  return out;
}

/**
 * How a wrong date differs from the truth (aggregates, safe to print for the validation part): day and
 * month swapped, the same day and month in another year, one digit off (an OCR slip), or another date.
 */
export function dateMissClass(e, g) {
  const E = isoDate(e), G = isoDate(g, false);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(E) || !/^\d{4}-\d{2}-\d{2}$/.test(String(G))) return 'not a date';
  const [ey, em, ed] = E.split('-'), [gy, gm, gd] = G.split('-');
  if (ey === gy && em === gd && ed === gm) return 'day and month swapped';
  if (em === gm && ed === gd) return 'another year';
  if ([...E].filter((c, i) => c !== G[i]).length === 1) return 'one digit off';
  return 'another date';
}

/** Word-level F1 of a text answer against the truth (case and punctuation ignored): partial credit for a long value such as an address. */
export function tokenOverlapF1(e, g) {
  if (g === null || g === undefined) return 0;
  const toks = (s) => String(s).toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const want = toks(e), got = toks(g);
  if (!want.length || !got.length) return want.length === got.length ? 1 : 0;
  const left = new Map();
  for (const t of want) left.set(t, (left.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of got) if (left.get(t) > 0) { common++; left.set(t, left.get(t) - 1); }
  if (!common) return 0;
  const p = common / got.length, r = common / want.length;
  return (2 * p * r) / (p + r);
}

const fmt = (x) => (x === null ? '–' : x.toFixed(2));

async function main() {
  const t0 = performance.now();
  const report = {};
  const summaryRows = [];
  for (const [name, suite] of Object.entries(SUITES)) {
    if (only && !only.has(name)) continue;
    const res = await suite({ corpus });
    const suiteParts = res.fields ? { [name]: res } : res;
    for (const [label, suitePart] of Object.entries(suiteParts)) {
      if (suitePart.table) { console.log(`\n## ${label}`); for (const [k, v] of suitePart.table) console.log(`${k}: ${v}`); report[label] = suitePart; continue; }
      if (suitePart.lineItems) {
        report[label] = {};
        console.log(`\n## ${label} (documents whose ground truth lists lines)\n| part | documents | true rows | predicted rows | matched | precision | recall | row F1 | quantity ok | unit price ok |\n|---|---|---|---|---|---|---|---|---|---|`);
        const figures = {};
        const whyMissed = [];
        for (const part of parts) {
          const docs = suitePart.lineItems.filter((d) => d.part === part && d.lines);
          const sum = (k) => docs.reduce((n, d) => n + d.lines[k], 0);
          const [m, p, e] = [sum('matched'), sum('predicted'), sum('expected')];
          const precision = p ? m / p : 0, recall = e ? m / e : 0, f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
          const share = (ok, n) => (sum(n) ? `${sum(ok)}/${sum(n)}` : '–');
          console.log(`| ${part} | ${docs.length} | ${e} | ${p} | ${m} | ${fmt(precision)} | ${fmt(recall)} | ${fmt(f1)} | ${share('qtyOk', 'qtyN')} | ${share('priceOk', 'priceN')} |`);
          const miss = (k) => docs.reduce((n, d) => n + d.lines.misses[k], 0);
          const unmapped = {};
          for (const d of docs) for (const prop of /^no column for: (.*)/.exec(d.lines.note ?? '')?.[1].split(', ') ?? []) unmapped[prop] = (unmapped[prop] ?? 0) + 1;
          whyMissed.push(`${part}: documents whose item table had no column for: ${Object.entries(unmapped).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`);
          whyMissed.push(`${part}: documents with no rows ${docs.filter((d) => !d.lines.predicted).length}/${docs.length}; true rows missed ${e - m}: no rows predicted ${miss('noRows')}, description right but amount null ${miss('amountNull')}, in another column ${miss('amountSwapped')}, other ${miss('amount')}, description longer than the truth ${miss('longer')}, shorter ${miss('shorter')}, no row like it ${miss('other')}; predicted rows unmatched ${miss('extra')}`);
          report[label][part] = { documents: docs.length, expected: e, predicted: p, matched: m, precision, recall, f1 };
          figures[part] = { value: e ? f1 : null, n: e };
        }
        console.log(`\nwhy rows were missed (each true row counted once):\n${whyMissed.map((l) => `- ${l}`).join('\n')}`);
        summaryRows.push({ kind: `schema ${label}`, measure: 'row F1', unit: 'rows', ...figures });
        continue;
      }
      report[label] = {};
      const byPart = {};
      for (const part of parts) {
        const docs = suitePart.docs.filter((d) => d.part === part);
        const s = summarize({ fields: suitePart.fields, docs });
        byPart[part] = s;
        report[label][part] = { ...s, ...(part === 'dev' ? { docs } : {}) };
        console.log(`\n## ${label}, ${part} part (${docs.length} documents)\n| field | n | exact | precision | recall | F1 | token F1 |\n|---|---|---|---|---|---|---|`);
        for (const r of s.rows) console.log(`| ${r.field} | ${r.n} | ${fmt(r.exact)} | ${fmt(r.precision)} | ${fmt(r.recall)} | ${fmt(r.f1)} | ${fmt(r.tokenF1)} |`);
        console.log(`\nmisses (aggregate): ${s.rows.filter((r) => r.nulls || r.wrong).map((r) => `${r.field} null ${r.nulls}, wrong ${r.wrong}${r.near ? ` (${r.near} sharing words)` : ''}${r.swapped ? ` (${r.swapped} another field's value)` : ''}${r.unprinted ? ` (${r.unprinted} missed whose value is not in the text as printed)` : ''}${r.ocrMissed ? ` (${r.ocrMissed} on images read by OCR)` : ''}${Object.keys(r.how).length ? ` [${Object.entries(r.how).map(([k, v]) => `${k} ${v}`).join(', ')}]` : ''}`).join(' · ') || 'none'}`);
        const edited = s.rows.filter((r) => Object.values(r.edits).some(Boolean));
        if (edited.length) console.log(`\ncharacter edits in answers wrong by character errors: ${edited.map((r) => `${r.field}: ${Object.entries(r.edits).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(', ')}`).join(' · ')}`);
        console.log(`\nconfidence calibration: ${s.calibration.map((c) => `${c.bucket}: ${c.n ? `${fmt(c.accuracy)} (n=${c.n})` : 'n=0'}`).join(' · ')}`);
        if (part === 'dev' && args.includes('--verbose')) for (const d of docs) console.log(d.name, JSON.stringify(d.got), '≟', JSON.stringify(d.expected));
      }
      for (const [i, f] of suitePart.fields.entries()) {
        summaryRows.push({ kind: `schema ${label}`, measure: `${f.name} exact`, unit: 'documents', ...Object.fromEntries(parts.map((p) => [p, { value: byPart[p].rows[i].n ? byPart[p].rows[i].exact : null, n: byPart[p].rows[i].n }])) });
      }
    }
  }
  console.log(`\n${((performance.now() - t0) / 1000).toFixed(1)} s`);
  if (flag('json')) fs.writeFileSync(flag('json'), JSON.stringify(report, null, 2));
  writeSummary(summaryOut, { eval: 'schema', parts, seconds: process.uptime(), rows: summaryRows });
  if (ocrPool) await (await ocrPool).close();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
