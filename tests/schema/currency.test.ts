import fs from 'node:fs';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument } from 'pdf-lib';
import { extractDocument } from '@quire/extract';
import { extractSchemaBuiltin } from '@quire/schema';
import { standardFontFile } from '@quire/format-pdf';
import { factsFor, LANGUAGES, makeMultilingualInvoice, type MoneyPrint } from '../fixtures/pdf/multilingual-invoices.js';

/**
 * The currency of generated invoices that print no ISO code: a currency written as a word or sign
 * after the figures ("zł", "Kč", "Fr."), a crown or a dollar that the paper's country decides (IBAN,
 * VAT number, tax words, phone), and bare figures on paper from a country with one currency.
 */


async function currencyAnswer(lines: string[], price: string): Promise<{ value: unknown; confidence: number }> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const font = await pdf.embedFont(new Uint8Array(fs.readFileSync(standardFontFile('LiberationSans-Regular.ttf'))), { subset: true });
  const page = pdf.addPage([595, 842]);
  page.drawText('Brightwater Works', { x: 50, y: 790, size: 16, font });
  lines.forEach((t, i) => page.drawText(t, { x: 50, y: 770 - i * 13, size: 10, font }));
  page.drawText('Consulting', { x: 50, y: 500, size: 10, font });
  page.drawText(price, { x: 450, y: 500, size: 10, font });
  page.drawText('Total', { x: 350, y: 470, size: 10, font });
  page.drawText(price, { x: 450, y: 470, size: 10, font });
  const doc = await extractDocument(await pdf.save(), 'pdf', {});
  const schema = { type: 'object', properties: { currency: { type: 'string', description: 'ISO 4217 currency code' } } };
  const out = extractSchemaBuiltin({ document: doc, schema, wantConfidence: true });
  return { value: (out.values as { currency: unknown }).currency, confidence: (out.confidence as Record<string, number> | undefined)?.currency ?? 0 };
}

const currencyOf = async (lines: string[], price: string) => (await currencyAnswer(lines, price)).value;

it.each([
  ['crowns on Norwegian paper (MVA)', ['Storgata 5, 0155 Oslo', 'Org.nr 987 654 321 MVA'], '12 500,00 kr', 'NOK'],
  ['crowns on Swedish paper (VAT number)', ['Storgatan 4, 111 22 Stockholm', 'Momsreg.nr SE556677889901'], '12 500,00 kr', 'SEK'],
  ['crowns on Danish paper (phone)', ['Vestergade 3, 1456 København', 'Tlf. +45 33 12 34 56'], 'kr. 12.500,00', 'DKK'],
  ['złoty written after the figures', ['ul. Polna 3, 00-950 Warszawa'], '1 230,00 zł', 'PLN'],
  ['koruna written after the figures', ['Národní 10, 110 00 Praha'], '1 230,00 Kč', 'CZK'],
  ['francs on Swiss paper', ['Bahnhofstrasse 1, 8001 Zürich', 'MWST CHE-123.456.789'], 'Fr. 129.70', 'CHF'],
  ['bare figures on Dutch paper (IBAN)', ['Keizersgracht 10, 1015 CX Amsterdam', 'IBAN NL91 ABNA 0417 1643 00'], '1.250,00', 'EUR'],
  ['bare figures on Indian paper (GSTIN)', ['MG Road 12, Bengaluru 560001', 'GSTIN 29AABCU9603R1ZM'], '1,250.00', 'INR'],
  ['dollars on Australian paper (ABN)', ['12 George St, Sydney NSW 2000', 'ABN 51 824 753 556'], '$1,250.00', 'AUD'],
  ['dollars on paper naming no other country', ['500 Market St, San Francisco CA 94105'], '$1,250.00', 'USD'],
])('%s', async (_what, lines, price, code) => {
  expect(await currencyOf(lines, price)).toBe(code);
}, 60_000);

it.each([
  ['bare figures on American paper (state and ZIP)', ['500 Market St', 'San Francisco, CA 94105'], '1,250.00', 'USD'],
  ['bare figures on British paper (postcode)', ['12 High Street', 'Leeds LS1 4AB'], '1,250.00', 'GBP'],
  ['bare figures under a German title and nothing else', ['Rechnung Nr. 2024-17'], '1.250,00', 'EUR'],
  ['bare figures under a German compound title ("Sammelrechnung")', ['Sammelrechnung 2024-17'], '1.250,00', 'EUR'],
  ['bare figures on German paper (Steuernummer)', ['Lindenweg 4, 80331 München', 'Steuernummer 143/123/45678'], '1.250,00', 'EUR'],
  ['bare figures on French paper (SIRET)', ['12 rue de la Paix, 75002 Paris', 'SIRET 123 456 789 00012'], '1 250,00', 'EUR'],
  ['bare figures on French paper labelled "Numéro de facture"', ['Numéro de facture : F-2024-031'], '1 250,00', 'EUR'],
  ['bare figures on Italian paper (Partita IVA)', ['Via Roma 21, 20121 Milano', 'Partita IVA 01234567890'], '1.250,00', 'EUR'],
  ['bare figures on Dutch paper (KvK)', ['Marktplein 3, 3511 LM Utrecht', 'KvK 12345678'], '1.250,00', 'EUR'],
  ['bare figures on paper whose address ends in its country ("Deutschland")', ['Lindenweg 4', '80331 München', 'Deutschland'], '1.250,00', 'EUR'],
  ['bare figures on paper whose address line names its country after the place', ['12 rue de la Paix, 75002 Paris, France'], '1 250,00', 'EUR'],
  ['bare figures on paper with a national web domain', ['Keizersgracht 10', 'www.brightwater.nl'], '1.250,00', 'EUR'],
  ['a dollar sign is not placed by a country line (the customer\'s may be printed as well)', ['500 Market St', 'Ship to: 10 King St W, Toronto, Canada'], '$1,250.00', 'USD'],
  ['bare figures on paper whose address names its country before the postcode ("India - 560066")', ['Whitefield, Bangalore', 'Karnataka, India - 560066'], '1,250.00', 'INR'],
  ['bare figures on Indian paper (a private limited company in a state of India)', ['Shree Traders Pvt. Ltd.', 'Andheri East, Mumbai 400069, Maharashtra'], '1,250.00', 'INR'],
  ['bare figures on Indian paper (PAN)', ['MG Road 12, Pune', 'PAN: AABCU9603R'], '1,250.00', 'INR'],
])('%s', async (_what, lines, price, code) => {
  expect(await currencyOf(lines, price)).toBe(code);
}, 60_000);

