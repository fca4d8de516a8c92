import { assignIds, type Document } from '@quire/core';
import { extractSchemaBuiltin } from './extract-schema.js';

/** A receipt as OCR lines: [text, x0, row] — the label column and the amount column of a till slip. */
function receipt(lines: [string, number, number][]): Document {
  const elements = lines.map(([text, x0, row]) => ({
    kind: 'text' as const, category: 'Text' as const, text, page: 1, confidence: 0.95,
    box: { x0, y0: 0.1 + row * 0.03, x1: x0 + Math.min(0.5, text.length * 0.012), y1: 0.1 + row * 0.03 + 0.02 },
  }));
  elements.sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
  return assignIds({ format: 'jpeg', pageCount: 1, warnings: [], pages: [{ number: 1, width: 300, height: 800, elements, words: [], selectionMarks: [] }] });
}

const schema = {
  type: 'object',
  properties: { total: { type: 'number', description: 'Total amount paid' }, tax: { type: 'number', description: 'Tax amount' } },
};
const values = (doc: Document) => extractSchemaBuiltin({ document: doc, schema }).values as Record<string, number | null>;

describe('tax lines are not totals', () => {
  it.each([
    ['Total includes 19% VAT', 'EUR'],
    ['Total incl. MwSt. 19%', 'EUR'],
    ['Totaal incl. 21% BTW', 'EUR'],
    ['Total inclusive of 6% GST', 'RM'],
  ])('"%s" after the total labels the tax in it, by its rate', (taxLabel, currency) => {
    const total = 23.8, rate = Number(/(\d+)%/.exec(taxLabel)![1]);
    const tax = Math.round((total * rate / (100 + rate)) * 100) / 100;
    const doc = receipt([
      ['Coffee beans 1kg', 0.05, 0], [`${currency} 23.80`, 0.5, 0],
      ['TOTAL', 0.05, 2], [`${currency} 23.80`, 0.5, 2],
      [taxLabel, 0.05, 3], [`${currency} ${tax.toFixed(2)}`, 0.5, 3],
      ['CASH', 0.05, 5], [`${currency} 30.00`, 0.5, 5],
      ['CHANGE', 0.05, 6], [`${currency} 6.20`, 0.5, 6],
    ]);
    const v = values(doc);
    expect(v.total).toBe(total);
    expect(v.tax).toBe(tax);
  });

  it('chooses among totals by arithmetic: subtotal + tax = total', () => {
    const doc = receipt([
      ['Sub Total', 0.05, 0], ['100.00', 0.5, 0],
      ['Service Charge 10%', 0.05, 1], ['10.00', 0.5, 1],
      ['GST 6%', 0.05, 2], ['6.60', 0.5, 2],
      ['TOTAL', 0.05, 3], ['116.60', 0.5, 3],
      ['Total incl. 6% GST', 0.05, 5], ['6.60', 0.5, 5],
    ]);
    expect(values(doc).total).toBe(116.6);
  });
});
