import { extractDocument } from '@quire/extract';
import { extractSchemaBuiltin } from '@quire/schema';
import { printedLinesPdf, type PrintedLine } from '../fixtures/documents/printed-lines.js';

/**
 * The issuer and the customer of generated invoices whose party blocks are labelled the way each
 * language addresses paper: a document word and "to" ("Factuur aan", "Rechnung an", "Faktura till"),
 * a salutation ("Spett.le"), a role word with a word for particulars ("Datos del emisor", "Dane
 * nabywcy"); and a customer block printed at the top of the page, beside the issuer's.
 */

const schema = {
  type: 'object',
  properties: {
    issuer: { type: 'string', description: 'Company that issued the invoice' },
    customer: { type: 'string', description: 'Customer the invoice is addressed to' },
  },
};

type Line = PrintedLine;

async function parties(lines: Line[]): Promise<Record<string, unknown>> {
  const doc = await extractDocument(await printedLinesPdf(lines), 'pdf', {});
  return extractSchemaBuiltin({ document: doc, schema }).values as Record<string, unknown>;
}

/** A letterhead (name, street, place, tax id), a labelled recipient block on the left or right, a title and one item. */
function invoice(o: { issuer: [string, string, string, string]; label: string; customer: [string, string, string]; right?: boolean; title: string; item: [string, string] }): Line[] {
  const x = o.right ? 330 : 50;
  return [
    [o.issuer[0], 50, 790, 16, true], [o.issuer[1], 50, 772], [o.issuer[2], 50, 759], [o.issuer[3], 50, 746],
    [o.label, x, 700, 10, true], [o.customer[0], x, 686], [o.customer[1], x, 673], [o.customer[2], x, 660],
    [o.title, o.right ? 50 : 350, 640, 14, true],
    [o.item[0], 50, 480], [o.item[1], 470, 480],
  ];
}

it.each([
  ['nl', 'Factuur aan:', ['Brightwater Studio', 'Keizersgracht 10', '1015 CX Amsterdam', 'BTW NL123456789B01'], ['Van Dijk Installaties', 'Marktplein 3', '3511 LM Utrecht'], 'FACTUUR 2024-118'],
  ['de', 'Rechnung an', ['Holzwerk Berger', 'Lindenweg 4', '80331 München', 'USt-IdNr. DE123456789'], ['Schreinerei Adler', 'Bahnhofstraße 12', '70173 Stuttgart'], 'RECHNUNG R-2024-77'],
  ['it', 'Spett.le', ['Officina Rossi', 'Via Roma 21', '20121 Milano', 'P.IVA 01234567890'], ['Ferramenta Bianchi', 'Corso Italia 8', '10121 Torino'], 'FATTURA N. 45/2024'],
  ['sv', 'Faktura till', ['Ekdahl Bygg', 'Storgatan 4', '111 22 Stockholm', 'Momsreg.nr SE556677889901'], ['Sjöberg Fastigheter', 'Kungsgatan 2', '411 19 Göteborg'], 'FAKTURA 2024-33'],
  ['pl', 'Dane nabywcy', ['Kowalski i Syn', 'ul. Polna 3', '00-950 Warszawa', 'NIP 1234567890'], ['Zielona Dolina', 'ul. Leśna 8', '30-001 Kraków'], 'FAKTURA VAT 12/03/2024'],
] as [string, string, [string, string, string, string], [string, string, string], string][])('%s: the customer under "%s", the issuer from the letterhead', async (_lang, label, issuer, customer, title) => {
  for (const right of [false, true]) {
    const values = await parties(invoice({ issuer, label, customer, right, title, item: ['Service', '1.250,00'] }));
    expect(values).toEqual({ issuer: issuer[0], customer: customer[0] });
  }
}, 60_000);

