// Split and classify accuracy on the corpus packets (multi-document PDFs with 1-indexed page ranges
// and a type per part). For each packet: extract, split with the set of expected types as topics
// (generic descriptions, never per file), score page accuracy; classify each part's first page
// against the same types. Uses the LanguageModel port: built-in engines, or an OpenAI-compatible
// endpoint when QUIRE_LLM_BASE_URL is set.
// The validation part of the corpus (scripts/lib/corpus.mjs) is reported in aggregate only.
// Classify confidence (first pages) and split confidence (each detected document, right when it is an expected
// part exactly) are reported as reliability tables (scripts/lib/reliability.mjs) per part.
// Usage: node scripts/build.mjs && node scripts/eval-split.mjs [dir=../shared/corpus/packets] [--names-only]
//        [--part dev|validation|all] [--summary FILE]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractDocument } from '../packages/extract/dist/index.js';
import { createLanguageModel } from '../packages/models/dist/index.js';
import { loadConfig } from '../packages/runtime/dist/index.js';
import { classifyBuiltin } from '../packages/classify/dist/index.js';
import { splitBuiltin, splitsByTopic } from '../packages/split/dist/index.js';
import { createOcrPool } from '../packages/ocr/dist/index.js';
import { partOf, partsFromArgs } from './lib/corpus.mjs';
import { takeOption, writeSummary } from './lib/eval-summary.mjs';
import { reliability, reliabilityLines } from './lib/reliability.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * What a user would write for common document types; anything else gets its humanized name.
 * Generic by type, the same for every file.
 */
const GENERIC_DESCRIPTIONS = {
  invoice: 'Invoice or bill: invoice number, dates, billed items, amounts, tax and total due',
  receipt: 'Receipt for a purchase: items, amount paid, payment method',
  tax_form: 'Government tax form with numbered lines, boxes and instructions',
  form: 'Form with fields to fill in, checkboxes and a signature',
  table_report: 'Report made of statistical tables: rows and columns of figures',
  report: 'Report with findings, analysis, results and conclusions',
  text_document: 'Running prose text: an article, essay, letter or speech',
  letter: 'Letter addressed to a person, with a greeting and a signature',
  contract: 'Agreement between parties with clauses, terms and signatures',
};

export const topicFor = (type, namesOnly = false) => ({ name: type, description: (namesOnly ? undefined : GENERIC_DESCRIPTIONS[type]) ?? type.replace(/[_-]+/g, ' ') });

/**
 * Scores every `NAME.pdf` with a `NAME.expected.json` in `dir` whose corpus part is in `parts`. Returns
 * per-packet results (each with its part) and page accuracy of the split and first-page classify
 * accuracy per part (`byPart`) and over all. `log` receives one line per dev-part packet.
 */
export async function evaluateSplit(dir = path.resolve(root, '../shared/corpus/packets'), { log = () => undefined, languageModel, namesOnly = false, parts = ['dev', 'validation'] } = {}) {
  const lm = languageModel ?? createLanguageModel(loadConfig().llm, { classify: classifyBuiltin, split: splitBuiltin });
  let pool;
  const ocr = { recognize: async (image, page) => { pool ??= createOcrPool({ size: 1, engine: loadConfig().ocrEngine }); return (await pool).recognize(image, page); } };
  const packets = [];
  try {
    const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.expected.json')).sort() : [];
    for (const name of names) {
      const base = name.replace(/\.expected\.json$/, '');
      const part = partOf('packets', name);
      if (!parts.includes(part)) continue;
      const pdf = path.join(dir, `${base}.pdf`);
      if (!fs.existsSync(pdf)) continue;
      const expected = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
      const t0 = Date.now();
      const doc = await extractDocument(new Uint8Array(fs.readFileSync(pdf)), 'pdf', { ocr });
      const types = [...new Set(expected.segments.map((s) => s.type))];
      const topics = types.map((t) => topicFor(t, namesOnly));
      const truth = new Map();
      for (const s of expected.segments) for (let p = s.start_page; p <= s.end_page; p++) truth.set(p, s.type);
      const answer = await lm.split({ document: doc, topics });
      const { splits } = splitsByTopic(answer, topics, doc.pages.map((p) => p.number));
      const predicted = new Map();
      for (const s of splits) for (const p of s.pages) predicted.set(p, s.name);
      const pages = [...truth.keys()];
      const correctPages = pages.filter((p) => predicted.get(p) === truth.get(p)).length;
      const expectedDocs = expected.segments.map((s) => `${s.type}:${s.start_page}-${s.end_page}`);
      const predictedDocs = answer.groups.map((g) => `${g.topic}:${g.pages[0]}-${g.pages[g.pages.length - 1]}`);
      // each detected document with its stated confidence, right when an expected part has its type and pages exactly
      const groups = answer.groups.map((g, i) => ({ confidence: g.confidence, correct: expectedDocs.includes(predictedDocs[i]) }));
      const pipelines = types.map((t) => ({ id: t, ...topicFor(t, namesOnly) }));
      const firstPages = [];
      for (const s of expected.segments) {
        const page = doc.pages.find((p) => p.number === s.start_page);
        const out = await lm.classify({ document: { ...doc, title: undefined, pages: page ? [page] : [] }, pipelines, maxPages: 1 });
        // the stated confidence of the answer: the chosen pipeline's score (the top score when none was chosen)
        const confidence = out.scores.find((x) => x.pipelineId === out.pipelineId)?.score ?? out.scores[0]?.score ?? 0;
        firstPages.push({ page: s.start_page, expected: s.type, predicted: out.pipelineId, confidence, correct: out.pipelineId === s.type });
      }
      const r = {
        packet: base, part, pages: pages.length, pageAccuracy: correctPages / pages.length,
        documentsExact: expectedDocs.join(' ') === predictedDocs.join(' '), expectedDocs, predictedDocs,
        classifyAccuracy: firstPages.filter((f) => f.correct).length / firstPages.length, firstPages, groups, ms: Date.now() - t0,
      };
      packets.push(r);
      if (part === 'dev') log(`${base}: pages ${correctPages}/${pages.length} = ${r.pageAccuracy.toFixed(3)}; documents ${r.documentsExact ? 'exact' : `expected [${expectedDocs.join(' ')}] got [${predictedDocs.join(' ')}]`}; `
        + `first-page classify ${firstPages.filter((f) => f.correct).length}/${firstPages.length} (confidence ${firstPages.map((f) => f.confidence.toFixed(2)).join(' ')})${firstPages.some((f) => !f.correct) ? ` (missed: ${firstPages.filter((f) => !f.correct).map((f) => `p${f.page} ${f.expected}→${f.predicted}`).join(', ')})` : ''}; ${r.ms} ms`);
    }
  } finally {
    if (pool) await (await pool).close();
  }
  return { model: lm.id, packets, ...accuracies(packets), byPart: Object.fromEntries(parts.map((p) => [p, accuracies(packets.filter((k) => k.part === p))])) };
}

