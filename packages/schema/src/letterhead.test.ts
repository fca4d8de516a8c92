import { documentOf, lines, page } from '../../../tests/fixtures/documents/builder.js';
import { extractSchemaBuiltin } from './extract-schema.js';
import { fieldSpec } from './field-spec.js';
import { letterheadKind } from './letterhead.js';

const receiptSchema = {
  type: 'object',
  properties: {
    company: { type: 'string', description: 'Name of the company that issued the receipt' },
    address: { type: 'string', description: 'Address of the company' },
    date: { type: 'string', format: 'date' },
    total: { type: 'number' },
  },
};

/** A till receipt: a customer name scribbled on top, the shop's name, registration, address, then furniture and amounts. */
function receipt(head: string[]) {
  return documentOf([page(1, [
    ...lines(head, 0.1, 0.04, 0.8, 0.03),
    ...lines(['TEL: 03-5121 3881', 'GST NO: 001006288896', 'TAX INVOICE', 'Date: 12/03/2018', 'Coffee 2 x 4.50 9.00', 'TOTAL 9.00'], 0.1, 0.04 + head.length * 0.03, 0.8, 0.03),
  ])]);
}

const texts = (doc: ReturnType<typeof receipt>) => new Map(doc.pages[0].elements.map((e) => [e.id!, e.kind === 'text' ? e.text : '']));