it('takes the issuer from its labelled block ("Datos del emisor"), not the customer block printed as high beside it', async () => {
  const values = await parties([
    ['Datos del emisor', 50, 790, 9, true], ['Talleres Ibéricos', 50, 776, 12, true], ['Calle Mayor 15', 50, 762], ['28013 Madrid', 50, 749], ['NIF: B12345678', 50, 736],
    ['Cliente', 350, 790, 9, true], ['Distribuciones Soler', 350, 776, 12, true], ['Avenida del Puerto 40', 350, 762], ['46021 Valencia', 350, 749],
    ['FACTURA', 50, 690, 18, true], ['Nº de factura: F-2024-031', 50, 670], ['Reparación', 50, 480], ['300,00 €', 470, 480],
  ]);
  expect(values).toEqual({ issuer: 'Talleres Ibéricos', customer: 'Distribuciones Soler' });
}, 60_000);

it('reads an article and a role word printed as a name ("LE CLIENT") as the name, not as a label', async () => {
  const values = await parties([
    ['LE FOURNISSEUR', 50, 790, 14, true], ['35 rue d\'ici', 50, 776], ['75018 Paris', 50, 763],
    ['Client :', 330, 720, 10, true], ['LE CLIENT', 330, 706], ['5 place Bellecour', 330, 693], ['69002 Lyon', 330, 680],
    ['FACTURE N° 2024-015', 50, 650, 14, true], ['Prestation', 50, 480], ['450,00 €', 470, 480],
  ]);
  expect(values).toEqual({ issuer: 'LE FOURNISSEUR', customer: 'LE CLIENT' });
}, 60_000);

it.each([
  ['en', 'Shipping Address', ['Northwind Supplies Ltd', '221 Harbor Road', 'Portland OR 97201', 'Tel +1 503 555 0199'], ['Lakeside Dental', '9 Elm Street', 'Salem OR 97301'], 'INVOICE 2024-88'],
  ['en-IN', 'Consignee', ['Suryodaya Traders', '14 MG Road', 'Bengaluru 560001', 'GSTIN 29AABCU9603R1ZM'], ['Kaveri Textiles', '22 Residency Road', 'Mysuru 570001'], 'TAX INVOICE 118'],
  ['de', 'Kundenanschrift', ['Holzwerk Berger', 'Lindenweg 4', '80331 München', 'USt-IdNr. DE123456789'], ['Schreinerei Adler', 'Bahnhofstraße 12', '70173 Stuttgart'], 'RECHNUNG R-2024-77'],
  ['nl', 'Klantgegevens', ['Brightwater Studio', 'Keizersgracht 10', '1015 CX Amsterdam', 'BTW NL123456789B01'], ['Van Dijk Installaties', 'Marktplein 3', '3511 LM Utrecht'], 'FACTUUR 2024-118'],
  ['fr', 'Nom du client', ['Atelier Moreau', '14 rue des Lilas', '69003 Lyon', 'SIRET 123 456 789 00012'], ['Boulangerie Perrin', '8 place Bellecour', '69002 Lyon'], 'FACTURE 2024-015'],
  ['en', 'ATTN:', ['Northwind Supplies Ltd', '221 Harbor Road', 'Portland OR 97201', 'Tel +1 503 555 0199'], ['Lakeside Dental', '9 Elm Street', 'Salem OR 97301'], 'INVOICE 2024-88'],
  ['en', 'To:', ['Northwind Supplies Ltd', '221 Harbor Road', 'Portland OR 97201', 'Tel +1 503 555 0199'], ['Lakeside Dental', '9 Elm Street', 'Salem OR 97301'], 'INVOICE 2024-88'],
  ['en', 'Billing Details', ['Northwind Supplies Ltd', '221 Harbor Road', 'Portland OR 97201', 'Tel +1 503 555 0199'], ['Lakeside Dental', '9 Elm Street', 'Salem OR 97301'], 'INVOICE 2024-88'],
  ['fr', 'Souscripteur', ['Atelier Moreau', '14 rue des Lilas', '69003 Lyon', 'SIRET 123 456 789 00012'], ['Boulangerie Perrin', '8 place Bellecour', '69002 Lyon'], 'FACTURE 2024-015'],
  ['nl', 'Debiteur', ['Brightwater Studio', 'Keizersgracht 10', '1015 CX Amsterdam', 'BTW NL123456789B01'], ['Van Dijk Installaties', 'Marktplein 3', '3511 LM Utrecht'], 'FACTUUR 2024-118'],
  ['es', 'Dirección de facturación', ['Talleres Ibéricos', 'Calle Mayor 15', '28013 Madrid', 'NIF B12345678'], ['Distribuciones Soler', 'Avenida del Puerto 40', '46021 Valencia'], 'FACTURA F-2024-031'],
  ['it', 'Intestatario', ['Officina Rossi', 'Via Roma 21', '20121 Milano', 'P.IVA 01234567890'], ['Ferramenta Bianchi', 'Corso Italia 8', '10121 Torino'], 'FATTURA N. 45/2024'],
] as [string, string, [string, string, string, string], [string, string, string], string][])('%s: the customer under "%s"', async (_lang, label, issuer, customer, title) => {
  for (const right of [false, true]) {
    const values = await parties(invoice({ issuer, label, customer, right, title, item: ['Service', '1.250,00'] }));
    expect(values).toEqual({ issuer: issuer[0], customer: customer[0] });
  }
}, 60_000);

