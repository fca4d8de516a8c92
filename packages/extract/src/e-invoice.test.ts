import { deflateSync } from 'node:zlib';
import { AFRelationship, PDFDocument, PDFHexString, PDFName, PDFString, StandardFonts } from 'pdf-lib';
import { findElementById, type Document } from '@quire/core';
import { renderExtraction } from '@quire/render';
import { extractSchemaBuiltin } from '@quire/schema';
import { extractDocument } from './pipeline.js';

/**
 * Issue #19: e-invoices (Factur-X / ZUGFeRD / XRechnung in PDF) carry the invoice as an XML attachment.
 * Generated PDFs print an invoice and attach its XML (CII, ZUGFeRD 1.0), a damaged or oversized
 * attachment, or one that is no invoice; the reader records the XML's invoice on the Document and the
 * built-in schema engine answers from it, citing where the page prints each value.
 */

const LINES = [
  'Holzwerk Brandt GmbH',
  'Sägewerkstraße 4, 79111 Freiburg',
  '',
  'Rechnung an:',
  'Café Lindner KG',
  'Marktplatz 9, 79098 Freiburg',
  '',
  'Rechnung Nr. RE-2026-0042',
  'Rechnungsdatum: 12.03.2026',
  'Fällig am: 11.04.2026',
  '',
];
const ITEMS = [
  ['Pos', 'Bezeichnung', 'Menge', 'Einzelpreis', 'Betrag'],
  ['1', 'Eichenbrett 2m', '10', '25,00', '250,00'],
  ['2', 'Montage vor Ort', '4', '60,00', '240,00'],
];

/** The invoice page; `total` is the grand total as printed. */
async function invoicePdf(total = '583,10'): Promise<PDFDocument> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  let y = 780;
  for (const l of LINES) {
    if (l) page.drawText(l, { x: 60, y, size: l === LINES[0] ? 16 : 11, font });
    y -= 18;
  }
  y -= 10;
  const xs = [60, 100, 300, 380, 480];
  for (const row of ITEMS) {
    row.forEach((cell, i) => page.drawText(cell, { x: xs[i], y, size: 10, font }));
    y -= 18;
  }
  y -= 20;
  for (const [label, amount] of [['Nettobetrag', '490,00 EUR'], ['MwSt 19%', '93,10 EUR'], ['Gesamtbetrag', `${total} EUR`]]) {
    page.drawText(label, { x: 300, y, size: 11, font });
    page.drawText(amount, { x: 450, y, size: 11, font });
    y -= 18;
  }
  return pdf;
}

