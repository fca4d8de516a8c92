import { extractDocument } from '@quire/extract';
import type { Document } from '@quire/core';
import { classifyBuiltin } from './classify.js';
import { CALIBRATION_PIPELINES, makeCalibrationSet, type CalibrationDocument, type CalibrationType } from '../../../tests/fixtures/pdf/calibration-set.js';
// @ts-expect-error -- plain ESM script helper without type declarations
import { reliability, reliabilityLines } from '../../../scripts/lib/reliability.mjs';

/**
 * Classify's stated confidence against a generated calibration set (invoices in seven languages,
 * fillable and printed forms, table reports, letters, a contract, documents unlike every type), each
 * document against several pipeline sets: an answer given with confidence 0.8 should be right about
 * 8 times in 10. The corpus packets hold too few documents to show that alone.
 */

/** Pipeline sets a user might configure: all five types, the packet eval's three, and a set without forms or reports. */
const SETS: CalibrationType[][] = [
  ['invoice', 'form', 'table_report', 'letter', 'contract'],
  ['invoice', 'form', 'table_report'],
  ['letter', 'contract', 'invoice'],
  ['table_report', 'letter', 'form'],
];
/** The same sets again with pipelines named only (no description), as a user who types just "invoice" has them. */
const NAMES_ONLY = SETS.length;

interface Answer { doc: string; set: number; truth: CalibrationType | null; predicted: string | null; confidence: number; correct: boolean }

let answers: Answer[] = [];

beforeAll(async () => {
  const docs: (CalibrationDocument & { extracted: Document })[] = [];
  for (const d of await makeCalibrationSet()) {
    const doc = await extractDocument(d.pdf, 'pdf');
    docs.push({ ...d, extracted: d.pages ? { ...doc, pages: doc.pages.filter((p) => d.pages!.includes(p.number)) } : doc });
  }
  answers = docs.flatMap((d) => [...SETS, ...SETS].flatMap((types, set) => {
    if (d.type && !types.includes(d.type)) return [];
    const pipelines = CALIBRATION_PIPELINES.filter((p) => types.includes(p.id)).map((p) => (set >= NAMES_ONLY ? { id: p.id, name: p.name } : p));
    const out = classifyBuiltin({ document: { ...d.extracted, title: undefined }, pipelines });
    const confidence = out.scores.find((s) => s.pipelineId === out.pipelineId)?.score ?? out.scores[0].score;
    return [{ doc: d.name, set, truth: d.type, predicted: out.pipelineId, confidence, correct: out.pipelineId === d.type }];
  }));
}, 300_000);

describe('classify confidence on the generated calibration set', () => {
  it('is right on nearly every typed document and its reliability table is sane', () => {
    const typed = answers.filter((a) => a.truth !== null);
    expect(typed.length).toBeGreaterThanOrEqual(120);
    const table = reliability(typed);
    console.log(['classify reliability (generated calibration set): stated confidence vs observed accuracy', ...reliabilityLines(table)].join('\n  '));
    const wrong = typed.filter((a) => !a.correct);
    if (wrong.length) console.log(`wrong: ${wrong.map((a) => `${a.doc} (set ${a.set}) → ${a.predicted} at ${a.confidence.toFixed(2)}`).join(', ')}`);
    expect(wrong.length / typed.length).toBeLessThanOrEqual(0.1);
    expect(table.ece).toBeLessThanOrEqual(0.1);
    // every well-populated bin states about the accuracy it has
    for (const b of table.bins as { n: number; confidence: number; accuracy: number }[]) if (b.n >= 5) expect(Math.abs(b.accuracy - b.confidence)).toBeLessThanOrEqual(0.2);
    // wrong answers are stated with less confidence than right ones
    const mean = (xs: Answer[]) => xs.reduce((s, a) => s + a.confidence, 0) / xs.length;
    if (wrong.length) expect(mean(wrong)).toBeLessThan(mean(typed.filter((a) => a.correct)) - 0.2);
  });

  it('labels invoices in every language as invoices, never as table reports', () => {
    const invoices = answers.filter((a) => a.truth === 'invoice');
    expect(invoices.length).toBeGreaterThanOrEqual(60);
    for (const a of invoices) expect({ doc: a.doc, set: a.set, predicted: a.predicted }).toEqual({ doc: a.doc, set: a.set, predicted: 'invoice' });
  });

  it('routes a fillable page that prints little to the form pipeline', () => {
    for (const a of answers.filter((x) => x.doc.startsWith('form-widgets') || x.doc === 'packet-fillable-de')) {
      expect({ doc: a.doc, set: a.set, predicted: a.predicted }).toEqual({ doc: a.doc, set: a.set, predicted: 'form' });
      expect(a.confidence).toBeGreaterThan(0.6);
    }
  });

  it('gives a document unlike every type no pipeline and a low confidence', () => {
    const unlike = answers.filter((a) => a.truth === null);
    expect(unlike).toHaveLength(2 * 2 * SETS.length);
    for (const a of unlike) {
      expect({ doc: a.doc, set: a.set, predicted: a.predicted }).toEqual({ doc: a.doc, set: a.set, predicted: null });
      expect(a.confidence).toBeLessThan(0.3);
    }
  });
});