describe('letterhead: issuer name and address without labels', () => {
  it('runs the address on to its postcode line and the state printed after it', () => {
    const doc = receipt(['GREENLEAF TRADING SDN BHD', '(742016-W)', 'NO. 12-G, JALAN MERANTI 4', 'PUCHONG UTAMA', '47100 PUCHONG,', 'SELANGOR.']);
    const v = extractSchemaBuiltin({ document: doc, schema: receiptSchema }).values as Record<string, unknown>;
    expect(v.company).toBe('GREENLEAF TRADING SDN BHD');
    expect(v.address).toBe('NO. 12-G, JALAN MERANTI 4, PUCHONG UTAMA, 47100 PUCHONG, SELANGOR.');
  });

  it('does not take the paper\'s own words for the company', () => {
    const doc = receipt(['CASH', '67, JALAN MEWAH 25/63,', '40400 SHAH ALAM.']);
    const v = extractSchemaBuiltin({ document: doc, schema: receiptSchema }).values as Record<string, unknown>;
    expect(v.company).not.toBe('CASH');
  });

  it('reads the name above the address block and the address lines that continue it', () => {
    const doc = receipt(['GREENLEAF TRADING SDN BHD', '(742016-W)', '67, JALAN MEWAH 25/63,', 'TAMAN SRI MUDA,', '40400 SHAH ALAM.']);
    const out = extractSchemaBuiltin({ document: doc, schema: receiptSchema, wantConfidence: true });
    const v = out.values as Record<string, unknown>, c = out.citations as Record<string, string[]>, conf = out.confidence as Record<string, number>;
    expect(v.company).toBe('GREENLEAF TRADING SDN BHD');
    expect(v.address).toBe('67, JALAN MEWAH 25/63, TAMAN SRI MUDA, 40400 SHAH ALAM.');
    expect(c.company.map((id) => texts(doc).get(id))).toEqual(['GREENLEAF TRADING SDN BHD']);
    expect(c.address.map((id) => texts(doc).get(id))).toEqual(['67, JALAN MEWAH 25/63,', 'TAMAN SRI MUDA,', '40400 SHAH ALAM.']);
    // unlabelled layout evidence: less sure than the labelled date and total
    expect(conf.company).toBeLessThan(0.75);
    expect(conf.address).toBeLessThan(0.75);
    expect(conf.total).toBeGreaterThan(conf.address);
    expect(v.date).toBe('2018-03-12');
    expect(v.total).toBe(9);
  });

  it('prefers the line right above the address over a name written above it, and a legal form over both', () => {
    const doc = receipt(['JOHN PRESTON', 'BLUE HARBOUR GIFTS', '27, HARBOUR ROAD,', 'PORT LOUIS 11302']);
    expect((extractSchemaBuiltin({ document: doc, schema: receiptSchema }).values as Record<string, unknown>).company).toBe('BLUE HARBOUR GIFTS');
    const legal = receipt(['ACME HOLDINGS LTD', 'Fresh bread daily', '12 High Street,', 'Oxford OX1 4AA']);
    expect((extractSchemaBuiltin({ document: legal, schema: receiptSchema }).values as Record<string, unknown>).company).toBe('ACME HOLDINGS LTD');
    // a document title is not a name, and a trade word is kept unless it qualifies a document type
    const titled = receipt(['CASH SALES', 'Harbour Retail', '12 Quay Road,', 'Cork T12 X8Y2']);
    const v = extractSchemaBuiltin({ document: titled, schema: receiptSchema }).values as Record<string, unknown>;
    expect(v.company).toBe('Harbour Retail');
    expect(v.address).toBe('12 Quay Road, Cork T12 X8Y2');
  });

  it("skips the recipient's block and takes the document title's words off a name", () => {
    const doc = documentOf([page(1, [
      ...lines(['Northwind Cloud Invoice'], 0.5, 0.05, 0.9, 0.04, 'Title'),
      ...lines(['Account number: 2966640'], 0.05, 0.12, 0.4, 0.02),
      ...lines(['Bill to', 'Contoso Limited', '93 Main Street,', 'Springfield IL 62701'], 0.05, 0.2, 0.4, 0.02),
      ...lines(['Invoice number: 118', 'Total due: 42.00'], 0.05, 0.4, 0.6, 0.02),
    ])]);
    const schema = { type: 'object', properties: { issuer: { type: 'string', description: 'Company that issued the invoice' }, vendor_address: { type: 'string' } } };
    const out = extractSchemaBuiltin({ document: doc, schema });
    expect(out.values).toEqual({ issuer: 'Northwind Cloud', vendor_address: null });
  });

  it('a labelled value wins, and a registration number is never a name', () => {
    const doc = receipt(['Vendor: Orchard Supplies', 'COMPANY NO : 1174703-K', '12, JALAN TAMPOI 7/4,', '81200 JOHOR BAHRU']);
    const v = extractSchemaBuiltin({ document: doc, schema: { type: 'object', properties: { vendor: { type: 'string' } } } }).values as Record<string, unknown>;
    expect(v.vendor).toBe('Orchard Supplies');
    const bare = receipt(['COMPANY NO : 1174703-K', 'TEL 07-3523888']);
    const out = extractSchemaBuiltin({ document: bare, schema: receiptSchema });
    expect((out.values as Record<string, unknown>).company).toBeNull();
    expect((out.values as Record<string, unknown>).address).toBeNull();
  });

  it('only issuer-name and address fields use the letterhead; the other party does not', () => {
    const kind = (name: string, node: Record<string, unknown> = { type: 'string' }, path = [name]) => letterheadKind(fieldSpec({}, node, path, false));
    expect(kind('merchant_name')).toBe('organisation');
    expect(kind('name', { type: 'string' }, ['vendor', 'name'])).toBe('organisation');
    expect(kind('sold_by')).toBe('organisation');
    expect(kind('name', { type: 'string', description: 'The store that sold the items' })).toBe('organisation');
    expect(kind('address', { type: 'string' }, ['supplier', 'address'])).toBe('address');
    expect(kind('customer_name')).toBeUndefined();
    expect(kind('address', { type: 'string' }, ['bill_to', 'address'])).toBeUndefined();
    expect(kind('sold_to')).toBeUndefined();
    expect(kind('company_number')).toBeUndefined();
    expect(kind('company', { type: 'number' })).toBeUndefined();
  });
});