it.each([
  ['rupees written out in the amount in words', ['MG Road 12', 'Amount in words: Rupees One Thousand Two Hundred Fifty Only'], '1,250.00', 'INR'],
  ['rupees in a column header ("Amount (Rs.)")', ['MG Road 12', 'Amount (Rs.)'], '1,250.00', 'INR'],
  ['pounds sterling written out', ['12 Market Square', 'All amounts in pounds sterling'], '1,250.00', 'GBP'],
  ['Swiss francs written out', ['Hauptgasse 3', 'Beträge in Schweizer Franken'], '1\'250.00', 'CHF'],
])('a currency word: %s', async (_what, lines, price, code) => {
  expect(await currencyOf(lines, price)).toBe(code);
}, 60_000);

it('is less sure of a currency inferred from the paper\'s country than of one printed as a word, and of that than of a sign on the figures', async () => {
  const inferred = await currencyAnswer(['Keizersgracht 10, 1015 CX Amsterdam', 'IBAN NL91 ABNA 0417 1643 00'], '1.250,00');
  const word = await currencyAnswer(['Keizersgracht 10, 1015 CX Amsterdam', 'Bedragen in euro'], '1.250,00');
  const sign = await currencyAnswer(['Keizersgracht 10, 1015 CX Amsterdam'], '€ 1.250,00');
  expect([inferred.value, word.value, sign.value]).toEqual(['EUR', 'EUR', 'EUR']);
  expect(inferred.confidence).toBeLessThan(0.5);
  expect(word.confidence).toBeGreaterThan(inferred.confidence);
  expect(sign.confidence).toBeGreaterThan(word.confidence);
}, 60_000);

it('is surer of the currency on every price than of one a footnote names once ("Late fee €40.00" under prices in £)', async () => {
  const schema = { type: 'object', properties: { currency: { type: 'string', description: 'ISO 4217 currency code' } } };
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const font = await pdf.embedFont(new Uint8Array(fs.readFileSync(standardFontFile('LiberationSans-Regular.ttf'))), { subset: true });
  const page = pdf.addPage([595, 842]);
  const lines: [string, number, number][] = [
    ['Brightwater Works', 50, 790], ['12 High Street, Leeds LS1 4AB', 50, 770], ['Consulting', 50, 500], ['£1,250.00', 450, 500], ['Subtotal', 350, 470], ['£1,250.00', 450, 470],
    ['Total', 350, 450], ['£1,250.00', 450, 450], ['Late fee €40.00 per overdue invoice', 50, 100],
  ];
  for (const [t, x, y] of lines) page.drawText(t, { x, y, size: 10, font });
  const out = extractSchemaBuiltin({ document: await extractDocument(await pdf.save(), 'pdf', {}), schema, wantConfidence: true });
  expect((out.values as { currency: unknown }).currency).toBe('GBP');
  expect((out.confidence as Record<string, number>).currency).toBeGreaterThan(0.4);
}, 60_000);

describe('the generated multilingual invoice with money printed the way its country writes it, no ISO code', () => {
  it.each([
    ['de', { suffix: ' €', iban: 'DE89 3704 0044 0532 0130 00' }, 'EUR'],
    ['fr', { suffix: ' €', iban: 'FR76 3000 6000 0112 3456 7890 189' }, 'EUR'],
    ['pl', { suffix: ' zł', iban: 'PL61 1090 1014 0000 0712 1981 2874' }, 'PLN'],
    ['cs', { suffix: ' Kč', iban: 'CZ65 0800 0000 1920 0014 5399' }, 'CZK'],
    ['da', { suffix: ' kr.', iban: 'DK50 0040 0440 1162 43' }, 'DKK'],
    ['sv', { suffix: ' kr', iban: 'SE45 5000 0000 0583 9825 7466' }, 'SEK'],
    ['nl', { iban: 'NL91 ABNA 0417 1643 00' }, 'EUR'],
    ['es', { iban: 'ES91 2100 0418 4502 0005 1332' }, 'EUR'],
  ] as [string, MoneyPrint, string][])('%s: %j → %s', async (lang, print, code) => {
    const doc = await extractDocument(await makeMultilingualInvoice(LANGUAGES[lang], factsFor(lang), print), 'pdf', {});
    const schema = { type: 'object', properties: { currency: { type: 'string', description: 'ISO 4217 currency code' }, date: { type: 'string', format: 'date', description: 'Invoice date' } } };
    const values = extractSchemaBuiltin({ document: doc, schema }).values as Record<string, unknown>;
    expect(values).toEqual({ currency: code, date: factsFor(lang).date });
  }, 60_000);
});
