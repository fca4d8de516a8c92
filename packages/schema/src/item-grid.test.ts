import type { TableElement } from '@quire/core';
import { arithmeticColumns, gridOfTable, headerRole, headerRoles, isFigureCell, isSummaryText, stripCodes } from './item-grid.js';

/** A table as the layout hands it over, its cells row by row. */
function table(rows: string[][], headerRows: number): TableElement {
  return {
    kind: 'table', id: 'tbl-1', page: 1, box: null, rows: rows.length, cols: rows[0].length, confidence: 1, headerRows,
    cells: rows.flatMap((r, row) => r.map((text, col) => ({ row, col, rowSpan: 1, colSpan: 1, text, box: null, isHeader: row < headerRows, confidence: 1, id: `tbl-1-r${row}c${col}` }))),
  } as TableElement;
}

describe('item tables', () => {
  it('reads summary lines in several languages, a net total and a tax spelled out included', () => {
    for (const t of ['Montant total net', 'Taxe sur la valeur ajoutée (19,00 %)', 'Montant total brut', 'Rechnungssumme netto', 'zzgl. 19 % MwSt.', 'Subtotal', 'Net amount'])
      expect([t, isSummaryText(t)]).toEqual([t, true]);
    for (const t of ['Audit de sécurité', 'Formation des équipes', 'Standard Mounting Brackets', 'Net']) expect([t, isSummaryText(t)]).toEqual([t, false]);
  });

  it('reads abbreviated headers with points ("P.U. HT", "Q.té") and a code column as no description', () => {
    expect(headerRole('P.U. HT (EUR)')).toBe('unit-price');
    expect(headerRole('Q.té')).toBe('quantity');
    expect(headerRole('CODE ARTICLE')).toBeUndefined();
  });

  it('takes rows without any figure under a one-row header as more header, and gives a column the role of any header line', () => {
    const grid = gridOfTable(table([
      ['#', 'NOM & DESIGNATION, Période', '', '', ''],
      ['Ligne', 'Objet, Classification', 'P.U. HT', 'Qté', 'TOTAL HT'],
      ['', 'Note', '(EUR)', '', '(EUR)'],
      ['1', 'Support', '60,00', '1,00', '60,00'],
      ['2', 'Papier', '30,00', '3,00', '90,00'],
    ], 1));
    expect(grid.rows.map((r) => r[1].text)).toEqual(['Support', 'Papier']);
    expect([1, 2, 3, 4].map((c) => [...headerRoles(grid, c)])).toEqual([['description'], ['unit-price'], ['quantity'], ['amount']]);
  });

  it('keeps the layout header of a table whose rows hold no figure at all', () => {
    const grid = gridOfTable(table([['Name', 'Role'], ['Ada', 'Engineer'], ['Grace', 'Admiral']], 1));
    expect(grid.rows).toHaveLength(2);
  });

  it('counts a cell that ends in the figure its workings explain as a figure, and multiplies with it', () => {
    expect(isFigureCell('(Brut: 65,00) (Rabais: 5,00) (Net): 60,00')).toBe(true);
    expect(isFigureCell('Ballons: various colors, ~2000ml')).toBe(false);
    expect(isFigureCell('5 kg')).toBe(true);
    const grid = gridOfTable(table([
      ['Désignation', 'Prix', 'Qté', 'Montant'],
      ['Support', '(Brut: 65,00) (Rabais: 5,00) (Net): 60,00', '2', '120,00'],
      ['Papier', '(Brut: 31,00) (Rabais: 1,00) (Net): 30,00', '3', '90,00'],
    ], 1));
    expect(arithmeticColumns(grid)).toEqual({ quantity: 2, price: 1, amount: 3 });
  });

  it('lets the headers decide between readings the figures cannot tell apart (1 × 60 = 60)', () => {
    const grid = gridOfTable(table([
      ['Désignation', 'P.U. HT', 'Qté', 'TOTAL HT'],
      ['Support', '60,00', '1', '60,00'],
      ['Papier', '30,00', '3', '28,00'],
      ['Appel', '7,00', '1', '7,00'],
    ], 1));
    expect(arithmeticColumns(grid)).toEqual({ quantity: 2, price: 1, amount: 3 });
  });

  it('strips article codes set before the names only where every description has one', () => {
    expect(stripCodes(['GG-SCRW-A4-01 - High-Grade Screws', 'GG-BRKT-STD-05 - Standard Mounting', null])).toEqual(['High-Grade Screws', 'Standard Mounting', null]);
    expect(stripCodes(['AB12 – Widget', 'Plain item'])).toEqual(['AB12 – Widget', 'Plain item']);
    // a name that opens with a word and a dash is no code ("Design - phase 2"), nor is a year ("2024 - Licence")
    expect(stripCodes(['Design - phase 2', 'Support - hotline'])).toEqual(['Design - phase 2', 'Support - hotline']);
    expect(stripCodes(['2024 - Licence', '2025 - Licence'])).toEqual(['2024 - Licence', '2025 - Licence']);
  });
});
