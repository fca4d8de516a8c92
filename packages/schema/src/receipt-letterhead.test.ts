import { assignIds, type Document, type Word } from '@quire/core';
import { documentOf, lines, page } from '../../../tests/fixtures/documents/builder.js';
import { receiptSchema, receiptWithHead } from '../../../tests/fixtures/documents/receipt.js';
import { extractSchemaBuiltin } from './extract-schema.js';
import { lookalikesRead, unspaced } from './letterhead.js';

/**
 * Till receipts as Quire's own OCR reads them: the shop's name, its registration number, the address
 * up to the phone and tax lines — with the OCR's slips (look-alike letters and digits, a comma read as a
 * colon, a postcode misread) and layout's (a name row split into two blocks, padded line boxes).
 */

const receipt = receiptWithHead;

const read = (doc: Document) => extractSchemaBuiltin({ document: doc, schema: receiptSchema }).values as Record<string, unknown>;

describe('receipt letterheads read by OCR', () => {
  it('runs the address on through a postcode whose digits OCR read as look-alike letters', () => {
    const v = read(receipt(['KEDAI BUKU CAHAYA SDN BHD', '(123456-K)', 'JALAN MERPATI UTAMA 2.', 'TAMAN MERPATI B17S0 BANDAR RIA']));
    expect(v.company).toBe('KEDAI BUKU CAHAYA SDN BHD');
    expect(v.address).toBe('JALAN MERPATI UTAMA 2. TAMAN MERPATI 81750 BANDAR RIA');
  });

  it('takes the lines between the address and the phone line as the rest of the address, and only those', () => {
    // "SEMPANG MAS" has no postcode, street word or comma: the phone line right after it ends the address
    expect(read(receipt(['SRI MAJU HARDWARE', '12, JALAN KENANGA 3', 'SEMPANG MAS'])).address).toBe('12, JALAN KENANGA 3, SEMPANG MAS');
    // a line of goods or a company's legal name before the phone line is not the address's
    expect(read(receipt(['SRI MAJU HARDWARE', '12, JALAN KENANGA 3', 'SEMPANG MAS', 'COFFEE 4.50'])).address).toBe('12, JALAN KENANGA 3');
    expect(read(receipt(['SRI MAJU HARDWARE', '12, JALAN KENANGA 3', 'BLUEPEAK ENGINEERING SDN BHD'])).address).toBe('12, JALAN KENANGA 3');
  });

  it('takes the town from a postcode line that goes on into the phone or tax number', () => {
    expect(read(receipt(['SRI MAJU HARDWARE', '12, JALAN KENANGA 3,', '81100 JOHOR BAHRU, JOHOR. TEL: 07-350 7405'])).address)
      .toBe('12, JALAN KENANGA 3, 81100 JOHOR BAHRU, JOHOR.');
    expect(read(receipt(['SRI MAJU HARDWARE', '12, JALAN KENANGA 3,', 'TAMAN SRI 47100 PUCHONG (GST ID: 000123456789)'])).address)
      .toBe('12, JALAN KENANGA 3, TAMAN SRI 47100 PUCHONG');
    // a phone line without an address before its label stays out
    expect(read(receipt(['SRI MAJU HARDWARE', '12, JALAN KENANGA 3,', '47100 PUCHONG', 'HOTLINE TEL: 07-350 7405'])).address)
      .toBe('12, JALAN KENANGA 3, 47100 PUCHONG');
  });

  it('reads a word OCR misread in one copy as the word the letterhead prints again elsewhere', () => {
    const v = read(receipt(['TOKO RIA (KELIA JAYA) SDN BHD', 'NO. 9, JALAN KE11A 2,', 'TAMAN GELIA, KELIA JAYA,', '81200 JOHOR BAHRU']));
    expect(v.address).toBe('NO. 9, JALAN KELIA 2, TAMAN KELIA, KELIA JAYA, 81200 JOHOR BAHRU');
    // a word printed once with no repeated word a slip away stays as printed
    expect(read(receipt(['TOKO RIA SDN BHD', 'NO. 9, JALAN KE11A 2,', 'TAMAN GELIA,', '81200 JOHOR BAHRU'])).address).toBe('NO. 9, JALAN KE11A 2, TAMAN GELIA, 81200 JOHOR BAHRU');
  });

  it('follows an address that opens in the top part of a short slip down past it', () => {
    // a short slip: the letterhead, set large, fills most of its upper half
    const slip = documentOf([page(1, [
      ...lines(['KEDAI RUNCIT MAJU', 'NO. 12, JALAN MERPATI 3,', 'TAMAN MERPATI INDAH,', 'BATU 9, JALAN KLANG LAMA,', '58200 KUALA LUMPUR'], 0.1, 0.1, 0.8, 0.08),
      ...lines(['TEL: 03-7781 2345', 'Date: 12/03/2018', 'TOTAL 9.00'], 0.1, 0.5, 0.8, 0.08),
    ])]);
    expect(read(slip).address).toBe('NO. 12, JALAN MERPATI 3, TAMAN MERPATI INDAH, BATU 9, JALAN KLANG LAMA, 58200 KUALA LUMPUR');
    expect(read(slip).company).toBe('KEDAI RUNCIT MAJU');
  });

  it('takes the name, not the line under it that only says what kind of business it is', () => {
    // set apart or set solid under the name, "BISTRO & CAFE" describes the name
    expect(read(receipt(['KOPI SEKAWAN', 'BISTRO & CAFE', '12, JALAN MERPATI 3,', '58200 KUALA LUMPUR'])).company).toBe('KOPI SEKAWAN');
    const solid = documentOf([page(1, [
      ...lines(['KOPI SEKAWAN', 'BISTRO & CAFE'], 0.1, 0.04, 0.8, 0.025).map((l) => ({ ...l, at: [l.at[0], l.at[1], l.at[2], l.at[1] + 0.025] as [number, number, number, number] })),
      ...lines(['12, JALAN MERPATI 3,', '58200 KUALA LUMPUR', 'TEL: 03-7781 2345', 'Date: 12/03/2018', 'TOTAL 9.00'], 0.1, 0.1, 0.8, 0.03),
    ])]);
    expect(read(solid).company).toBe('KOPI SEKAWAN');
    // a name that goes on into its trade ("… HARDWARE & / ELECTRICAL") keeps it
    expect(read(receipt(['SRI MAJU HARDWARE &', 'ELECTRICAL', '12, JALAN MERPATI 3,', '58200 KUALA LUMPUR'])).company).toBe('SRI MAJU HARDWARE & ELECTRICAL');
  });

  it('follows an address over seven lines, each ending in a comma, to its postcode and state', () => {
    const head = ['KEDAI RUNCIT MAJU', 'LOT 117,', 'SECOND FLOOR,', 'PLAZA MERPATI,', '1, JALAN MERPATI 3,', 'TAMAN MERPATI INDAH,', '58200 KUALA LUMPUR,', 'WILAYAH PERSEKUTUAN.'];
    expect(read(receipt(head)).address).toBe(head.slice(1).join(' '));
  });

  it('reads a colon OCR put for a comma in an address line as the comma', () => {
    const v = read(receipt(['TOKO CERAH', 'NO.5: 55,57 & 59,JALAN SAGU 18', '81100 JOHOR BAHRU']));
    expect(v.company).toBe('TOKO CERAH');
    expect(v.address).toBe('NO.5, 55,57 & 59,JALAN SAGU 18, 81100 JOHOR BAHRU');
    // a colon between a place and its postcode
    expect(read(receipt(['TOKO CERAH', '67, JLN MEWAH 25/63,', 'TMN SRI MUDA: 40400 SHAH ALAM.'])).address).toBe('67, JLN MEWAH 25/63, TMN SRI MUDA, 40400 SHAH ALAM.');
    // a label's colon before a number is no comma
    expect(read(receipt(['TOKO CERAH', '67, JLN MEWAH 25/63,', '40400 SHAH ALAM.', 'INVOICE: 12345 CASH'])).address).toBe('67, JLN MEWAH 25/63, 40400 SHAH ALAM.');
    // a line ending in a stray colon is still the address
    expect(read(receipt(['TOKO CERAH', 'NO.53, JALAN BESAR,45600 BATANG KALI:', 'SELANGOR DARUL EHSAN'])).address)
      .toBe('NO.53, JALAN BESAR,45600 BATANG KALI, SELANGOR DARUL EHSAN');
  });

  it('opens the address right after the registration number that closes the name', () => {
    const v = read(receipt(['CAHAYA STATIONERY', '(001234567-M)', 'PUSAT NIAGA SERI', '7, JALAN SERI 2,', '45600 BATANG KALI']));
    expect(v.company).toBe('CAHAYA STATIONERY');
    expect(v.address).toBe('PUSAT NIAGA SERI, 7, JALAN SERI 2, 45600 BATANG KALI');
    // a date above is no registration number
    const dated = read(documentOf([page(1, [
      ...lines(['2019-06-10', 'Harbour Supplies', 'Quay Side', '12, Harbour Road,', 'Cork T12 X8Y2', 'phone 021 555 0100'], 0.1, 0.04, 0.8, 0.03),
    ])]));
    expect(dated.address).toBe('12, Harbour Road, Cork T12 X8Y2');
  });

  it('drops a registration number in full-width brackets and reads look-alike digits in the name', () => {
    const v = read(receipt(['SUNRISE C0. (M) BHD （126926-H）', '3RD FLR, SUNRISE MALL,', 'JLN JEJAKA, TAMAN MALURI', '55100 KUALA LUMPUR']));
    expect(v.company).toBe('SUNRISE CO. (M) BHD');
    expect(v.address).toBe('3RD FLR, SUNRISE MALL, JLN JEJAKA, TAMAN MALURI, 55100 KUALA LUMPUR');
  });

  it('reads look-alike letters and digits where the word around them says which was meant', () => {
    expect(lookalikesRead('AEON C0. (M) BHD', 'name')).toBe('AEON CO. (M) BHD');
    expect(lookalikesRead('TAN BROTHERS STATIONERY 8 BOOKS', 'name')).toBe('TAN BROTHERS STATIONERY & BOOKS');
    expect(lookalikesRead('NO 14 8 16 JALAN PERMAS', 'address')).toBe('NO 14 8 16 JALAN PERMAS');
    expect(lookalikesRead('JALAN SETIA GEM8ILANG', 'address')).toBe('JALAN SETIA GEMBILANG');
    expect(lookalikesRead('LOT P.T. 28I1, JALAN ANGSA', 'address')).toBe('LOT P.T. 2811, JALAN ANGSA');
    expect(lookalikesRead('12, Jalan Tampoi 7/4, Kawasan Perirdustrian', 'address')).toBe('12, Jalan Tampoi 7/4, Kawasan Perindustrian');
    expect(lookalikesRead('PERMAS JAYA B17S0 MASAI', 'address')).toBe('PERMAS JAYA 81750 MASAI');
    // codes that mix letters and digits on purpose stay as printed
    for (const t of ['NO. 17-G, (X) U13/X', 'SS21/1A, B0-12', 'LOT B1750', '7 ELEVEN', 'SS1A', 'KAMPONG GLAM']) expect(lookalikesRead(t, 'address')).toBe(t);
    expect(lookalikesRead('B2B SUPPLIES 3M', 'name')).toBe('B2B SUPPLIES 3M');
  });

  it('keeps a name row that layout split into two blocks whole, and its lines together though OCR boxes overlap', () => {
    // OCR word boxes padded for tall glyphs: each line's box reaches into the next one's
    const rows: [string[], number][] = [[['GOLDEN', 'LEAF', 'HARDWARE'], 0.1], [['ENTERPRISE', '(TAMAN'], 0.115], [['MELATI)', 'SDN', 'BHD'], 0.13]];
    const words: Word[] = [];
    const CHAR = 0.02, H = 0.03;
    for (const [ws, y] of rows) {
      let x = 0.2;
      for (const w of ws) { words.push({ text: w, box: { x0: x, y0: y, x1: x + w.length * CHAR, y1: y + H }, confidence: 0.9 }); x += (w.length + 1) * CHAR; }
    }
    const below: [string, number][] = [['822737-X', 0.16], ['NO. 17-G, JALAN MELATI 3,', 0.18], ['53100 KUALA LUMPUR.', 0.2], ['TEL: 03-4021 1234', 0.22], ['Date: 12/03/2018', 0.3], ['TOTAL 9.00', 0.4]];
    for (const [t, y] of below) {
      let x = 0.2;
      for (const w of t.split(' ')) { words.push({ text: w, box: { x0: x, y0: y, x1: x + w.length * CHAR * 0.5, y1: y + 0.012 }, confidence: 0.9 }); x += (w.length + 1) * CHAR * 0.5; }
    }
    const text = (ws: Word[]) => ws.map((w) => w.text).join(' ');
    const box = (ws: Word[]) => ({ x0: Math.min(...ws.map((w) => w.box.x0)), y0: Math.min(...ws.map((w) => w.box.y0)), x1: Math.max(...ws.map((w) => w.box.x1)), y1: Math.max(...ws.map((w) => w.box.y1)) });
    // layout put "SDN BHD" in a block of its own beside the rest of the name
    const name = words.slice(0, 6), legal = words.slice(6, 8);
    const elements = [name, legal, ...below.map(([t]) => words.filter((w) => t.split(' ').includes(w.text) && w.box.y0 >= 0.16))]
      .map((ws) => ({ kind: 'text' as const, category: 'Text' as const, page: 1, confidence: 0.9, text: text(ws), box: box(ws) }));
    const doc = assignIds({ format: 'jpeg', pageCount: 1, warnings: [], pages: [{ number: 1, width: 300, height: 600, elements, words, selectionMarks: [] }] });
    const v = read(doc);
    expect(v.company).toBe('GOLDEN LEAF HARDWARE ENTERPRISE (TAMAN MELATI) SDN BHD');
    expect(v.address).toBe('NO. 17-G, JALAN MELATI 3, 53100 KUALA LUMPUR.');
  });
  it('reads a name printed letter-spaced as its words, and keeps initials as printed', () => {
    const v = read(receipt(['S P E E D Y   M A R T', '12, JALAN KENANGA 3,', '45600 BATANG KALI']));
    expect(v.company).toBe('SPEEDYMART');
    expect(unspaced('A B C TRADING')).toBe('A B C TRADING');
    expect(unspaced('MR D I Y')).toBe('MR D I Y');
  });
  it('does not join a trading name set in larger type to the legal name below it', () => {
    const head = (big: number) => documentOf([page(1, [
      { text: 'GOLDEN HARVEST BAKERY', at: [0.1, 0.04, 0.9, 0.04 + big] },
      ...lines(['HARVEST FOODS SDN BHD', '12, JALAN KENANGA 3,', '45600 BATANG KALI', 'TEL: 03-5121 3881', 'TOTAL 9.00'], 0.1, 0.05 + big, 0.8, 0.03),
    ])]);
    // the same size of type: one name wrapped over two lines; larger type above: a trading name
    expect(read(head(0.024)).company).toBe('GOLDEN HARVEST BAKERY HARVEST FOODS SDN BHD');
    expect(read(head(0.045)).company).toBe('HARVEST FOODS SDN BHD');
  });
});