/** Page accuracy (over pages) and first-page classify accuracy (over parts) of some packets. */
function accuracies(packets) {
  const pages = packets.reduce((s, p) => s + p.pages, 0);
  const segments = packets.reduce((s, p) => s + p.firstPages.length, 0);
  return {
    pages, segments, calibration: reliability(packets.flatMap((p) => p.firstPages)), splitCalibration: reliability(packets.flatMap((p) => p.groups)),
    pageAccuracy: pages ? packets.reduce((s, p) => s + p.pageAccuracy * p.pages, 0) / pages : null,
    classifyAccuracy: segments ? packets.reduce((s, p) => s + p.firstPages.filter((f) => f.correct).length, 0) / segments : null,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const parts = partsFromArgs(args);
  takeOption(args, 'part');
  const summaryOut = takeOption(args, 'summary');
  const namesOnly = args.includes('--names-only'); // topics described by their names alone
  const dir = path.resolve(args.find((a) => !a.startsWith('--')) ?? path.resolve(root, '../shared/corpus/packets'));
  if (!fs.existsSync(dir)) { console.log(`no packets at ${dir}; nothing to evaluate`); process.exit(0); }
  const r = await evaluateSplit(dir, { log: (l) => console.log(l), namesOnly, parts });
  for (const [part, a] of Object.entries(r.byPart)) {
    console.log(`${part} part (${r.model}): split page accuracy ${a.pageAccuracy?.toFixed(3) ?? 'n/a'} over ${a.pages} pages; first-page classify accuracy ${a.classifyAccuracy?.toFixed(3) ?? 'n/a'} over ${a.segments} documents`);
    console.log(`  classify reliability (${part}): stated confidence of the first-page answer vs observed accuracy`);
    for (const line of reliabilityLines(a.calibration)) console.log(`    ${line}`);
    console.log(`  split reliability (${part}): stated confidence of each detected document vs whether it is an expected part exactly`);
    for (const line of reliabilityLines(a.splitCalibration)) console.log(`    ${line}`);
  }
  const figure = (pick) => Object.fromEntries(Object.entries(r.byPart).map(([p, a]) => [p, pick(a)]));
  writeSummary(summaryOut, {
    eval: 'split', parts, seconds: process.uptime(), rows: [
      { kind: 'split packets', measure: 'page accuracy', unit: 'pages', ...figure((a) => ({ value: a.pageAccuracy, n: a.pages })) },
      { kind: 'classify packets', measure: 'first-page accuracy', unit: 'documents', ...figure((a) => ({ value: a.classifyAccuracy, n: a.segments })) },
      { kind: 'classify packets', measure: 'expected calibration error', unit: 'documents', ...figure((a) => ({ value: a.calibration.ece, n: a.segments })) },
      { kind: 'split packets', measure: 'expected calibration error', unit: 'detected documents', ...figure((a) => ({ value: a.splitCalibration.ece, n: a.splitCalibration.bins.reduce((t, b) => t + b.n, 0) })) },
    ],
  });
}
