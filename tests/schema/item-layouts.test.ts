import { extractDocument } from '@quire/extract';
import { extractSchemaBuiltin } from '@quire/schema';
import { expectedItems, makeItemLayoutInvoice, type ItemLayout, type LayoutItem } from '../fixtures/pdf/item-layouts.js';
import { LINE_ITEMS_SCHEMA as schema } from '../fixtures/pdf/item-tables.js';

/**
 * Line items from item tables printed in columns without ruling (generated): column headers in the
 * languages invoices are written in, read by what they mean ("Stukprijs", "Valor unitário",
 * "Cena jedn. netto", "À-pris", "Netto"); descriptions wrapped over several lines.
 */

async function lineItems(layout: ItemLayout): Promise<unknown> {
  const doc = await extractDocument(await makeItemLayoutInvoice(layout), 'pdf', {});
  return (extractSchemaBuiltin({ document: doc, schema, wantConfidence: true }).values as { line_items: unknown }).line_items;
}

const ITEMS: LayoutItem[] = [
  { lines: ['Hydraulic press repair'], quantity: 3, unit_price: 120, amount: 360 },
  { lines: ['Seal kit 40 mm'], quantity: 12, unit_price: 7.25, amount: 87 },
  { lines: ['Travel and call-out'], quantity: 1, unit_price: 89.9, amount: 89.9 },
];

describe.each([
  ['nl', ['Beschrijving', 'Aantal', 'Stukprijs', 'Netto']],
  ['pt', ['Designação', 'Quantidade', 'Valor unitário', 'Valor total']],
  ['pl', ['Nazwa towaru lub usługi', 'Ilość', 'Cena jedn. netto', 'Wartość netto']],
  ['sv', ['Beskrivning', 'Antal', 'À-pris', 'Belopp']],
  ['da', ['Beskrivelse', 'Stk.', 'Enhedspris', 'Beløb']],
  ['es', ['Concepto', 'Unidades', 'Precio unit.', 'Base imponible']],
  ['it', ['Descrizione', 'Q.tà', 'Prezzo unitario', 'Imponibile']],
  ['en', ['Service', 'Hours', 'Rate', 'Net amount']],
] as [string, ItemLayout['headers']][])('an item table headed in %s', (_lang, headers) => {
  it(`maps "${headers!.join(' | ')}" to description, quantity, unit price and amount`, async () => {
    expect(await lineItems({ headers, items: ITEMS })).toEqual(expectedItems(ITEMS));
  }, 60_000);
});

const WRAPPED: LayoutItem[] = [
  { lines: ['Hydraulic press repair, on site,', 'including calibration'], quantity: 3, unit_price: 120, amount: 360 },
  { lines: ['Seal kit 40 mm'], quantity: 12, unit_price: 7.25, amount: 87 },
  { lines: ['Travel and call-out: two technicians,', 'vehicle and tools,', 'Rotterdam to Delft and back'], quantity: 1, unit_price: 89.9, amount: 89.9 },
];

describe.each([
  { figuresOn: 'first' as const, itemGap: 0 },
  { figuresOn: 'last' as const, itemGap: 0 },
  { figuresOn: 'first' as const, itemGap: 6 },
  { figuresOn: 'last' as const, itemGap: 6 },
])('descriptions wrapped over up to three lines, figures beside the $figuresOn line, $itemGap pt between items', ({ figuresOn, itemGap }) => {
  it('gives one item per description, its lines joined, with its own figures', async () => {
    expect(await lineItems({ headers: ['Omschrijving', 'Aantal', 'Prijs', 'Bedrag'], items: WRAPPED, figuresOn, itemGap })).toEqual(expectedItems(WRAPPED));
  }, 60_000);
});

describe('wrapped descriptions whose figures stand beside the last line, under a one-line first item', () => {
  const singleFirst = [WRAPPED[1], WRAPPED[0], WRAPPED[2]];
  it('breaks between items where no line runs on into the next (even spacing)', async () => {
    expect(await lineItems({ headers: ['Bezeichnung', 'Menge', 'Einzelpreis', 'Betrag'], items: singleFirst, figuresOn: 'last' })).toEqual(expectedItems(singleFirst));
  }, 60_000);

  it('breaks between items where the spacing is widest (lines that give no cue)', async () => {
    const plain = singleFirst.map((it) => ({ ...it, lines: it.lines.map((l) => l.replace(/[,:]$/, '').replace(/^\p{Ll}/u, (c) => c.toUpperCase())) }));
    expect(await lineItems({ headers: ['Désignation', 'Qté', 'Prix unitaire', 'Montant'], items: plain, figuresOn: 'last', itemGap: 6 })).toEqual(expectedItems(plain));
  }, 60_000);
});

describe('an item table printed without a header row', () => {
  it('finds the columns by their arithmetic (quantity × unit price = amount) and the description as the column of words', async () => {
    expect(await lineItems({ items: ITEMS })).toEqual(expectedItems(ITEMS));
  }, 60_000);

  it('does so with wrapped descriptions too', async () => {
    expect(await lineItems({ items: WRAPPED, figuresOn: 'first', itemGap: 4 })).toEqual(expectedItems(WRAPPED));
  }, 60_000);
});

describe('an item table whose header row is printed apart from its rows (a band of its own above the table)', () => {
  it('reads the columns by the header above the table where the figures cannot tell them (no unit price)', async () => {
    expect(await lineItems({ headers: ['Omschrijving', 'Aantal', '', 'Bedrag'], items: ITEMS, noUnitPrice: true, headerGap: 40 })).toEqual(expectedItems(ITEMS, true));
  }, 60_000);

  it('and where they can', async () => {
    expect(await lineItems({ headers: ['Bezeichnung', 'Menge', 'Einzelpreis', 'Betrag'], items: WRAPPED, headerGap: 40 })).toEqual(expectedItems(WRAPPED));
  }, 60_000);
});