it('reads the contractor ("Auftragnehmer") as the issuer and the client ("Auftraggeber") as the customer, past a salutation line', async () => {
  const values = await parties([
    ['Auftraggeber', 50, 790, 9, true], ['Firma', 50, 776], ['Gasthof Seewirt', 50, 762, 12, true], ['Seestraße 12', 50, 748], ['82211 Herrsching', 50, 735],
    ['Auftragnehmer', 350, 790, 9, true], ['Holzbau Lechner', 350, 776, 12, true], ['Am Anger 3', 350, 762], ['86150 Augsburg', 350, 749],
    ['RECHNUNG 2024-311', 50, 690, 16, true], ['Dachstuhl', 50, 480], ['1.250,00 €', 470, 480],
  ]);
  expect(values).toEqual({ issuer: 'Holzbau Lechner', customer: 'Gasthof Seewirt' });
}, 60_000);

it('takes the issuer from a "Remit to" block printed under the items, not the customer\'s block at the top', async () => {
  const values = await parties([
    ['INVOICE 2024-88', 50, 800, 18, true], ['Lakeside Dental', 50, 770, 12, true], ['9 Elm Street', 50, 756], ['Salem OR 97301', 50, 743],
    ['Cleaning', 50, 500], ['$250.00', 470, 500], ['Total', 360, 470], ['$250.00', 470, 470],
    ['Remit to:', 50, 400, 9, true], ['Northwind Supplies', 50, 386], ['221 Harbor Road', 50, 373], ['Portland OR 97201', 50, 360],
  ]);
  expect(values.issuer).toBe('Northwind Supplies');
}, 60_000);

