import { findAmounts, findCurrency, parseNumberToken } from './amounts.js';
import { findDates, inferDayFirst } from '@quire/models';
import { findEmails, findPhones, findUris, parseBoolean } from './patterns.js';

const amounts = (t: string) => findAmounts(t).map((a) => [a.value, a.currency ?? null, a.percent]);

describe('amounts', () => {
  it.each([
    ['Total: 1,234.56', [[1234.56, null, false]]],
    ['(1,234.5)', [[-1234.5, null, false]]],
    ['€ 12,50', [[12.5, 'EUR', false]]],
    ['12,50 €', [[12.5, 'EUR', false]]],
    ['RM 9.00', [[9, 'MYR', false]]],
    ['USD 4.11', [[4.11, 'USD', false]]],
    ['1 234,56 EUR', [[1234.56, 'EUR', false]]],
    ['VAT 15%', [[15, null, true]]],
    ['-12.00', [[-12, null, false]]],
    ['$1,234', [[1234, 'USD', false]]],
    ['1.234.567', [[1234567, null, false]]],
    ['2 10.00 20.00', [[2, null, false], [10, null, false], [20, null, false]]],
    // OCR read a space after the decimal point: one price, not 65 and 20
    ['Total Sales RM 65. 20', [[65.2, 'MYR', false]]],
    ['1  16. 00  0. 00', [[1, null, false], [16, null, false], [0, null, false]]],
    ['12. 03. 2018', [[12, null, false], [3, null, false], [2018, null, false]]],
  ])('%s', (text, expected) => expect(amounts(text)).toEqual(expected));
  it('does not read ids as money', () => {
    expect(amounts('INV-2024-0042')).toEqual([]);
  });
  it('rejects malformed grouping', () => {
    expect(parseNumberToken('1,23,4')).toBeUndefined();
  });
  it('finds currencies from codes before symbols', () => {
    expect(findCurrency('Total $ 12 (USD)')?.code).toBe('USD');
    expect(findCurrency('Montant 12,00 €')?.code).toBe('EUR');
  });
});

describe('dates', () => {
  const iso = (t: string, dayFirst?: boolean) => findDates(t, { dayFirst }).map((d) => d.iso);
  it.each([
    ['2 Feb 1990', '1990-02-02'],
    ['March 5, 2021', '2021-03-05'],
    ['2014-08-03', '2014-08-03'],
    ['5-Mar-21', '2021-03-05'],
    ['13/02/2021', '2021-02-13'],
    ['02/13/2021', '2021-02-13'],
    ['2nd February, 1990', '1990-02-02'],
    ['1er juillet 2015', '2015-07-01'],
  ])('%s → %s', (text, expected) => expect(iso(text)).toEqual([expected]));
  it('uses the context for ambiguous day/month and says it guessed', () => {
    expect(iso('02/03/2021', true)).toEqual(['2021-03-02']);
    expect(iso('02/03/2021', false)).toEqual(['2021-02-03']);
    expect(findDates('02/03/2021')[0].certainty).toBeLessThan(1);
  });
  it('reads the time printed after a date', () => {
    expect(findDates('25/12/2018 8:13:39 PM')[0]).toMatchObject({ iso: '2018-12-25', time: '20:13:39' });
  });
  it('rejects impossible dates', () => {
    expect(iso('31/02/2021')).toEqual([]);
  });
  it('infers day-first order from the document', () => {
    expect(inferDayFirst(['Date 25/12/2018', 'Due 02/01/2019'])).toBe(true);
    expect(inferDayFirst(['12/25/2018'])).toBe(false);
    expect(inferDayFirst(['01/02/2018'], true)).toBe(true);
  });
});

describe('patterns', () => {
  it('finds emails, URIs and phones', () => {
    expect(findEmails('Mail: billing@acme.example now').map((e) => e.value)).toEqual(['billing@acme.example']);
    expect(findUris('see https://acme.example/x, or aws.amazon.com; a@b.com').map((e) => e.value)).toEqual(['https://acme.example/x', 'aws.amazon.com']);
    expect(findPhones('Tel: +44 20 7946 0958').map((e) => e.value)).toEqual(['+44 20 7946 0958']);
    expect(findPhones('(555) 123-4567')[0].value).toBe('(555) 123-4567');
    expect(findPhones('Date 02/03/2021')).toEqual([]);
  });
  it('reads booleans', () => {
    expect(parseBoolean('Yes')).toBe(true);
    expect(parseBoolean('☐')).toBe(false);
    expect(parseBoolean('maybe')).toBeUndefined();
  });
});
