import { extractDocument } from '@quire/extract';
import { extractSchemaBuiltin } from '@quire/schema';
import { printedLinesPdf, type PrintedLine } from '../fixtures/documents/printed-lines.js';

/**
 * The issuer of generated invoices whose letterhead holds lines that name no one: the paper's own
 * phrases printed large at the top ("Votre facture", "Thank you for your business"), the buttons and
 * menu of an invoice printed from the web ("My Account", "Download PDF"), and address lines with no
 * house number or with a street word of another language ("Zone Industrielle des Vignes", "Route de
 * Lyon 12", "Place de la Gare 3").
 */

const schema = {
  type: 'object',
  properties: {
    issuer: { type: 'string', description: 'Company that issued the invoice' },
    customer: { type: 'string', description: 'Customer the invoice is addressed to' },
  },
};

type Line = PrintedLine;

async function read(lines: Line[]) {
  const out = extractSchemaBuiltin({ document: await extractDocument(await printedLinesPdf(lines), 'pdf', {}), schema, wantConfidence: true });
  return { values: out.values as Record<string, unknown>, confidence: out.confidence as Record<string, number> };
}

const frenchCustomer: Line[] = [['Client :', 340, 715], ['Boulangerie Perrin', 340, 700], ['8 place Bellecour', 340, 687], ['69002 Lyon', 340, 674], ['FACTURE N° 2024-015', 50, 600, 14], ['Réparation', 50, 500], ['480,00 €', 470, 500]];
const englishCustomer: Line[] = [['Bill to', 340, 715], ['Lakeside Dental', 340, 700], ['9 Elm Street', 340, 687], ['Salem OR 97301', 340, 674], ['INVOICE 2024-88', 50, 600, 14], ['Cleaning', 50, 500], ['$250.00', 470, 500]];

it.each([
  ['a possessive title printed large above the letterhead ("Votre facture")', [['Votre facture', 50, 800, 22], ['Atelier Moreau', 50, 770, 11], ['14 rue des Lilas', 50, 757], ['69003 Lyon', 50, 744], ...frenchCustomer], 'Atelier Moreau', 'Boulangerie Perrin'],
  ['an industrial estate between the name and the street ("Zone Industrielle des Vignes")', [['Atelier Moreau', 50, 790, 11], ['Zone Industrielle des Vignes', 50, 777], ['14 rue des Lilas', 50, 764], ['69003 Lyon', 50, 751], ...frenchCustomer], 'Atelier Moreau', 'Boulangerie Perrin'],
  ['the menu of a page printed from the web ("My Account", "Download PDF")', [['My Account', 50, 810, 12], ['Download PDF', 400, 810, 12], ['Northwind Supplies', 50, 770, 11], ['Place de la Gare 3', 50, 757], ['1003 Lausanne', 50, 744], ...englishCustomer], 'Northwind Supplies', 'Lakeside Dental'],
  ['thanks printed above the letterhead, and a "Route de …" street line under the name', [['Thank you for your business', 50, 810, 14], ['Northwind Supplies', 50, 770, 11], ['Route de Lyon 12', 50, 757], ['1003 Lausanne', 50, 744], ...englishCustomer], 'Northwind Supplies', 'Lakeside Dental'],
] as [string, Line[], string, string][])('%s', async (_what, lines, issuer, customer) => {
  const { values, confidence } = await read(lines);
  expect(values).toEqual({ issuer, customer });
  // the name above the address, with nothing else left to compete with it
  expect(confidence.issuer).toBeGreaterThan(0.55);
}, 60_000);

it('never gives the customer the page addresses as the issuer, however high and large its name is printed', async () => {
  const { values, confidence } = await read([
    ['Kunde:', 60, 715], ['Gasthof Seewirt GmbH', 60, 700, 14], ['Seestraße 12', 60, 684], ['82211 Herrsching', 60, 671],
    ['RECHNUNG 2024-311', 60, 600, 14], ['Dachstuhl', 60, 500], ['1.250,00 €', 470, 500], ['Holzbau Lechner GmbH · HRB 12345 · USt-IdNr. DE123456789', 60, 80, 8],
  ]);
  expect(values).toEqual({ issuer: 'Holzbau Lechner GmbH', customer: 'Gasthof Seewirt GmbH' });
  // the legal mention stands alone: the customer's name no longer competes with it
  expect(confidence.issuer).toBeGreaterThan(0.55);
}, 60_000);

it('takes no item line with its price for the issuer\'s name', async () => {
  const { values } = await read([
    ['Rechnungsempfänger', 60, 800], ['Gasthof Seewirt GmbH', 60, 785, 14], ['Seestraße 12', 60, 771], ['82211 Herrsching', 60, 758],
    ['RECHNUNG 2024-311', 60, 600, 14], ['Dachstuhl', 60, 500], ['1.250,00 €', 470, 500],
  ]);
  expect(values).toEqual({ issuer: null, customer: 'Gasthof Seewirt GmbH' });
}, 60_000);