const CII = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
  <rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
  <rsm:ExchangedDocument><ram:ID>RE-2026-0042</ram:ID><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">20260312</udt:DateTimeString></ram:IssueDateTime></rsm:ExchangedDocument>
  <rsm:SupplyChainTradeTransaction>
    <ram:IncludedSupplyChainTradeLineItem>
      <ram:AssociatedDocumentLineDocument><ram:LineID>1</ram:LineID></ram:AssociatedDocumentLineDocument>
      <ram:SpecifiedTradeProduct><ram:Name>Eichenbrett 2m</ram:Name></ram:SpecifiedTradeProduct>
      <ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>25.00</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>
      <ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="H87">10</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
      <ram:SpecifiedLineTradeSettlement><ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>250.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement>
    </ram:IncludedSupplyChainTradeLineItem>
    <ram:IncludedSupplyChainTradeLineItem>
      <ram:AssociatedDocumentLineDocument><ram:LineID>2</ram:LineID></ram:AssociatedDocumentLineDocument>
      <ram:SpecifiedTradeProduct><ram:Name>Montage vor Ort</ram:Name></ram:SpecifiedTradeProduct>
      <ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>60.00</ram:ChargeAmount><ram:BasisQuantity unitCode="HUR">1</ram:BasisQuantity></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>
      <ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="HUR">4</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
      <ram:SpecifiedLineTradeSettlement><ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>240.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement>
    </ram:IncludedSupplyChainTradeLineItem>
    <ram:ApplicableHeaderTradeAgreement>
      <ram:SellerTradeParty><ram:Name>Holzwerk Brandt GmbH</ram:Name></ram:SellerTradeParty>
      <ram:BuyerTradeParty><ram:Name>Café Lindner KG</ram:Name></ram:BuyerTradeParty>
    </ram:ApplicableHeaderTradeAgreement>
    <ram:ApplicableHeaderTradeDelivery/>
    <ram:ApplicableHeaderTradeSettlement>
      <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
      <ram:SpecifiedTradePaymentTerms><ram:DueDateDateTime><udt:DateTimeString format="102">20260411</udt:DateTimeString></ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>
      <ram:SpecifiedTradeSettlementHeaderMonetarySummation>
        <ram:LineTotalAmount>490.00</ram:LineTotalAmount>
        <ram:TaxBasisTotalAmount>490.00</ram:TaxBasisTotalAmount>
        <ram:TaxTotalAmount currencyID="EUR">93.10</ram:TaxTotalAmount>
        <ram:GrandTotalAmount>583.10</ram:GrandTotalAmount>
        <ram:DuePayableAmount>583.10</ram:DuePayableAmount>
      </ram:SpecifiedTradeSettlementHeaderMonetarySummation>
    </ram:ApplicableHeaderTradeSettlement>
  </rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>`;

/** The same invoice in ZUGFeRD 1.0's element names (rsm:CrossIndustryDocument), with a text-only line. */
const ZUGFERD1 = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15">
  <rsm:SpecifiedExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:ferd:CrossIndustryDocument:invoice:1p0:comfort</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:SpecifiedExchangedDocumentContext>
  <rsm:HeaderExchangedDocument><ram:ID>RE-2026-0042</ram:ID><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">20260312</udt:DateTimeString></ram:IssueDateTime></rsm:HeaderExchangedDocument>
  <rsm:SpecifiedSupplyChainTradeTransaction>
    <ram:ApplicableSupplyChainTradeAgreement>
      <ram:SellerTradeParty><ram:Name>Holzwerk Brandt GmbH</ram:Name></ram:SellerTradeParty>
      <ram:BuyerTradeParty><ram:Name>Café Lindner KG</ram:Name></ram:BuyerTradeParty>
    </ram:ApplicableSupplyChainTradeAgreement>
    <ram:ApplicableSupplyChainTradeSettlement>
      <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
      <ram:SpecifiedTradePaymentTerms><ram:DueDateDateTime><udt:DateTimeString format="102">20260411</udt:DateTimeString></ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>
      <ram:SpecifiedTradeSettlementMonetarySummation>
        <ram:LineTotalAmount currencyID="EUR">490.00</ram:LineTotalAmount>
        <ram:TaxBasisTotalAmount currencyID="EUR">490.00</ram:TaxBasisTotalAmount>
        <ram:TaxTotalAmount currencyID="EUR">93.10</ram:TaxTotalAmount>
        <ram:GrandTotalAmount currencyID="EUR">583.10</ram:GrandTotalAmount>
        <ram:DuePayableAmount currencyID="EUR">583.10</ram:DuePayableAmount>
      </ram:SpecifiedTradeSettlementMonetarySummation>
    </ram:ApplicableSupplyChainTradeSettlement>
    <ram:IncludedSupplyChainTradeLineItem>
      <ram:AssociatedDocumentLineDocument><ram:LineID>1</ram:LineID></ram:AssociatedDocumentLineDocument>
      <ram:SpecifiedSupplyChainTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount currencyID="EUR">25.00</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedSupplyChainTradeAgreement>
      <ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="C62">10</ram:BilledQuantity></ram:SpecifiedSupplyChainTradeDelivery>
      <ram:SpecifiedSupplyChainTradeSettlement><ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount currencyID="EUR">250.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation></ram:SpecifiedSupplyChainTradeSettlement>
      <ram:SpecifiedTradeProduct><ram:Name>Eichenbrett 2m</ram:Name></ram:SpecifiedTradeProduct>
    </ram:IncludedSupplyChainTradeLineItem>
    <ram:IncludedSupplyChainTradeLineItem>
      <ram:AssociatedDocumentLineDocument><ram:LineID>2</ram:LineID><ram:IncludedNote><ram:Content>Lieferung frei Haus</ram:Content></ram:IncludedNote></ram:AssociatedDocumentLineDocument>
    </ram:IncludedSupplyChainTradeLineItem>
    <ram:IncludedSupplyChainTradeLineItem>
      <ram:AssociatedDocumentLineDocument><ram:LineID>3</ram:LineID></ram:AssociatedDocumentLineDocument>
      <ram:SpecifiedSupplyChainTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount currencyID="EUR">60.00</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedSupplyChainTradeAgreement>
      <ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="HUR">4</ram:BilledQuantity></ram:SpecifiedSupplyChainTradeDelivery>
      <ram:SpecifiedSupplyChainTradeSettlement><ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount currencyID="EUR">240.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation></ram:SpecifiedSupplyChainTradeSettlement>
      <ram:SpecifiedTradeProduct><ram:Name>Montage vor Ort</ram:Name></ram:SpecifiedTradeProduct>
    </ram:IncludedSupplyChainTradeLineItem>
  </rsm:SpecifiedSupplyChainTradeTransaction>
</rsm:CrossIndustryDocument>`;