describe('a letterhead whose name is a logo (a picture, no text): the issuer from the legal mention in the footer', () => {
  it('fr: "<name> SARL au capital de … · SIRET … · RCS …"', async () => {
    const values = await parties([
      ['14 rue des Lilas', 50, 780], ['69003 Lyon', 50, 767], ['Tél. 04 78 00 00 00', 50, 754],
      ['Client :', 340, 715, 9, true], ['Boulangerie Perrin', 340, 700, 11], ['8 place Bellecour', 340, 687], ['69002 Lyon', 340, 674],
      ['FACTURE N° 2024-015', 50, 600, 14, true], ['Réparation four', 50, 500], ['480,00 €', 470, 500],
      ['Atelier Moreau SARL au capital de 10 000 € · SIRET 123 456 789 00012 · RCS Lyon', 50, 80, 8],
    ]);
    expect(values).toEqual({ issuer: 'Atelier Moreau SARL', customer: 'Boulangerie Perrin' });
  }, 60_000);

  it('de: the account holder of the bank details ("Kontoinhaber: … · IBAN …")', async () => {
    const values = await parties([
      ['Am Anger 3', 420, 780], ['86150 Augsburg', 420, 767], ['Tel. 0821 123456', 420, 754],
      ['Rechnungsempfänger', 50, 715, 9, true], ['Gasthof Seewirt', 50, 700, 11], ['Seestraße 12', 50, 687], ['82211 Herrsching', 50, 674],
      ['RECHNUNG 2024-311', 50, 600, 14, true], ['Dachstuhl', 50, 500], ['1.250,00 €', 470, 500],
      ['Kontoinhaber: Holzbau Lechner · IBAN DE89 3704 0044 0532 0130 00 · BIC COBADEFFXXX', 50, 80, 8],
    ]);
    expect(values).toEqual({ issuer: 'Holzbau Lechner', customer: 'Gasthof Seewirt' });
  }, 60_000);

  it('keeps the trade name the letterhead prints over the registered name of the legal mention, and a legal form alone names no one', async () => {
    const values = await parties([
      ['LE FOURNISSEUR', 50, 790, 16, true], ['35 rue d\'ici', 50, 776], ['75018 Paris', 50, 763],
      ['Client :', 330, 720, 10, true], ['LE CLIENT', 330, 706], ['5 place Bellecour', 330, 693], ['69002 Lyon', 330, 680],
      ['FACTURE N° 2024-015', 50, 650, 14, true], ['Prestation', 50, 480], ['450,00 €', 470, 480],
      ['FOURNISSEUR F SARL au capital de 50 000 EUR - RCS PARIS 123 456 782', 50, 80, 8], ['Sarl au capital de 10 000 € - Siret 53084813400017', 50, 68, 8],
    ]);
    expect(values).toEqual({ issuer: 'LE FOURNISSEUR', customer: 'LE CLIENT' });
  }, 60_000);
});

describe('the recipient in the envelope\'s window, with no label and no sender line over it', () => {
  it('de: the window on the left, the letterhead on the right, the issuer named in the footer', async () => {
    const values = await parties([
      ['Holzbau Lechner GmbH', 380, 800, 14, true], ['Am Anger 3', 380, 784], ['86150 Augsburg', 380, 771], ['Tel. 0821 123456', 380, 758],
      ['Gasthof Seewirt', 60, 700], ['Josef Huber', 60, 687], ['Seestraße 12', 60, 674], ['82211 Herrsching', 60, 661],
      ['RECHNUNG 2024-311', 60, 600, 14, true], ['Dachstuhl', 60, 500], ['1.250,00 €', 470, 500],
      ['Holzbau Lechner GmbH · HRB 12345 · USt-IdNr. DE123456789', 60, 80, 8],
    ]);
    expect(values).toEqual({ issuer: 'Holzbau Lechner GmbH', customer: 'Gasthof Seewirt' });
  }, 60_000);

  it('fr: the window on the right, under a letterhead on the left', async () => {
    const values = await parties([
      ['Atelier Moreau', 50, 790, 14, true], ['14 rue des Lilas', 50, 776], ['69003 Lyon', 50, 763], ['SIRET 123 456 789 00012', 50, 750],
      ['Boulangerie Perrin', 340, 700], ['8 place Bellecour', 340, 687], ['69002 Lyon', 340, 674],
      ['FACTURE N° 2024-015', 50, 600, 14, true], ['Réparation four', 50, 500], ['480,00 €', 470, 500],
    ]);
    expect(values).toEqual({ issuer: 'Atelier Moreau', customer: 'Boulangerie Perrin' });
  }, 60_000);

  it('takes no block for the recipient that is the issuer\'s own: at the top of the page, or named again in the footer', async () => {
    const top = await parties([
      ['Atelier Moreau', 50, 800, 14, true], ['14 rue des Lilas', 50, 786], ['69003 Lyon', 50, 773],
      ['FACTURE N° 2024-015', 50, 600, 14, true], ['Réparation four', 50, 500], ['480,00 €', 470, 500],
    ]);
    expect(top).toEqual({ issuer: 'Atelier Moreau', customer: null });
    const repeated = await parties([
      ['FACTURE', 50, 800, 18, true], ['Atelier Moreau', 50, 700], ['14 rue des Lilas', 50, 687], ['69003 Lyon', 50, 674],
      ['N° 2024-015', 50, 600, 14, true], ['Réparation four', 50, 500], ['480,00 €', 470, 500], ['Atelier Moreau · 14 rue des Lilas · 69003 Lyon · SIRET 123 456 789 00012', 50, 80, 8],
    ]);
    expect(repeated.customer).toBeNull();
  }, 60_000);
});

