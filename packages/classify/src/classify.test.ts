import { classifyBuiltin } from './classify.js';
import { invoiceDocument } from '../../../tests/fixtures/documents/invoice.js';
import { formDocument } from '../../../tests/fixtures/documents/form.js';
import { documentOf, lines, page } from '../../../tests/fixtures/documents/builder.js';

const pipelines = [
  { id: 'p-invoice', name: 'Invoices', description: 'Supplier invoices and bills with line items, VAT and amounts due', keywords: ['invoice', 'total due', 'subtotal'] },
  { id: 'p-forms', name: 'Applications', description: 'Membership application forms filled by applicants', keywords: ['application', 'date of birth', 'signature'] },
  { id: 'p-contracts', name: 'Contracts', description: 'Agreements between parties, clauses and terms', keywords: ['agreement', 'party', 'clause'] },
];

describe('classifyBuiltin', () => {
  it('routes an invoice to the invoice pipeline with the highest score', () => {
    const out = classifyBuiltin({ document: invoiceDocument(), pipelines });
    expect(out.pipelineId).toBe('p-invoice');
    expect(out.scores[0]).toMatchObject({ pipelineId: 'p-invoice' });
    expect(out.scores[0].score).toBeGreaterThan(out.scores[1].score * 2);
    expect(out.scores).toHaveLength(3);
  });
  it('routes an application form to the forms pipeline', () => {
    expect(classifyBuiltin({ document: formDocument(), pipelines }).pipelineId).toBe('p-forms');
  });
  it('returns no pipeline when nothing matches', () => {
    const doc = documentOf([page(1, lines(['Weather forecast for the weekend', 'Sunny spells, light winds from the west.'], 0.1, 0.1))]);
    const out = classifyBuiltin({ document: doc, pipelines });
    expect(out.pipelineId).toBeNull();
    for (const s of out.scores) expect(s.score).toBeLessThan(0.3);
  });
  it('reads only the first pages', () => {
    const filler = Array.from({ length: 5 }, (_, i) => page(i + 1, lines(['Weather forecast for the weekend'], 0.1, 0.1)));
    const doc = documentOf([...filler, page(6, lines(['Invoice No: 1', 'Total due: 10.00 subtotal invoice'], 0.1, 0.1))]);
    expect(classifyBuiltin({ document: doc, pipelines }).pipelineId).toBeNull();
  });
});