/** The same invoice as XRechnung UBL (Invoice-2). */
const UBL = `<?xml version="1.0" encoding="UTF-8"?>
<ubl:Invoice xmlns:ubl="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</cbc:CustomizationID>
  <cbc:ID>RE-2026-0042</cbc:ID>
  <cbc:IssueDate>2026-03-12</cbc:IssueDate>
  <cbc:DueDate>2026-04-11</cbc:DueDate>
  <cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>
  <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
  <cac:AccountingSupplierParty><cac:Party><cac:PartyName><cbc:Name>Holzwerk Brandt</cbc:Name></cac:PartyName><cac:PartyLegalEntity><cbc:RegistrationName>Holzwerk Brandt GmbH</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty><cac:Party><cac:PartyLegalEntity><cbc:RegistrationName>Café Lindner KG</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party></cac:AccountingCustomerParty>
  <cac:TaxTotal><cbc:TaxAmount currencyID="EUR">93.10</cbc:TaxAmount></cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount currencyID="EUR">490.00</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount currencyID="EUR">490.00</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="EUR">583.10</cbc:TaxInclusiveAmount>
    <cbc:PayableAmount currencyID="EUR">583.10</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>
  <cac:InvoiceLine><cbc:ID>1</cbc:ID><cbc:InvoicedQuantity unitCode="H87">10</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="EUR">250.00</cbc:LineExtensionAmount><cac:Item><cbc:Name>Eichenbrett 2m</cbc:Name></cac:Item><cac:Price><cbc:PriceAmount currencyID="EUR">25.00</cbc:PriceAmount></cac:Price></cac:InvoiceLine>
  <cac:InvoiceLine><cbc:ID>2</cbc:ID><cbc:InvoicedQuantity unitCode="HUR">4</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="EUR">240.00</cbc:LineExtensionAmount><cac:Item><cbc:Name>Montage vor Ort</cbc:Name></cac:Item><cac:Price><cbc:PriceAmount currencyID="EUR">60.00</cbc:PriceAmount></cac:Price></cac:InvoiceLine>
</ubl:Invoice>`;

const SCHEMA = {
  type: 'object',
  properties: {
    invoice_number: { type: 'string' },
    invoice_date: { type: 'string', format: 'date' },
    due_date: { type: 'string', format: 'date' },
    issuer: { type: 'string', description: 'Company that issued the invoice' },
    customer: { type: 'string', description: 'Customer the invoice is addressed to' },
    currency: { type: 'string', description: 'ISO 4217 currency code' },
    subtotal: { type: 'number' },
    tax: { type: 'number' },
    total: { type: 'number', description: 'Total amount of the invoice' },
    line_items: {
      type: 'array',
      items: { type: 'object', properties: { description: { type: 'string' }, quantity: { type: 'number' }, unit_price: { type: 'number' }, amount: { type: 'number' } } },
    },
  },
};

const enc = (s: string) => new TextEncoder().encode(s);

/** An embedded file whose stream is written as given (raw bytes, own filter), in the document's EmbeddedFiles tree. */
function attachRaw(pdf: PDFDocument, name: string, contents: Uint8Array, filter?: string): void {
  const ctx = pdf.context;
  const stream = ctx.register(ctx.stream(contents, { Type: 'EmbeddedFile', Subtype: 'text/xml', ...(filter ? { Filter: filter } : {}) }));
  const spec = ctx.register(ctx.obj({ Type: 'Filespec', F: PDFString.of(name), UF: PDFHexString.fromText(name), EF: { F: stream }, AFRelationship: 'Data' }));
  const names = ctx.obj({ EmbeddedFiles: ctx.obj({ Names: [PDFString.of(name), spec] }) });
  pdf.catalog.set(PDFName.of('Names'), names);
}

function citedText(doc: Document, ids: unknown): string {
  expect(Array.isArray(ids) && ids.length > 0).toBe(true);
  return (ids as string[]).map((id) => {
    const hit = findElementById(doc, id);
    if (!hit) throw new Error(`citation ${id} does not resolve`);
    const el = hit.element;
    return el.kind === 'table' ? (hit.cellIndex !== undefined ? el.cells[hit.cellIndex].text : '') : el.kind === 'text' ? el.text : el.text;
  }).join(' ');
}

