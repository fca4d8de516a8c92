// Fits the built-in classifier's one calibration parameter, TAU (packages/classify/src/classify.ts: the
// softmax temperature in distinctive word matches), by maximum likelihood: the TAU under which the right
// type's probability is highest over the first pages of the corpus packets' DEV part (the validation part
// is never read here). Prints the negative log-likelihood, accuracy and expected calibration error per
// TAU on a grid; the constant in classify.ts is set by hand from the best row.
// Usage: node scripts/build.mjs && node scripts/fit-classify-temperature.mjs [dir=../shared/corpus/packets]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractDocument } from '../packages/extract/dist/index.js';
import { classifyBuiltin } from '../packages/classify/dist/index.js';
import { createOcrPool } from '../packages/ocr/dist/index.js';
import { loadConfig } from '../packages/runtime/dist/index.js';
import { partOf } from './lib/corpus.mjs';
import { reliability } from './lib/reliability.mjs';
import { topicFor } from './eval-split.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.resolve(process.argv[2] ?? path.resolve(root, '../shared/corpus/packets'));
const GRID = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4, 5, 6];

let pool;
const ocr = { recognize: async (image, page) => { pool ??= createOcrPool({ size: 1, engine: loadConfig().ocrEngine }); return (await pool).recognize(image, page); } };
/** One first page per expected part: the request classify sees and the right pipeline. */
const cases = [];
try {
  for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.expected.json')).sort()) {
    if (partOf('packets', name) !== 'dev') continue;
    const base = name.replace(/\.expected\.json$/, '');
    const expected = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
    const doc = await extractDocument(new Uint8Array(fs.readFileSync(path.join(dir, `${base}.pdf`))), 'pdf', { ocr });
    const pipelines = [...new Set(expected.segments.map((s) => s.type))].map((t) => ({ id: t, ...topicFor(t) }));
    for (const s of expected.segments) {
      const page = doc.pages.find((p) => p.number === s.start_page);
      cases.push({ req: { document: { ...doc, title: undefined, pages: page ? [page] : [] }, pipelines, maxPages: 1 }, truth: s.type });
    }
  }
} finally {
  if (pool) await (await pool).close();
}
console.log(`${cases.length} first pages from the dev packets`);
for (const tau of GRID) {
  let nll = 0;
  const answers = cases.map(({ req, truth }) => {
    const out = classifyBuiltin(req, { tau });
    const p = out.scores.find((s) => s.pipelineId === truth)?.score ?? 0;
    nll -= Math.log(Math.max(p, 1e-3));
    const confidence = out.scores.find((s) => s.pipelineId === out.pipelineId)?.score ?? out.scores[0]?.score ?? 0;
    return { confidence, correct: out.pipelineId === truth };
  });
  const r = reliability(answers);
  console.log(`TAU ${tau.toFixed(2)}: NLL ${(nll / cases.length).toFixed(3)}  accuracy ${(answers.filter((a) => a.correct).length / answers.length).toFixed(3)}  ECE ${r.ece.toFixed(3)}  mean confidence ${(answers.reduce((s, a) => s + a.confidence, 0) / answers.length).toFixed(3)}`);
}
