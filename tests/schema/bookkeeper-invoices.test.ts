import { extractDocument } from '@quire/extract';
import { extractSchemaBuiltin } from '@quire/schema';
import { factsFor, LANGUAGES, makeMultilingualInvoice } from '../fixtures/pdf/multilingual-invoices.js';

/**
 * The built-in schema engine on generated invoices in six languages: labels of the language
 * (compounds such as "Factuurnummer", "Rechnungsnr.", abbreviations such as "Fattura n.", "Nº de
 * factura"), labels printed above their values, a due date beside the invoice date, a tax line
 * under the total's neighbours, the issuer's letterhead and the recipient's block, the item table.
 */

const schema = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    date: { type: 'string', format: 'date', description: 'Invoice date' },
    due_date: { type: 'string', format: 'date' },
    total: { type: 'number', description: 'Total amount of the invoice' },
    tax: { type: 'number', description: 'Tax amount' },
    vendor: { type: 'string', description: 'Company that issued the invoice' },
    customer: { type: 'string', description: 'Customer the invoice is addressed to' },
    line_items: {
      type: 'array',
      items: { type: 'object', properties: { description: { type: 'string' }, quantity: { type: 'number' }, unit_price: { type: 'number' }, amount: { type: 'number' } } },
    },
  },
};

describe.each(Object.keys(LANGUAGES))('a generated invoice in %s', (lang) => {
  const l = LANGUAGES[lang];
  const facts = factsFor(lang);
  let values: Record<string, unknown>;
  beforeAll(async () => {
    const doc = await extractDocument(await makeMultilingualInvoice(l, facts), 'pdf', {});
    values = extractSchemaBuiltin({ document: doc, schema, wantConfidence: true }).values as Record<string, unknown>;
  }, 60_000);

  it(`reads the number under "${l.number}" and the date under "${l.date}", not the due date under "${l.due}"`, () => {
    expect(values.invoice_number).toBe(facts.number);
    expect(values.date).toBe(facts.date);
    expect(values.due_date).toBe(facts.due);
  });

  it(`takes "${l.total}" as the total and "${l.tax} ${facts.taxRate}%" as the tax`, () => {
    expect(values.total).toBeCloseTo(facts.total, 2);
    expect(values.tax).toBeCloseTo(facts.tax, 2);
  });

  it(`fills line items from the table under "${l.headers.join(' | ')}", descriptions whole ("/" and "," inside)`, () => {
    expect(values.line_items).toEqual(facts.items);
  });

  it(`tells the issuer (letterhead, footer) from the customer (${l.senderLine ? 'under the sender line' : `under "${l.billTo}"`})`, () => {
    expect(values.vendor).toBe(facts.vendor);
    expect(values.customer).toBe(facts.customer);
  });
});

describe('an invoice whose date has no label', () => {
  it('takes the date standing on its own line in the header, not one cited in the legal small print', async () => {
    const { PDFDocument, StandardFonts } = await import('pdf-lib');
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([595, 842]);
    page.drawText('Atelier Verrier Dumas', { x: 50, y: 790, size: 16, font });
    page.drawText('Le lundi 21 novembre 2022', { x: 380, y: 740, size: 10, font });
    page.drawText('Facture n° 20221100001', { x: 50, y: 700, size: 10, font });
    page.drawText('Total TTC  195,48 €', { x: 380, y: 400, size: 10, font });
    page.drawText("Pénalités de retard au taux légal (Loi 2008-776 du 4 août 2008), indemnité forfaitaire de 40 euros (Décret 2012-1115 du 2 octobre 2012).", { x: 30, y: 60, size: 6, font });
    const doc = await extractDocument(await pdf.save(), 'pdf', {});
    const out = extractSchemaBuiltin({ document: doc, schema: { type: 'object', properties: { date: { type: 'string', format: 'date', description: 'Invoice date' } } } });
    expect((out.values as Record<string, unknown>).date).toBe('2022-11-21');
  });
});

describe('a summary printed as a grid, one row per tax rate and a row of sums', () => {
  it('takes the sum row under "Endbetrag" as the total', async () => {
    const { PDFDocument, StandardFonts } = await import('pdf-lib');
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([595, 842]);
    const right = (t: string, x: number, y: number) => page.drawText(t, { x: x - font.widthOfTextAtSize(t, 9), y, size: 9, font });
    page.drawText('Papeterie Nordlicht GmbH', { x: 50, y: 790, size: 16, font });
    page.drawText('Rechnungsnummer: R-5521', { x: 50, y: 740, size: 10, font });
    const cols = [150, 260, 350, 450];
    ['Nettobetrag', 'MwSt-Betrag', 'MwSt-%', 'Endbetrag'].forEach((h, i) => right(h, cols[i], 200));
    const rows = [['321,40', '61,07', '19,0', '382,47'], ['127,59', '8,93', '7,0', '136,52'], ['448,99', '70,00', 'EUR', '518,99']];
    rows.forEach((r, k) => r.forEach((v, i) => right(v, cols[i], 186 - k * 14)));
    const doc = await extractDocument(await pdf.save(), 'pdf', {});
    const out = extractSchemaBuiltin({ document: doc, schema: { type: 'object', properties: { total: { type: 'number', description: 'Total amount of the invoice' } } } });
    expect((out.values as Record<string, unknown>).total).toBe(518.99);
  });
});

describe('a header line that prints several labels and values ("Invoice No: FAB123 Invoice Date: … Order Date: …")', () => {
  it.each([
    ['Invoice No: FAB123 Invoice Date: 03-02-2017 Order Date: 01-02-2017'],
    ['Order ID: OD1234567 Order Date: 01-02-2017 Invoice Date: 03-02-2017'],
    ['Invoice No: FAB123 Invoice Date: 03-02-2017 PO: 4711'],
  ])('reads each value with the label just before it: %s', async (line) => {
    const { PDFDocument, StandardFonts } = await import('pdf-lib');
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([595, 842]);
    page.drawText('Brightwater Works Ltd', { x: 50, y: 790, size: 16, font });
    page.drawText(line, { x: 50, y: 700, size: 9, font });
    page.drawText('Total  1,250.00', { x: 380, y: 400, size: 10, font });
    const doc = await extractDocument(await pdf.save(), 'pdf', {});
    const out = extractSchemaBuiltin({ document: doc, schema: { type: 'object', properties: { invoice_number: { type: 'string' }, date: { type: 'string', format: 'date', description: 'Invoice date' } } } });
    expect((out.values as Record<string, unknown>).date).toBe('2017-02-03');
    if (line.startsWith('Invoice No')) expect((out.values as Record<string, unknown>).invoice_number).toBe('FAB123');
  });
});
