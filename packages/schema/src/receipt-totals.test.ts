import { assignIds, type Document } from '@quire/core';
import { extractSchemaBuiltin } from './extract-schema.js';

/** A receipt as OCR lines: [text, x0, y (row)] — label and amount columns like a till slip. */
function receipt(lines: [string, number, number][]): Document {
  const elements = lines.map(([text, x0, row]) => ({
    kind: 'text' as const, category: 'Text' as const, text, page: 1, confidence: 0.95,
    box: { x0, y0: 0.1 + row * 0.03, x1: x0 + Math.min(0.5, text.length * 0.012), y1: 0.1 + row * 0.03 + 0.02 },
  }));
  elements.sort((a, b) => a.box.y0 - b.box.y0 || a.box.x0 - b.box.x0);
  return assignIds({ format: 'jpeg', pageCount: 1, warnings: [], pages: [{ number: 1, width: 300, height: 800, elements, words: [], selectionMarks: [] }] });
}

const schema = { type: 'object', properties: { date: { type: 'string', format: 'date' }, total: { type: 'number', description: 'Total amount paid' } } };
const run = (doc: Document) => extractSchemaBuiltin({ document: doc, schema, wantConfidence: true });

describe('receipt totals', () => {
  it('prefers the total inclusive of tax over the one excluding it, and the rounded total after a rounding line', () => {
    const doc = receipt([
      ['TOTAL QTY:', 0.05, 0], ['3', 0.8, 0],
      ['TOTAL SALES (EXCLUDING GST) :', 0.05, 1], ['47.17', 0.8, 1],
      ['TOTAL GST :', 0.05, 2], ['2.83', 0.8, 2],
      ['ROUNDING :', 0.05, 3], ['-0.02', 0.8, 3],
      ['TOTAL SALES (INCLUSIVE OF GST) :', 0.05, 4], ['49.98', 0.8, 4],
      ['CASH :', 0.05, 5], ['50.00', 0.8, 5],
      ['GST SUMMARY', 0.05, 7], ['TOTAL :', 0.05, 8], ['50.00', 0.8, 8],
    ]);
    // 50.00 (cash) is not labelled a total; 49.98 is the inclusive total
    expect((run(doc).values as Record<string, unknown>).total).toBe(49.98);
  });

  it('reads the total after the rounding adjustment even when only the unrounded amount is labelled total', () => {
    const doc = receipt([
      ['TOTAL AMT.......... RM', 0.05, 0], ['60.31', 0.8, 0],
      ['ROUNDING ADJ.........', 0.05, 1], ['-0.01', 0.8, 1],
      ['RM', 0.6, 2], ['60.30', 0.8, 2],
      ['CASH............ RM', 0.05, 3], ['70.30', 0.8, 3],
      ['SUMMARY TOTAL :', 0.05, 5], ['60.31', 0.8, 5],
    ]);
    expect((run(doc).values as Record<string, unknown>).total).toBe(60.3);
  });

  it('keeps the plain total when there is no rounding, and "Total Qty" is never a total', () => {
    const doc = receipt([['TOTAL QTY:', 0.05, 0], ['7', 0.5, 0], ['NET TOTAL', 0.05, 1], ['343.95', 0.5, 1], ['ROUNDING', 0.05, 2], ['0.00', 0.5, 2]]);
    const a = run(doc);
    expect((a.values as Record<string, unknown>).total).toBe(343.95);
  });

  describe('the arithmetic of the summary block chooses the total', () => {
    const totalOf = (lines: [string, number, number][]) => (run(receipt(lines)).values as Record<string, unknown>).total;

    it('does not take the "TOTAL" row of a tax summary table for the total paid', () => {
      expect(totalOf([
        ['1X 000007996511', 0.05, 0], ['75.00SR', 0.7, 0],
        ['SUB-TOTAL', 0.05, 1], ['75.00', 0.7, 1],
        ['TOTAL SALES INCL GST', 0.05, 2], ['75.00', 0.7, 2],
        ['CASH', 0.05, 3], ['100.00', 0.7, 3],
        ['CHANGE AMT', 0.05, 4], ['25.00', 0.7, 4],
        ['GST SUMMARY', 0.05, 6], ['AMOUNT', 0.45, 6], ['TAX', 0.7, 6],
        ['SR @ 6%', 0.05, 7], ['70.75', 0.45, 7], ['4.25', 0.7, 7],
        ['TOTAL', 0.05, 8], ['70.75', 0.45, 8], ['4.25', 0.7, 8],
      ])).toBe(75);
    });

    it('follows a sum that is summed on: subtotal − discount, then + service + tax ± rounding', () => {
      expect(totalOf([
        ['SUBTOTAL', 0.05, 0], ['79.60', 0.7, 0],
        ['DISCOUNT', 0.05, 1], ['-30.00', 0.7, 1],
        ['TOTAL AMOUNT :', 0.05, 2], ['49.60', 0.7, 2],
        ['SERV CHARGE 10%', 0.05, 3], ['4.96', 0.7, 3],
        ['GST @ 6%', 0.05, 4], ['3.27', 0.7, 4],
        ['ROUNDING ADJ :', 0.05, 5], ['-0.03', 0.7, 5],
        ['TOTAL AMOUNT :', 0.05, 6], ['57.80', 0.7, 6],
        ['PAYMENT TYPE 3', 0.05, 8],
      ])).toBe(57.8);
    });

    it('ranks the subtotal a checked sum starts from below it, even when the subtotal is printed again as "TOTAL" lower down', () => {
      expect(totalOf([
        ['SUB-TOTAL (EX) :', 0.05, 0], ['4.60', 0.7, 0],
        ['TOTAL TAX :', 0.05, 1], ['0.28', 0.7, 1],
        ['ROUNDING :', 0.05, 2], ['0.02', 0.7, 2],
        ['TOTAL :', 0.05, 3], ['4.90', 0.7, 3],
        ['NOTE: ITEMS MARKED * ARE TAXED', 0.05, 5],
        ['TOTAL :', 0.05, 7], ['4.60', 0.45, 7], ['0.28', 0.7, 7],
      ])).toBe(4.9);
    });

    it('finds the total by cash − change when OCR garbled its label', () => {
      expect(totalOf([
        ['SUB TOTAL', 0.05, 0], ['31.03', 0.7, 0],
        ['GST 6%', 0.05, 1], ['1.65', 0.7, 1],
        ['Tatal Sa1es', 0.05, 2], ['32.70', 0.7, 2],
        ['CASH :', 0.05, 3], ['40.00', 0.7, 3],
        ['CHANGE :', 0.05, 4], ['7.30', 0.7, 4],
      ])).toBe(32.7);
    });

    it('corrects a total OCR misread by one digit when the parts add up to another amount and cash − change agrees', () => {
      const lines: [string, number, number][] = [
        ['(EXCLUDED GST) SUB TOTAL (RM) :', 0.05, 0], ['106.10', 0.7, 0],
        ['DISCOUNT (RM) :', 0.05, 1], ['0.00', 0.7, 1],
        ['TOTAL GST (RM) :', 0.05, 2], ['6.37', 0.7, 2],
        ['ROUNDING (RM) :', 0.05, 3], ['-0.02', 0.7, 3],
        ['TOTAL (RM) :', 0.05, 4], ['112.46', 0.7, 4],
        ['CASH :', 0.05, 5], ['112.45', 0.7, 5],
        ['CHANGE (RM) :', 0.05, 6], ['0.00', 0.7, 6],
      ];
      expect(totalOf(lines)).toBe(112.45);
      // OCR slips in the rounding and cash labels ("Roundlng", "GASH"): the change line still says what was paid
      expect(totalOf(lines.map(([t, x, r]) => [t.replace('ROUNDING', 'ROUNDLNG').replace('CASH', 'GASH'), x, r]))).toBe(112.45);
      // one check alone does not overrule the printed total: without the change line the cash may be anything
      expect(totalOf(lines.filter(([t]) => !t.startsWith('CHANGE') && t !== '0.00'))).toBe(112.46);
      // nor does a payment that disagrees with the parts
      expect(totalOf(lines.map(([t, x, r]) => [t === '112.45' ? '120.00' : t === '0.00' && r === 6 ? '7.54' : t, x, r]))).toBe(112.46);
    });

    it('takes the payment for the total on a slip that prints no total, when the amounts above it add up to it', () => {
      const slip: [string, number, number][] = [
        ['09/03/2018 21:28', 0.05, 0], ['000000#7259 CASHIER01', 0.05, 1],
        ['DPT.05', 0.05, 2], ['RM', 0.5, 2], ['149.00', 0.7, 2],
        ['DPT.04', 0.05, 3], ['RM', 0.5, 3], ['21.00', 0.7, 3],
        ['CASH', 0.05, 4], ['RM', 0.5, 4], ['170.00', 0.7, 4],
      ];
      expect(totalOf(slip)).toBe(170);
      // a payment the amounts above do not add up to is only what was handed over
      expect(totalOf(slip.map(([t, x, r]) => [t === '170.00' ? '200.00' : t, x, r]))).toBeNull();
    });

    it('reads a label and the amount OCR set on a row of its own just below it as one summary line', () => {
      expect(totalOf([
        ['Total Sales (Excluding GST)', 0.05, 0], ['31.03', 0.75, 0.5],
        ['Discount :  0.00', 0.45, 1.5],
        ['Total GST :', 0.45, 2.5], ['1.65', 0.75, 3],
        ['Rounding :  0.02', 0.45, 4],
        ['Tatal Sa1es (Inclusive of GST)', 0.05, 5], ['32.70', 0.75, 5.5],
        ['CASH :  40.00', 0.45, 6.5],
        ['Change', 0.45, 7.5], ['7.30', 0.75, 8],
        ['TOTAL :  31.03  1.65', 0.2, 10],
      ])).toBe(32.7);
    });

    it('pairs a label and its amount printed as separate OCR lines on one row (label, currency, amount) without word boxes', () => {
      expect(totalOf([
        ['FUELSAVE 95', 0.05, 0], ['RM', 0.5, 0], ['85.54 C', 0.7, 0],
        ['TOTAL', 0.05, 1], ['RM', 0.5, 1], ['85.54', 0.7, 1],
        ['VISA', 0.05, 2], ['RM', 0.5, 2], ['85.54', 0.7, 2],
      ])).toBe(85.54);
    });

    it('reads "TOTAL INCLUDES GST 6%  9.00" as the total the tax is in, not as the tax', () => {
      expect(totalOf([
        ['QTY UOM U.PRICE AMT AMT INC. TAX CODE', 0.05, 0],
        ['SUMMER CUP 48X230ML', 0.05, 1],
        ['1  KOTA 8.49  8.49  9.00  SR', 0.05, 2],
        ['GST 6% + 0.51', 0.05, 3],
        ['TOTAL INCLUDES GST 6%', 0.05, 5], ['9.00', 0.7, 5],
        ['CASH', 0.05, 6], ['50.00', 0.7, 6],
        ['CHANGE', 0.05, 7], ['41.00', 0.7, 7],
      ])).toBe(9);
    });
  });

  it('reads a date whose label sits just before it inside a longer OCR line', () => {
    const doc = receipt([['Date © 09/01/2019 8:01:11 PM Cashier : 01', 0.05, 0], ['Ref 12/12/2012 counter', 0.05, 5]]);
    const a = run(doc);
    expect((a.values as Record<string, unknown>).date).toBe('2019-01-09');
    expect((a.confidence as Record<string, number>).date).toBeGreaterThan(0.45);
  });

  it('lets words between a label and its value qualify the label: a count is not the total, dot leaders are ignored', () => {
    const doc = receipt([['#Total Qty 2', 0.05, 0], ['TOTAL AMT.......... RM 60.31', 0.05, 1], ['CASH RM 70.31', 0.05, 2]]);
    expect((run(doc).values as Record<string, unknown>).total).toBe(60.31);
  });

  it('does not take a payment deadline for the document date', () => {
    const doc = receipt([['Date limite de paiement le 05 Juillet 2015', 0.05, 0], ["Date d'émission 02 Juillet 2015", 0.05, 2]]);
    expect((run(doc).values as Record<string, unknown>).date).toBe('2015-07-02');
    const onlyDeadline = receipt([['Date limite de paiement le 05 Juillet 2015', 0.05, 0], ['Payment due date: 06/07/2015', 0.05, 1]]);
    const a = extractSchemaBuiltin({ document: onlyDeadline, schema: { type: 'object', properties: { date: { type: 'string', description: 'Invoice date' } } } });
    expect((a.values as Record<string, unknown>).date).toBeNull();
  });

  describe('day/month order of an ambiguous date', () => {
    const dateOf = (lines: [string, number, number][]) => (run(receipt(lines)).values as Record<string, unknown>).date;
    it('reads day first on a document that names a VAT/GST-style tax, even with an OCR "$" in a code', () => {
      expect(dateOf([['Doc No. $000022185', 0.05, 0], ['Date: 06/03/2018', 0.05, 1], ['Total GST', 0.05, 3], ['3.08', 0.8, 3]])).toBe('2018-03-06');
    });
    it('reads month first on a document priced in dollars', () => {
      expect(dateOf([['Date: 06/03/2018', 0.05, 1], ['Total', 0.05, 3], ['$12.50', 0.8, 3]])).toBe('2018-06-03');
    });
    it('lets the currency outvote the tax word (dollars with sales tax called "GST" elsewhere still count as dollars)', () => {
      expect(dateOf([['Date: 06/03/2018', 0.05, 1], ['GST', 0.05, 2], ['Total', 0.05, 3], ['$12.50', 0.8, 3], ['Cash', 0.05, 4], ['$20.00', 0.8, 4]])).toBe('2018-06-03');
    });
  });
  it("takes a net amount printed below the tax lines for the total, and not one printed above them", () => {
    // "Gross / service tax / GST / Net": the net is what is left to pay; it does not add up exactly (rounded per line)
    const after = receipt([
      ['Gross Amt :', 0.05, 0], ['47.80', 0.8, 0],
      ['Svr Tax', 0.05, 1], ['2.87', 0.8, 1],
      ['GST (6%) :', 0.05, 2], ['2.86', 0.8, 2],
      ['Net Amt :', 0.05, 3], ['53.55', 0.8, 3],
      ['THANK YOU', 0.3, 5],
    ]);
    expect((run(after).values as Record<string, unknown>).total).toBe(53.55);
    // an invoice's net before its tax is a part of the total
    const before = receipt([
      ['Net Amount', 0.05, 0], ['100.00', 0.8, 0],
      ['VAT 20%', 0.05, 1], ['20.00', 0.8, 1],
      ['Total', 0.05, 2], ['120.00', 0.8, 2],
    ]);
    expect((run(before).values as Record<string, unknown>).total).toBe(120);
  });
});
