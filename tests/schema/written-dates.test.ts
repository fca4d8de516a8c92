import { extractDocument } from '@quire/extract';
import { extractSchemaBuiltin } from '@quire/schema';
import { printedLinesPdf, type PrintedLine } from '../fixtures/documents/printed-lines.js';

/**
 * The invoice date of generated invoices that write the month as the language abbreviates it ("27. Okt. 2024", "3 ott 2024"),
 * and of invoices in Nordic, Central and Eastern European languages that print a due date above the invoice date.
 */


it.each([
  ['de', 'RECHNUNG', 'Rechnungsdatum:', '27. Okt. 2024', '2024-10-27'],
  ['nl', 'FACTUUR', 'Factuurdatum:', '12 mrt 2024', '2024-03-12'],
  ['es', 'FACTURA', 'Fecha de factura:', '5 dic. 2024', '2024-12-05'],
  ['it', 'FATTURA', 'Data fattura:', '3 ott 2024', '2024-10-03'],
])('%s: "%s" with the date under "%s" written "%s"', async (_lang, title, label, printed, iso) => {
  const lines: PrintedLine[] = [
    ['Brightwater Works', 50, 790, 16], ['Keizersgracht 10', 50, 772], ['1015 CX Amsterdam', 50, 759],
    [title, 50, 700, 14], [label, 330, 700], [printed, 450, 700], ['Service', 50, 500], ['1.250,00 €', 470, 500], ['Total', 360, 470], ['1.250,00 €', 470, 470],
  ];
  const doc = await extractDocument(await printedLinesPdf(lines), 'pdf', {});
  const schema = { type: 'object', properties: { date: { type: 'string', format: 'date', description: 'Invoice date' } } };
  expect((extractSchemaBuiltin({ document: doc, schema }).values as { date: unknown }).date).toBe(iso);
}, 60_000);

it.each([
  ['da', 'FAKTURA', 'Forfaldsdato:', '28. marts 2024', 'Fakturadato:', '14. marts 2024', '2024-03-14'],
  ['no', 'FAKTURA', 'Forfallsdato:', '28. desember 2024', 'Fakturadato:', '14. desember 2024', '2024-12-14'],
  ['cs', 'FAKTURA', 'Datum splatnosti:', '28. 3. 2024', 'Datum vystavení:', '14. 3. 2024', '2024-03-14'],
  ['sk', 'FAKTÚRA', 'Dátum splatnosti:', '28. apríla 2024', 'Dátum vystavenia:', '14. apríla 2024', '2024-04-14'],
  ['hu', 'SZÁMLA', 'Fizetési határidő:', '2024. 03. 28.', 'Kiállítás dátuma:', '2024. 03. 14.', '2024-03-14'],
  ['ro', 'FACTURĂ', 'Data scadenței:', '28 martie 2024', 'Data emiterii:', '14 martie 2024', '2024-03-14'],
  ['tr', 'FATURA', 'Vade tarihi:', '28 Mart 2024', 'Fatura tarihi:', '14 Mart 2024', '2024-03-14'],
])('%s: "%s", the due date under "%s" (%s) above the invoice date under "%s" (%s)', async (_lang, title, dueLabel, due, label, printed, iso) => {
  const lines: PrintedLine[] = [
    ['Brightwater Works', 50, 790, 16], ['Keizersgracht 10', 50, 772], ['1015 CX Amsterdam', 50, 759],
    [title, 50, 700, 14], [dueLabel, 330, 714], [due, 450, 714], [label, 330, 700], [printed, 450, 700],
    ['Service', 50, 500], ['1.250,00', 470, 500], ['Total', 360, 470], ['1.250,00', 470, 470],
  ];
  const doc = await extractDocument(await printedLinesPdf(lines), 'pdf', {});
  const schema = { type: 'object', properties: { date: { type: 'string', format: 'date', description: 'Invoice date' } } };
  expect((extractSchemaBuiltin({ document: doc, schema }).values as { date: unknown }).date).toBe(iso);
}, 60_000);

it.each([
  ['de', [['Erstellt am: 05.07.2015', 350, 700], ['Bestelldatum: 01.07.2015', 350, 686], ['Lieferdatum: 02.07.2015', 350, 672]], '2015-07-05'],
  ['fr', [['Fait à Paris, le 05/07/2015', 350, 700], ['Commande du 01/07/2015', 50, 650], ['Livraison prévue le 02/07/2015', 50, 636]], '2015-07-05'],
  ['en', [['Tax point: 05/07/2015', 350, 700], ['Order date: 01/07/2015', 350, 686], ['Delivery date: 02/07/2015', 350, 672]], '2015-07-05'],
  // no currency, no unambiguous date: day and month order is a guess, and the date still answers (by elimination)
  ['en', [['Tax point: 05/07/2015', 350, 700], ['Order date: 01/07/2015', 350, 686], ['Delivery date: 02/07/2015', 350, 672]], '2015-07-05', '1,250.00'],
] as [string, [string, number, number][], string, string?][])('%s: the one date whose label is not known, when the others are labelled as the order\'s and the delivery\'s', async (_lang, dated, iso, amount = '1.250,00 €') => {
  const lines: PrintedLine[] = [
    ['Brightwater Works', 50, 790, 16], ['Keizersgracht 10', 50, 772], ['1015 CX Amsterdam', 50, 759], ...dated,
    ['Service', 50, 500], [amount, 470, 500], ['Total', 360, 470], [amount, 470, 470],
  ];
  const doc = await extractDocument(await printedLinesPdf(lines), 'pdf', {});
  const schema = { type: 'object', properties: { date: { type: 'string', format: 'date', description: 'Invoice date' } } };
  const out = extractSchemaBuiltin({ document: doc, schema, wantConfidence: true });
  expect((out.values as { date: unknown }).date).toBe(iso);
  // by elimination: less sure than a date under its own label
  expect((out.confidence as Record<string, number>).date).toBeLessThan(0.75);
}, 60_000);
