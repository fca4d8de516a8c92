import type { Document, EmbeddedInvoice } from '@quire/core';
import { compositeDocument, pagesOf } from './schema-documents.js';

/** An embedded e-invoice describes the whole file: a split topic or a composite does not inherit it (#19). */
describe('schema documents and the embedded invoice', () => {
  const invoice: EmbeddedInvoice = {
    source: { file: 'factur-x.xml', syntax: 'CII', profile: null }, number: 'A-1', issueDate: null, dueDate: null, seller: null, buyer: null,
    currency: 'EUR', grandTotal: 10, duePayable: null, taxBasisTotal: null, taxTotal: null, lines: [],
  };
  const page = (number: number) => ({ number, width: 595, height: 842, elements: [], words: [], selectionMarks: [] });
  const doc: Document = { format: 'pdf', pageCount: 2, pages: [page(1), page(2)], warnings: [], embeddedInvoice: invoice };

  test('pagesOf keeps it with every page and drops it for a part', () => {
    expect(pagesOf(doc, [1, 2]).embeddedInvoice).toBe(invoice);
    expect(pagesOf(doc, [2]).embeddedInvoice).toBeUndefined();
  });

  test('a composite of extractions has none', () => {
    expect(compositeDocument([{ extractionId: 'x', document: doc }]).embeddedInvoice).toBeUndefined();
  });
});
