import { documentOf, lines, page } from '../../../tests/fixtures/documents/builder.js';
import { receiptSchema, receiptWithHead } from '../../../tests/fixtures/documents/receipt.js';
import { extractSchemaBuiltin } from './extract-schema.js';
import { fieldSpec } from './field-spec.js';
import { letterheadKind } from './letterhead.js';

const receipt = receiptWithHead;

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

  describe('receipt letterheads as printed', () => {
    const read = (doc: ReturnType<typeof receipt>) => extractSchemaBuiltin({ document: doc, schema: receiptSchema }).values as Record<string, unknown>;

    it('joins a name wrapped over lines: into a legal form, through an open bracket, after a connector', () => {
      const wrapped = read(receipt(['GOLDEN LEAF HARDWARE', 'ENTERPRISE (TAMAN', 'MELATI) SDN BHD', '822737-X', 'NO. 17-G, JALAN MELATI 3,', '53100 KUALA LUMPUR.']));
      expect(wrapped.company).toBe('GOLDEN LEAF HARDWARE ENTERPRISE (TAMAN MELATI) SDN BHD');
      const legal = read(receipt(['LIAN HUAT VEGETARIAN', 'RESTAURANT SDN BHD', '(1095514-X)', '54, JALAN SS23/11,', '47400 PETALING JAYA.']));
      expect(legal.company).toBe('LIAN HUAT VEGETARIAN RESTAURANT SDN BHD');
      const connector = read(receipt(['HOME MASTER HARDWARE &', 'ELECTRICAL', 'NO.113G & 115G, JALAN SETIA 4,', '40170 SHAH ALAM.']));
      expect(connector.company).toBe('HOME MASTER HARDWARE & ELECTRICAL');
      // OCR boxes hug the letters: the leading between the two lines of a name can be more than half their height
      const ocrBoxes = documentOf([page(1, [
        { text: 'LIAN HUAT VEGETARIAN', at: [0.1, 0.05, 0.8, 0.066] }, { text: 'RESTAURANT SDN BHD', at: [0.15, 0.076, 0.75, 0.092] },
        ...lines(['54, JALAN SS23/11,', '47400 PETALING JAYA.', 'TEL: 03-7805 7889', 'TOTAL 9.00'], 0.1, 0.1, 0.8, 0.03),
      ])]);
      expect(read(ocrBoxes).company).toBe('LIAN HUAT VEGETARIAN RESTAURANT SDN BHD');
      // a brand printed short above the legal name is not part of it
      const brand = read(receipt(['Greenway', 'Taste Of The Sea Sdn Bhd', 'Lot 38, Jalan Kenari 5,', '47170 Puchong, Selangor']));
      expect(brand.company).toBe('Taste Of The Sea Sdn Bhd');
    });

    it('drops a registration number printed after the name, and keeps a name that opens with a number', () => {
      const v = read(receipt(['88 NOODLE HOUSE S/B (519537-X)', 'LOT 12, JALAN ANGSA,', '41150 KLANG, SELANGOR']));
      expect(v.company).toBe('88 NOODLE HOUSE S/B');
      expect(v.address).toBe('LOT 12, JALAN ANGSA, 41150 KLANG, SELANGOR');
      // a registration line whose label OCR garbled is still a number, not the name
      expect(read(receipt(['SUN WONG KUT', 'Conpany No® 20965-Y', '176 JLN SUNGEI BESI', '57100 KUALA LUMPUR'])).company).toBe('SUN WONG KUT');
    });

    it('does not take a line in lower case (a name scribbled on the paper) for the printed name', () => {
      expect(read(receipt(['tan ah kow', '12, JALAN MERANTI 4,', '47100 PUCHONG.'])).company).toBeNull();
    });

    it('opens the address at the unit and building lines above the street, and runs it on to the town after a postcode', () => {
      const mall = read(receipt(['SUNRISE CO. (M) BHD', '2ND FLR, SUNRISE MALL', 'JLN JEJAKA, TAMAN MALURI', 'CHERAS, 55100 KUALA LUMPUR']));
      expect(mall.company).toBe('SUNRISE CO. (M) BHD');
      expect(mall.address).toBe('2ND FLR, SUNRISE MALL, JLN JEJAKA, TAMAN MALURI, CHERAS, 55100 KUALA LUMPUR');
      const unitFirst = read(receipt(['KOPI CORNER', 'S117, SECOND FLOOR,', 'SUNRISE CITY,', '1, JALAN SUNRISE,', '81100 JOHOR BAHRU, JOHOR.']));
      expect(unitFirst.company).toBe('KOPI CORNER');
      expect(unitFirst.address).toBe('S117, SECOND FLOOR, SUNRISE CITY, 1, JALAN SUNRISE, 81100 JOHOR BAHRU, JOHOR.');
      const town = read(receipt(['BRIGHT LAMP GALLERY SDN BHD', 'NO: 28, JALAN ASTANA 1C,', 'BANDAR BUKIT RAJA, 41050', 'KLANG SELANGOR D.E, MALAYSIA']));
      expect(town.address).toBe('NO: 28, JALAN ASTANA 1C, BANDAR BUKIT RAJA, 41050, KLANG SELANGOR D.E, MALAYSIA');
      const unit = read(receipt(['RESTAURANT SIN HUAT', 'K3-113, JL IBRAHIM SULTAN', '80300 JOHOR BAHRU', 'JOHOR']));
      expect(unit.company).toBe('RESTAURANT SIN HUAT');
      expect(unit.address).toBe('K3-113, JL IBRAHIM SULTAN, 80300 JOHOR BAHRU, JOHOR');
      const oneLine = read(receipt(['TRIPLE SEVEN ENTERPRISE', 'NO 14 & 16 JALAN PERMAS 4/3 BANDAR BARU PERMAS JAYA']));
      expect(oneLine.address).toBe('NO 14 & 16 JALAN PERMAS 4/3 BANDAR BARU PERMAS JAYA');
    });

    it("does not take the customer's block for the issuer: 'NAME : CASH', a company printed under the title", () => {
      const doc = documentOf([page(1, lines([
        'PERNIAGAAN HENG LI', 'JM0325955-V', 'NO.59 JALAN PERMAS 9/5', 'BANDAR BARU PERMAS JAYA', '81760 JOHOR BAHRU',
        'TEL : 07-386 7524', 'GST NO: 000800589824', 'SIMPLIFIED TAX INVOICE', 'BLUEPEAK ENGINEERING (M) SDN BHD',
        'RECEIPT#: CS00082662', 'SALESPERSON', 'CODE : 300-C0001', 'NAME : CASH', 'ADDRESS :', 'GST NO.', 'TOTAL 9.00',
      ], 0.1, 0.05, 0.8, 0.02))]);
      const v = read(doc);
      expect(v.company).toBe('PERNIAGAAN HENG LI');
      expect(v.address).toBe('NO.59 JALAN PERMAS 9/5, BANDAR BARU PERMAS JAYA, 81760 JOHOR BAHRU');
    });
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
