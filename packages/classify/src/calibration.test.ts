import { extractDocument } from '@quire/extract';
import type { Document } from '@quire/core';
import { classifyBuiltin } from './classify.js';
import { kindEvidence, kindOf } from './document-kind.js';
import { makeMultilingualPacketPdf, makeStatisticalReportPdf, type InvoiceLanguage } from '../../../tests/fixtures/pdf/multilingual-packet.js';
import { documentOf, lines, page } from '../../../tests/fixtures/documents/builder.js';

/** What a user routes to: generic descriptions in English. */
const PIPELINES = [
  { id: 'invoices', name: 'Invoices', description: 'Invoice or bill: invoice number, dates, billed items, amounts, tax and total due' },
  { id: 'forms', name: 'Forms', description: 'Form with fields to fill in, checkboxes and a signature' },
  { id: 'letters', name: 'Letters', description: 'Letter addressed to a person, with a greeting and a signature' },
];

const pagesOf = (doc: Document, numbers: number[]): Document => ({ ...doc, title: undefined, pages: doc.pages.filter((p) => numbers.includes(p.number)) });
const confidenceOf = (out: ReturnType<typeof classifyBuiltin>) => out.scores.find((s) => s.pipelineId === out.pipelineId)?.score ?? out.scores[0].score;

describe('kind cues', () => {
  it('a topic names its kind in its own words', () => {
    expect(kindOf('Invoices', 'supplier bills')).toBe('billing');
    expect(kindOf('tax_form', 'Government tax form with numbered lines')).toBe('form');
    expect(kindOf('table_report', 'rows and columns of figures')).toBeUndefined();
    expect(kindOf('contracts', 'Agreement between parties')).toBeUndefined();
  });
  it('an invoice word in any language, a VAT number or amounts with a currency are billing evidence', () => {
    const ev = (t: string[]) => kindEvidence(page(1, lines(t, 0.1, 0.1))).billing;
    expect(ev(['請求書', '合計 ¥12,000'])).toBeGreaterThan(0.7);
    expect(ev(['Faktura nr 12/2024', 'NIP 123-456-32-18'])).toBeGreaterThan(0.8);
    expect(ev(['Weather forecast for the weekend', 'Sunny spells, light winds.'])).toBe(0);
  });
  it('an invoice word in a title or label is stronger evidence than one in a sentence', () => {
    const ev = (t: string[]) => kindEvidence(page(1, lines(t, 0.1, 0.1))).billing;
    const sentence = ev(['Thank you for choosing our practice. Your invoice will follow separately by post next week.']);
    expect(sentence).toBeGreaterThan(0);
    expect(ev(['FACTUUR', 'Factuurnummer: F-2024-0815'])).toBeGreaterThan(sentence + 0.3);
  });
  it('a greeting and a complimentary close are letter evidence in any language; an address line is not', () => {
    const ev = (t: string[]) => kindEvidence(page(1, lines(t, 0.1, 0.1))).letter;
    expect(ev(['Sehr geehrte Frau Schneider,', 'herzlichen Dank für Ihren Brief.', 'Mit freundlichen Grüßen'])).toBeGreaterThan(0.7);
    expect(ev(['Cher Monsieur Martin,', 'Je vous remercie de votre lettre.'])).toBeGreaterThan(0.4);
    expect(ev(['Madame Claire Dubois', '12 rue des Lilas', '69003 Lyon'])).toBe(0);
    expect(kindOf('letter', 'Letter addressed to a person')).toBe('letter');
  });
});

describe.each<InvoiceLanguage>(['de', 'nl', 'sv'])('classifyBuiltin on generated %s documents', (language) => {
  let packet: Document;
  beforeAll(async () => { packet = await extractDocument(await makeMultilingualPacketPdf(language), 'pdf'); }, 120_000);

  it('routes the invoice to the invoice pipeline with high confidence', () => {
    const out = classifyBuiltin({ document: pagesOf(packet, [1, 2]), pipelines: PIPELINES });
    expect(out.pipelineId).toBe('invoices');
    expect(confidenceOf(out)).toBeGreaterThan(0.7);
  });

  it('routes a fillable page that prints three words to the forms pipeline', () => {
    const out = classifyBuiltin({ document: pagesOf(packet, [3]), pipelines: PIPELINES });
    expect(out.pipelineId).toBe('forms');
    expect(confidenceOf(out)).toBeGreaterThan(0.5);
  });
});

describe('classifyBuiltin confidence', () => {
  it('a statistical report about tax amounts is not an invoice with high confidence', async () => {
    const report = await extractDocument(await makeStatisticalReportPdf(), 'pdf');
    const out = classifyBuiltin({ document: report, pipelines: PIPELINES });
    // its words ("amounts", "tax", "total due") match the invoice description best, but it prints no
    // invoice word, tax number or currency amount: at most a coin flip
    expect(out.scores.find((s) => s.pipelineId === 'invoices')!.score).toBeLessThan(0.5);
  }, 120_000);

  it('a document unlike every pipeline gets a low confidence', () => {
    const doc = documentOf([page(1, lines(['Weather forecast for the weekend', 'Sunny spells, light winds from the west.'], 0.1, 0.1))]);
    const out = classifyBuiltin({ document: doc, pipelines: PIPELINES });
    expect(out.pipelineId).toBeNull();
    expect(Math.max(...out.scores.map((s) => s.score))).toBeLessThan(0.3);
  });
});