const read = async (pdf: PDFDocument) => extractDocument(await pdf.save(), 'pdf');
const answer = (doc: Document) => extractSchemaBuiltin({ document: doc, schema: SCHEMA, wantConfidence: true }) as {
  values: Record<string, unknown>; citations: Record<string, unknown>; confidence: Record<string, unknown>; notes: Record<string, string>;
};

describe('e-invoice attachments (#19)', () => {
  test('a Factur-X CII attachment answers the invoice fields, cited where the page prints them', async () => {
    const pdf = await invoicePdf();
    await pdf.attach(enc(CII), 'factur-x.xml', { mimeType: 'text/xml', description: 'Factur-X invoice', afRelationship: AFRelationship.Alternative });
    const doc = await read(pdf);
    expect(doc.embeddedInvoice).toMatchObject({
      source: { file: 'factur-x.xml', syntax: 'CII', profile: 'urn:cen.eu:en16931:2017' },
      number: 'RE-2026-0042', issueDate: '2026-03-12', dueDate: '2026-04-11', seller: 'Holzwerk Brandt GmbH', buyer: 'Café Lindner KG',
      currency: 'EUR', grandTotal: 583.1, duePayable: 583.1, taxBasisTotal: 490, taxTotal: 93.1,
    });
    expect(doc.embeddedInvoice!.lines).toEqual([
      { description: 'Eichenbrett 2m', quantity: 10, unitPrice: 25, amount: 250 },
      { description: 'Montage vor Ort', quantity: 4, unitPrice: 60, amount: 240 },
    ]);
    // the extraction response shows it too, so a reader of /extract sees the file's own data
    expect(renderExtraction(doc).extensions.embeddedInvoice).toEqual(doc.embeddedInvoice);
    const a = answer(doc);
    expect(a.values).toMatchObject({
      invoice_number: 'RE-2026-0042', invoice_date: '2026-03-12', due_date: '2026-04-11', issuer: 'Holzwerk Brandt GmbH', customer: 'Café Lindner KG',
      currency: 'EUR', subtotal: 490, tax: 93.1, total: 583.1,
    });
    expect(a.values.line_items).toEqual([
      { description: 'Eichenbrett 2m', quantity: 10, unit_price: 25, amount: 250 },
      { description: 'Montage vor Ort', quantity: 4, unit_price: 60, amount: 240 },
    ]);
    expect(citedText(doc, a.citations.invoice_number)).toContain('RE-2026-0042');
    expect(citedText(doc, a.citations.invoice_date)).toContain('12.03.2026');
    expect(citedText(doc, a.citations.total)).toContain('583,10');
    expect(citedText(doc, a.citations.customer)).toContain('Café Lindner KG');
    const items = a.citations.line_items as Record<string, unknown>[];
    expect(citedText(doc, items[1].amount)).toContain('240,00');
    expect(a.confidence.total).toBe(0.98);
    expect(a.notes['/total']).toMatch(/factur-x\.xml.*printed on the page/);
    // an array named for items takes the lines for the properties it shares with them; one of payments does not
    const other = extractSchemaBuiltin({ document: doc, schema: { type: 'object', properties: {
      items: { type: 'array', items: { type: 'object', properties: { amount: { type: 'number' }, sku: { type: 'string' } } } },
      payments: { type: 'array', items: { type: 'object', properties: { amount: { type: 'number' }, paid_on: { type: 'string', format: 'date' } } } },
    } } });
    expect((other.values as Record<string, unknown>).items).toEqual([{ amount: 250, sku: null }, { amount: 240, sku: null }]);
    expect(other.notes?.['/items']).toMatch(/states nothing for: sku/);
    expect(other.notes?.['/payments'] ?? '').not.toMatch(/embedded/);
  });

  test('a ZUGFeRD 1.0 attachment is read; where the page prints another total, the XML\'s is kept and the note says so', async () => {
    const pdf = await invoicePdf('580,00');
    await pdf.attach(enc(ZUGFERD1), 'ZUGFeRD-invoice.xml', { mimeType: 'text/xml', afRelationship: AFRelationship.Alternative });
    const doc = await read(pdf);
    expect(doc.embeddedInvoice).toMatchObject({ source: { syntax: 'ZUGFeRD 1.0', profile: 'urn:ferd:CrossIndustryDocument:invoice:1p0:comfort' }, number: 'RE-2026-0042', grandTotal: 583.1, taxTotal: 93.1 });
    // the text-only line is no item
    expect(doc.embeddedInvoice!.lines.map((l) => l.description)).toEqual(['Eichenbrett 2m', 'Montage vor Ort']);
    const a = answer(doc);
    expect(a.values.total).toBe(583.1);
    expect(a.confidence.total).toBe(0.93);
    expect(a.notes['/total']).toMatch(/not found printed.*page's own reading differs \(580\)/);
    expect(a.values.invoice_date).toBe('2026-03-12');
  });

  test('an XRechnung UBL attachment is read into the same fields', async () => {
    const pdf = await invoicePdf();
    await pdf.attach(enc(UBL), 'xrechnung.xml', { mimeType: 'application/xml', afRelationship: AFRelationship.Source });
    const doc = await read(pdf);
    expect(doc.embeddedInvoice).toMatchObject({
      source: { syntax: 'UBL' }, number: 'RE-2026-0042', issueDate: '2026-03-12', dueDate: '2026-04-11', seller: 'Holzwerk Brandt GmbH', buyer: 'Café Lindner KG',
      currency: 'EUR', grandTotal: 583.1, duePayable: 583.1, taxBasisTotal: 490, taxTotal: 93.1,
      lines: [{ description: 'Eichenbrett 2m', quantity: 10, unitPrice: 25, amount: 250 }, { description: 'Montage vor Ort', quantity: 4, unitPrice: 60, amount: 240 }],
    });
  });

  test('a damaged attachment and a decompression bomb are left out with a warning; the invoice attached beside them is read', async () => {
    const pdf = await invoicePdf();
    attachRaw(pdf, 'broken.xml', enc('this is not deflate data'), 'FlateDecode');
    const bomb = deflateSync(new Uint8Array(17 * 1024 * 1024)); // 17 MiB of zeros in ~17 KB
    const bombRef = pdf.context.register(pdf.context.stream(bomb, { Type: 'EmbeddedFile', Filter: 'FlateDecode' }));
    const bombSpec = pdf.context.register(pdf.context.obj({ Type: 'Filespec', F: PDFString.of('huge.xml'), EF: { F: bombRef } }));
    // the bomb is an associated file of the document (/AF), the broken one in the name tree
    pdf.catalog.set(PDFName.of('AF'), pdf.context.obj([bombSpec]));
    const page = pdf.getPage(0);
    const goodRef = pdf.context.register(pdf.context.flateStream(enc(CII), { Type: 'EmbeddedFile', Subtype: 'text/xml' }));
    const goodSpec = pdf.context.register(pdf.context.obj({ Type: 'Filespec', F: PDFString.of('factur-x.xml'), EF: { F: goodRef }, AFRelationship: 'Alternative' }));
    page.node.set(PDFName.of('AF'), pdf.context.obj([goodSpec]));
    const doc = await read(pdf);
    expect(doc.warnings.some((w) => /"broken\.xml" was not read: its compressed data is damaged/.test(w))).toBe(true);
    expect(doc.warnings.some((w) => /"huge\.xml" was not read: it decodes to more than 16 MiB/.test(w))).toBe(true);
    expect(doc.embeddedInvoice?.number).toBe('RE-2026-0042');
    expect(doc.pages[0].elements.length).toBeGreaterThan(0);
  });

  test('an e-invoice attachment that does not parse is reported; the fields are read from the page', async () => {
    const pdf = await invoicePdf();
    await pdf.attach(enc(CII.slice(0, 900)), 'factur-x.xml', { mimeType: 'text/xml' });
    const doc = await read(pdf);
    expect(doc.embeddedInvoice).toBeUndefined();
    expect(doc.warnings.some((w) => /embedded invoice "factur-x\.xml" could not be read/.test(w))).toBe(true);
    const a = answer(doc);
    expect(a.values.invoice_number).toBe('RE-2026-0042');
    expect(a.notes['/invoice_number'] ?? '').not.toMatch(/embedded/);
  });

  test('an attachment that is not an invoice changes nothing: the page is read as printed', async () => {
    const pdf = await invoicePdf();
    await pdf.attach(enc('<?xml version="1.0"?><settings><theme>dark</theme><ID>XYZ-1</ID></settings>'), 'settings.xml', { mimeType: 'text/xml' });
    await pdf.attach(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]), 'logo.png', { mimeType: 'image/png' });
    const doc = await read(pdf);
    expect(doc.embeddedInvoice).toBeUndefined();
    expect(doc.warnings).toEqual([]);
    const a = answer(doc);
    expect(a.values.invoice_number).toBe('RE-2026-0042');
    expect(a.values.total).toBe(583.1);
    expect(Object.values(a.notes).some((n) => /embedded/.test(n))).toBe(false);
  });
});
