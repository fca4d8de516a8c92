import fs from 'node:fs';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb } from 'pdf-lib';
import sharp from 'sharp';
import { extractDocument } from '@quire/extract';
import { extractSchemaBuiltin } from '@quire/schema';
import { standardFontFile } from '@quire/format-pdf';

/**
 * Invoices whose head is printed over a picture (a tinted band, a letterhead background): layout
 * takes the band for a figure and its words for the figure's text. The schema engine reads them as
 * the page's words all the same: the issuer's sender line, the recipient under it, the date and the
 * invoice number printed on the band.
 */

const schema = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    date: { type: 'string', format: 'date', description: 'Invoice date' },
    issuer: { type: 'string', description: 'Company that issued the invoice' },
    customer: { type: 'string', description: 'Customer the invoice is addressed to' },
    total: { type: 'number', description: 'Total amount of the invoice' },
  },
};

/** text, x, y, size */
type Line = [string, number, number, number?];

async function invoiceOverBand(head: Line[], body: Line[]) {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const font = await pdf.embedFont(new Uint8Array(fs.readFileSync(standardFontFile('LiberationSans-Regular.ttf'))), { subset: true });
  const page = pdf.addPage([595, 842]);
  const band = await sharp({ create: { width: 300, height: 100, channels: 3, background: { r: 236, g: 240, b: 246 } } }).png().toBuffer();
  page.drawImage(await pdf.embedPng(new Uint8Array(band)), { x: 0, y: 632, width: 595, height: 210 });
  for (const [text, x, y, size] of [...head, ...body]) page.drawText(text, { x, y, size: size ?? 10, font, color: rgb(0, 0, 0) });
  return extractDocument(await pdf.save(), 'pdf', {});
}

it.each([
  ['fr', [
    ['Atelier Moreau SARL · 14 rue des Lilas · 69003 Lyon', 60, 720, 8], ['Boulangerie Perrin', 60, 700], ['Claire Perrin', 60, 686], ['8 place Bellecour', 60, 672], ['69002 Lyon', 60, 658],
    ['Numéro de facture :', 330, 700], ['FA-2024-0193', 460, 700], ['Date de la facture :', 330, 686], ['12 mars 2024', 460, 686],
  ], [['FACTURE', 60, 600, 16], ['Réparation four', 60, 540], ['480,00 €', 470, 540], ['Total TTC', 360, 500], ['576,00 €', 470, 500], ['Atelier Moreau SARL', 60, 80, 8], ['SIRET 123 456 789 00012', 220, 80, 8]],
  { invoice_number: 'FA-2024-0193', date: '2024-03-12', issuer: 'Atelier Moreau SARL', customer: 'Boulangerie Perrin', total: 576 }],
  ['de', [
    ['Holzbau Lechner GmbH · Am Anger 3 · 86150 Augsburg', 60, 720, 8], ['Gasthof Seewirt', 60, 700], ['Herrn Josef Huber', 60, 686], ['Seestraße 12', 60, 672], ['82211 Herrsching', 60, 658],
    ['Rechnungsnummer:', 330, 700], ['RE-2024-311', 460, 700], ['Rechnungsdatum:', 330, 686], ['05.02.2024', 460, 686],
  ], [['RECHNUNG', 60, 600, 16], ['Dachstuhl Reparatur', 60, 540], ['1.250,00 €', 470, 540], ['Gesamtbetrag', 360, 500], ['1.487,50 €', 470, 500], ['Holzbau Lechner GmbH', 60, 80, 8], ['IBAN DE89 3704 0044 0532 0130 00', 220, 80, 8]],
  { invoice_number: 'RE-2024-311', date: '2024-02-05', issuer: 'Holzbau Lechner GmbH', customer: 'Gasthof Seewirt', total: 1487.5 }],
] as [string, Line[], Line[], Record<string, unknown>][])('%s: the invoice number, date and parties printed on a tinted head band', async (_lang, head, body, expected) => {
  const doc = await invoiceOverBand(head, body);
  // the band is a picture to layout, and its words are the figure's text
  expect(doc.pages[0].elements.some((e) => e.kind === 'figure' && e.text.includes(String(expected.invoice_number)))).toBe(true);
  expect(extractSchemaBuiltin({ document: doc, schema }).values).toEqual(expected);
}, 60_000);