describe('a party\'s name printed with its address on one line: the name alone, cut where the address opens', () => {
  it('en: a one-line letterhead ("<name>, <street>, <place and postcode>")', async () => {
    const values = await parties([
      ['Brightwater Studio Ltd, 12 High Street, Leeds LS1 4AB', 50, 800, 9], ['INVOICE 2024-88', 50, 760, 18, true],
      ['Bill to:', 50, 710, 10, true], ['Lakeside Dental', 50, 696], ['9 Elm Street', 50, 683], ['Salem OR 97301', 50, 670],
      ['Cleaning', 50, 500], ['£250.00', 470, 500],
    ]);
    expect(values).toEqual({ issuer: 'Brightwater Studio Ltd', customer: 'Lakeside Dental' });
  }, 60_000);

  it('en-IN: "Sold By: <name>, <street>, <place PIN>" and "Billing Address: <name>, <street>, <place>" on the label\'s line', async () => {
    const values = await parties([
      ['Tax Invoice', 50, 800, 18, true],
      ['Sold By: Suryodaya Traders Pvt. Ltd., 14 MG Road, Bengaluru 560001', 50, 760], ['Billing Address: Kaveri Textiles, 22 Residency Road, Mysuru 570001', 50, 744],
      ['Cotton yarn', 50, 500], ['1,250.00', 470, 500],
    ]);
    expect(values).toEqual({ issuer: 'Suryodaya Traders Pvt. Ltd.', customer: 'Kaveri Textiles' });
  }, 60_000);

  it('de: a sender\'s parts set off by middle dots, the legal form kept ("Holzbau Lechner GmbH · Am Anger 3 · …")', async () => {
    const values = await parties([
      ['RECHNUNG 2024-311', 50, 800, 18, true],
      ['Rechnungssteller: Holzbau Lechner GmbH · Am Anger 3 · 86150 Augsburg', 50, 760], ['Rechnungsempfänger: Gasthof Seewirt · Seestraße 12 · 82211 Herrsching', 50, 744],
      ['Dachstuhl', 50, 500], ['1.250,00 €', 470, 500],
    ]);
    expect(values).toEqual({ issuer: 'Holzbau Lechner GmbH', customer: 'Gasthof Seewirt' });
  }, 60_000);

  it('keeps a legal form set off by a comma with the name ("Northwind Supplies, Inc.")', async () => {
    const values = await parties([
      ['Northwind Supplies, Inc., 221 Harbor Road, Portland OR 97201', 50, 800, 9], ['INVOICE 2024-88', 50, 760, 18, true],
      ['Bill to:', 50, 710, 10, true], ['Lakeside Dental', 50, 696], ['9 Elm Street', 50, 683], ['Salem OR 97301', 50, 670],
      ['Cleaning', 50, 500], ['$250.00', 470, 500],
    ]);
    expect(values).toEqual({ issuer: 'Northwind Supplies, Inc.', customer: 'Lakeside Dental' });
  }, 60_000);
});

it('reads "Account holder" as the payee only in bank details: in a bill\'s account box it names the customer', async () => {
  const values = await parties([
    ['Brightwater Energy', 50, 800, 16, true],
    ['Your account', 330, 730, 10, true], ['Account holder: Lakeside Dental', 330, 716], ['Account ref: 4471-09', 330, 703],
    ['BILL', 50, 660, 18, true], ['Electricity', 50, 500], ['£250.00', 470, 500],
  ]);
  expect(values.issuer).not.toBe('Lakeside Dental');
}, 60_000);

