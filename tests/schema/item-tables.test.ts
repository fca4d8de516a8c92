import { extractDocument } from '@quire/extract';
import { extractSchemaBuiltin } from '@quire/schema';
import { ITEM_LINES, LINE_ITEMS_SCHEMA as schema, makeFrenchItemTablePdf, makeStackedItemsPdf, STACKED_ITEMS } from '../fixtures/pdf/item-tables.js';

/**
 * Line items from a French item table, generated: the column header over one or three ruled rows
 * ("P.U. HT" over "(EUR)", "Désignation, période" over "Objet" over "Note"), unit prices printed with
 * their workings ("(Brut: 500,00) (Remise: 50,00) (Net): 450,00"), and the summary lines
 * ("Montant total net", "Taxe sur la valeur ajoutée (20,00 %)", "Montant total brut") as the table's
 * last rows. Quantities and unit prices are both whole numbers, so only the headers tell them apart.
 */

const expected = ITEM_LINES.map((l) => ({ description: l.description, quantity: l.quantity, unit_price: l.gross - l.discount, amount: l.amount }));

describe.each([
  { headerLines: 1 as const, priceWorkings: false },
  { headerLines: 3 as const, priceWorkings: false },
  { headerLines: 1 as const, priceWorkings: true },
  { headerLines: 3 as const, priceWorkings: true },
])('a French item table, header over $headerLines row(s), unit prices with workings: $priceWorkings', (opts) => {
  it('gives one item per item row, each column by its header, and no summary line as an item', async () => {
    const doc = await extractDocument(await makeFrenchItemTablePdf(opts), 'pdf', {});
    const values = extractSchemaBuiltin({ document: doc, schema, wantConfidence: true }).values as { line_items: unknown[] };
    expect(values.line_items).toEqual(expected);
  }, 60_000);
});

it('takes a discount printed in the amount column under an item off that item\'s amount, and adds no item for it', async () => {
  const doc = await extractDocument(await makeFrenchItemTablePdf({ headerLines: 1, priceWorkings: false, lineDiscount: true }), 'pdf', {});
  const values = extractSchemaBuiltin({ document: doc, schema, wantConfidence: true }).values as { line_items: unknown[] };
  expect(values.line_items).toEqual([{ ...expected[0], amount: ITEM_LINES[0].amount * 0.9 }, ...expected.slice(1)]);
}, 60_000);

it('describes items by their names where every description opens with an article code and a dash', async () => {
  const doc = await extractDocument(await makeFrenchItemTablePdf({ headerLines: 1, priceWorkings: false, articleCodes: true }), 'pdf', {});
  const values = extractSchemaBuiltin({ document: doc, schema, wantConfidence: true }).values as { line_items: unknown[] };
  expect(values.line_items).toEqual(expected);
}, 60_000);

it('gives one item per printed line where one ruled row holds several, past a watermark, and keeps a wrapped description whole', async () => {
  const doc = await extractDocument(await makeStackedItemsPdf(), 'pdf', {});
  const values = extractSchemaBuiltin({ document: doc, schema, wantConfidence: true }).values as { line_items: { description: string; amount: number }[] };
  expect(values.line_items.map((l) => ({ description: l.description, amount: l.amount }))).toEqual(STACKED_ITEMS);
}, 60_000);
