import { crossCheckConfidence, numbersIn, support } from './confidence-check.js';
import { documentOf, lines, page } from '../../../tests/fixtures/documents/builder.js';

describe('confidence cross-check', () => {
  it('reads numbers in the usual notations', () => {
    expect(numbersIn('Total 1,234.50')).toContain(1234.5);
    expect(numbersIn('Summe 1.234,50 €')).toContain(1234.5);
    expect(numbersIn('Total 1 234,50')).toContain(1234.5);
    expect(numbersIn('Qty 1,500')).toEqual(expect.arrayContaining([1.5, 1500]));
    expect(numbersIn('RM 42')).toEqual([42]);
  });

  it('a value is supported when its cited text holds it, whatever the notation', () => {
    expect(support(1234.5, 'Amount due: $1,234.50')).toBe(1);
    expect(support(1234.5, 'Amount due: $1,243.50')).toBe(0);
    expect(support('2024-03-05', 'Date: 05/03/2024')).toBe(1);
    expect(support('2024-03-05', 'Issued March 5, 2024')).toBe(1);
    expect(support('2015-07-02', 'Facture du 02 Juillet 2015')).toBe(1);
    expect(support('2024-03-05', 'Date: 06/03/2024')).toBe(0);
    expect(support('INV-7', 'Invoice No: INV 7')).toBe(1);
    expect(support('INV-8', 'Invoice No: INV-7')).toBe(0);
    expect(support('12 Jalan Besar, Kuala Lumpur', '12 Jalan Besar Kuala Lumpar')).toBeCloseTo(0.8);
    expect(support(true, '')).toBe(1);
  });

  it('caps by evidence, lowers what verification changed, and leaves null values without confidence', () => {
    const doc = documentOf([page(1, lines(['ACME Trading Sdn Bhd', 'Total 42.50', 'Date 05/03/2024'], 0.1, 0.1))]);
    const [name, total, date] = doc.pages[0].elements.map((e) => e.id);
    const values = { company: 'ACME Trading Sdn Bhd', total: 42.5, date: '2024-03-06', items: [{ qty: 2 }], po: null };
    const citations = { company: [name], total: [total], date: [date], items: [{ qty: null }], po: null };
    const confidence = { company: 0.9, total: 0.95, date: 0.9, items: [{ qty: 0.8 }], po: 0.4 };
    expect(crossCheckConfidence(values, citations, confidence, doc)).toEqual({ company: 0.9, total: 0.95, date: 0.3, items: [{ qty: 0.3 }], po: null });
    const previous = { ...values, total: 45.2 };
    expect(crossCheckConfidence(values, citations, confidence, doc, { previous, hasPrevious: true })).toMatchObject({ company: 0.9, total: 0.7 });
  });
});