it('takes the issuer from the account holder of the bank details printed under the items, when the top of the page names only the customer', async () => {
  const values = await parties([
    ['INVOICE 2024-88', 50, 800, 18, true], ['Invoice No: 2024-88', 50, 770],
    ['Bill to:', 50, 730, 10, true], ['Lakeside Dental', 50, 716], ['9 Elm Street', 50, 703], ['Salem OR 97301', 50, 690],
    ['Cleaning', 50, 500], ['£250.00', 470, 500], ['Total', 360, 470], ['£250.00', 470, 470],
    ['Bank details', 50, 120, 9, true], ['Account holder: Brightwater Studio Ltd', 50, 106, 9], ['IBAN GB29 NWBK 6016 1331 9268 19', 50, 93, 9],
  ]);
  expect(values).toEqual({ issuer: 'Brightwater Studio Ltd', customer: 'Lakeside Dental' });
}, 60_000);

it('answers the labelled seller under a marketplace\'s letterhead, less surely than a labelled seller under no other name', async () => {
  const answer = async (lines: Line[]) => {
    const out = extractSchemaBuiltin({ document: await extractDocument(await printedLinesPdf(lines), 'pdf', {}), schema, wantConfidence: true });
    return { issuer: (out.values as Record<string, unknown>).issuer, confidence: (out.confidence as Record<string, number>).issuer };
  };
  const body: Line[] = [
    ['Sold By: Suryodaya Traders, 14 MG Road, Bengaluru 560001', 50, 760], ['Billing Address: Kaveri Textiles, 22 Residency Road, Mysuru 570001', 50, 744],
    ['Cotton shirt', 50, 480], ['1,250.00', 470, 480], ['Grand Total', 360, 450], ['1,250.00', 470, 450],
  ];
  const market = await answer([['ShopKart Internet Pvt. Ltd.', 50, 800, 16], ['Tax Invoice', 400, 800, 14], ...body]);
  const alone = await answer([['Tax Invoice', 400, 800, 14], ...body]);
  expect(market.issuer).toBe('Suryodaya Traders');
  expect(alone.issuer).toBe('Suryodaya Traders');
  expect(market.confidence).toBeLessThan(alone.confidence - 0.1);
}, 60_000);

describe('the issuer named only under the items, with no legal form', () => {
  it('a footer that sets name, street and place, phone and mail apart with bars ("<name> | 12 High Street, Leeds LS1 4AB | Tel. …")', async () => {
    const values = await parties([
      ['INVOICE', 50, 800, 20, true], ['Invoice No: 17', 50, 770],
      ['Bill to:', 50, 730, 10, true], ['Lakeside Dental', 50, 716], ['9 Elm Street', 50, 703], ['Salem OR 97301', 50, 690],
      ['Cleaning', 50, 500], ['£250.00', 470, 500],
      ['Brightwater Studio | 12 High Street, Leeds LS1 4AB | Tel. 0113 496 0000 | hello@brightwater.co.uk', 50, 60, 7],
    ]);
    expect(values).toEqual({ issuer: 'Brightwater Studio', customer: 'Lakeside Dental' });
  }, 60_000);

  it('a sentence that ends in a payee label ("Please make cheques payable to: <name>")', async () => {
    const values = await parties([
      ['INVOICE', 50, 800, 20, true],
      ['Bill to:', 50, 730, 10, true], ['Lakeside Dental', 50, 716], ['9 Elm Street', 50, 703], ['Salem OR 97301', 50, 690],
      ['Cleaning', 50, 500], ['£250.00', 470, 500], ['Please make cheques payable to: Brightwater Studio', 50, 100, 9],
    ]);
    expect(values).toEqual({ issuer: 'Brightwater Studio', customer: 'Lakeside Dental' });
  }, 60_000);
});
