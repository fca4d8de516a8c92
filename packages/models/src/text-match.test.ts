import { labelSimilarity, normalizeLabel, canonicalLabel } from './text-match.js';

describe('label matching', () => {
  it('normalizes case, punctuation and camelCase', () => {
    expect(normalizeLabel('Invoice_No.:')).toBe('invoice no');
    expect(normalizeLabel('invoiceNumber')).toBe('invoice number');
  });
  it('treats synonyms as (near) equal', () => {
    expect(canonicalLabel('Amount Due')).toBe('total');
    expect(labelSimilarity('balance due', 'total')).toBeGreaterThan(0.9);
    expect(labelSimilarity('Invoice No', 'invoice_number')).toBeGreaterThan(0.9);
  });
  it('tolerates typos but not unrelated labels', () => {
    expect(labelSimilarity('Adress', 'address')).toBeGreaterThan(0.8);
    expect(labelSimilarity('date of birth', 'phone number')).toBeLessThan(0.5);
  });
});
